CREATE TABLE "game_log" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"origin" text,
	"vkey" text,
	"size" bigint DEFAULT 0 NOT NULL,
	"edge" "bytea" DEFAULT '\x'::bytea NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"forked_at" timestamp with time zone,
	"forked_reason" text,
	CONSTRAINT "game_log_one_row_ck" CHECK ("game_log"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "game_log_entries" (
	"idx" bigint PRIMARY KEY NOT NULL,
	"game_id" integer NOT NULL,
	"kind" text NOT NULL,
	"data" "bytea" NOT NULL,
	"attempt" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "game_log_hashes" (
	"level" integer NOT NULL,
	"idx" bigint NOT NULL,
	"hash" "bytea" NOT NULL,
	CONSTRAINT "game_log_hashes_level_idx_pk" PRIMARY KEY("level","idx")
);
--> statement-breakpoint
ALTER TABLE "game_rounds" ADD COLUMN "log_index" bigint;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD COLUMN "log_checkpoint" text;--> statement-breakpoint
CREATE INDEX "game_log_entries_game_idx" ON "game_log_entries" USING btree ("game_id","idx");
--> statement-breakpoint
-- The log's one head row, empty: the server names it (origin, key) on its first start (decision 081).
INSERT INTO "game_log" ("id") VALUES (1);
