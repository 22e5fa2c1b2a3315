-- ---------------------------------------------------------------------------------------------
-- Custom SQL (not generated), first: one prize per position (decision 035). Where an owner (a user,
-- or the global ones) has several active configurations on one position, the newest stays active
-- and the others are deactivated, each with an audit row (no actor; `winner.updated`, isActive
-- true → false, and the configuration that kept the position) and a NOTICE, so the unique index
-- below can be built and nothing changes without a record.
-- ---------------------------------------------------------------------------------------------
DO $$
DECLARE
  duplicate record;
  deactivated integer := 0;
BEGIN
  FOR duplicate IN
    SELECT id, user_id, position, name, percent_bps, kept
    FROM (
      SELECT id, user_id, position, name, percent_bps,
        first_value(id) OVER place AS kept, row_number() OVER place AS rank
      FROM winner_configs
      WHERE is_active
      WINDOW place AS (PARTITION BY COALESCE(user_id, 0), position ORDER BY created_at DESC, id DESC)
    ) ranked
    WHERE rank > 1
    ORDER BY id
  LOOP
    UPDATE winner_configs SET is_active = false WHERE id = duplicate.id;
    INSERT INTO audit_log (actor_id, address, action, target_kind, target_id, target_user_id, details)
    VALUES (NULL, NULL, 'winner.updated', 'winner', duplicate.id, duplicate.user_id, jsonb_build_object(
      'changes', jsonb_build_object('isActive', jsonb_build_object('from', true, 'to', false)),
      'reason', format('Position %s already has a prize', duplicate.position),
      'keptId', duplicate.kept,
      'migration', '0013_lot_draw_2'));
    RAISE NOTICE 'winner configuration % (%, position %, "%", % bps) deactivated: position % already has a prize (configuration %)',
      duplicate.id, COALESCE('user ' || duplicate.user_id, 'global'), duplicate.position, duplicate.name,
      duplicate.percent_bps, duplicate.position, duplicate.kept;
    deactivated := deactivated + 1;
  END LOOP;
  IF deactivated > 0 THEN
    RAISE NOTICE '% duplicate winner configuration(s) deactivated (decision 035; the audit trail lists them)', deactivated;
  END IF;
END
$$;
--> statement-breakpoint
CREATE TABLE "seed_key_check" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"check_value" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "seed_key_check_one_row_ck" CHECK ("seed_key_check"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "game_rounds" ADD COLUMN "seed_sealed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD COLUMN "protocol" text DEFAULT 'LOT-DRAW-1' NOT NULL;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD COLUMN "beacon" jsonb;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD COLUMN "frozen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD COLUMN "beacon_round" bigint;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD COLUMN "beacon_signature" text;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD COLUMN "beacon_randomness" text;--> statement-breakpoint
CREATE UNIQUE INDEX "winner_configs_active_position_uq" ON "winner_configs" USING btree (COALESCE("user_id", 0),"position") WHERE "winner_configs"."is_active";--> statement-breakpoint
-- Custom SQL (not generated): games drawn before the freeze time was recorded froze at their first draw.
UPDATE "game_rounds" SET "frozen_at" = ("draws"->0->>'drawnAt')::timestamptz WHERE jsonb_array_length("draws") > 0;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD CONSTRAINT "game_rounds_beacon_ck" CHECK (("game_rounds"."protocol" = 'LOT-DRAW-2') = ("game_rounds"."beacon" IS NOT NULL)
        AND ("game_rounds"."protocol" = 'LOT-DRAW-1' OR ("game_rounds"."frozen_at" IS NULL) = ("game_rounds"."beacon_round" IS NULL))
        AND ("game_rounds"."beacon_signature" IS NULL OR "game_rounds"."beacon_round" IS NOT NULL)
        AND ("game_rounds"."protocol" = 'LOT-DRAW-1' OR jsonb_array_length("game_rounds"."draws") = 0 OR "game_rounds"."beacon_signature" IS NOT NULL));
