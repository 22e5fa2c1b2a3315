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
-- Custom SQL (not generated): games drawn before the freeze time was recorded froze at their first draw.
UPDATE "game_rounds" SET "frozen_at" = ("draws"->0->>'drawnAt')::timestamptz WHERE jsonb_array_length("draws") > 0;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD CONSTRAINT "game_rounds_beacon_ck" CHECK (("game_rounds"."protocol" = 'LOT-DRAW-2') = ("game_rounds"."beacon" IS NOT NULL)
        AND ("game_rounds"."protocol" = 'LOT-DRAW-1' OR ("game_rounds"."frozen_at" IS NULL) = ("game_rounds"."beacon_round" IS NULL))
        AND ("game_rounds"."beacon_signature" IS NULL OR "game_rounds"."beacon_round" IS NOT NULL)
        AND ("game_rounds"."protocol" = 'LOT-DRAW-1' OR jsonb_array_length("game_rounds"."draws") = 0 OR "game_rounds"."beacon_signature" IS NOT NULL));
