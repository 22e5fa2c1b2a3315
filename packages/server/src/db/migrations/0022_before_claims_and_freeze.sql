ALTER TABLE "prize_claims" DROP CONSTRAINT "prize_claims_status_ck";--> statement-breakpoint
ALTER TABLE "audit_baseline" ADD COLUMN "pools_from" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prize_claims" ADD CONSTRAINT "prize_claims_status_ck" CHECK ("prize_claims"."status" IN ('unpaid', 'paid', 'expired', 'before_claims', 'paid_before_claims'));--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------
-- Game pools held before `game.frozen` audit rows existed (LOT-DRAW-1 releases, before migration
-- 0013) have none: the highest of their ids is kept once, and audit:verify expects no freeze row
-- for them, only their settlement or void (decision 059).
-- ---------------------------------------------------------------------------------------------
UPDATE audit_baseline SET pools_from = COALESCE((SELECT max(id) FROM transactions
  WHERE type = 'game' AND created_at < COALESCE((SELECT min(at) FROM audit_log WHERE action = 'game.frozen'),
    'infinity'::timestamptz)), 0)
WHERE id = 1;
