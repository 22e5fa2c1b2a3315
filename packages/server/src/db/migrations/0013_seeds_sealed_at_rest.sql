CREATE TABLE "seed_key_check" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"check_value" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "seed_key_check_one_row_ck" CHECK ("seed_key_check"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "game_rounds" ADD COLUMN "seed_sealed" boolean DEFAULT false NOT NULL;