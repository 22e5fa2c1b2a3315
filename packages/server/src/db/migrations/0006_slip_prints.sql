CREATE TABLE "slip_prints" (
	"game_id" integer NOT NULL,
	"kind" text NOT NULL,
	"number" integer NOT NULL,
	"print_count" integer NOT NULL,
	"first_printed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_printed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "slip_prints_pk" PRIMARY KEY("game_id","kind","number"),
	CONSTRAINT "slip_prints_kind_ck" CHECK ("slip_prints"."kind" IN ('entry', 'result')),
	CONSTRAINT "slip_prints_number_ck" CHECK (CASE "slip_prints"."kind" WHEN 'result' THEN "slip_prints"."number" = 0 ELSE "slip_prints"."number" BETWEEN 1 AND 100 END),
	CONSTRAINT "slip_prints_count_ck" CHECK ("slip_prints"."print_count" >= 1)
);
--> statement-breakpoint
ALTER TABLE "slip_prints" ADD CONSTRAINT "slip_prints_game_id_game_rounds_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."game_rounds"("id") ON DELETE no action ON UPDATE no action;