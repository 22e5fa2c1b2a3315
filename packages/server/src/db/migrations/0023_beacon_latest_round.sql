-- L, the latest beacon round public at a LOT-DRAW-2 freeze (decision 076), recorded with R from now on;
-- games frozen before stay null, and their proofs are checked by the rule they froze under.
ALTER TABLE "game_rounds" ADD COLUMN "beacon_latest_round" bigint;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD CONSTRAINT "game_rounds_latest_round_ck" CHECK ("game_rounds"."beacon_latest_round" IS NULL OR ("game_rounds"."beacon_round" IS NOT NULL AND "game_rounds"."beacon_latest_round" >= 1 AND "game_rounds"."beacon_latest_round" < "game_rounds"."beacon_round"));