CREATE TABLE "game_rounds" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "game_rounds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"user_id" integer NOT NULL,
	"parent_id" integer,
	"superagent_id" integer,
	"status" text DEFAULT 'open' NOT NULL,
	"start_range" integer NOT NULL,
	"end_range" integer NOT NULL,
	"bet_amount" bigint NOT NULL,
	"prizes" jsonb NOT NULL,
	"seed" "bytea" NOT NULL,
	"commitment" text NOT NULL,
	"entries" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"entries_digest" text,
	"draws" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"transaction_id" integer,
	"sale_id" integer,
	"void_reason" text,
	"voided_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "game_rounds_code_unique" UNIQUE("code"),
	CONSTRAINT "game_rounds_transaction_id_unique" UNIQUE("transaction_id"),
	CONSTRAINT "game_rounds_sale_id_unique" UNIQUE("sale_id"),
	CONSTRAINT "game_rounds_status_ck" CHECK ("game_rounds"."status" IN ('open', 'drawing', 'settled', 'voided', 'discarded')),
	CONSTRAINT "game_rounds_range_ck" CHECK ("game_rounds"."start_range" >= 1 AND "game_rounds"."start_range" < "game_rounds"."end_range" AND "game_rounds"."end_range" <= 100),
	CONSTRAINT "game_rounds_bet_ck" CHECK ("game_rounds"."bet_amount" > 0),
	CONSTRAINT "game_rounds_hold_ck" CHECK (("game_rounds"."status" IN ('open', 'discarded')) = ("game_rounds"."transaction_id" IS NULL) AND ("game_rounds"."status" = 'settled') = ("game_rounds"."sale_id" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "game_rounds" ADD CONSTRAINT "game_rounds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD CONSTRAINT "game_rounds_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD CONSTRAINT "game_rounds_superagent_id_users_id_fk" FOREIGN KEY ("superagent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD CONSTRAINT "game_rounds_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD CONSTRAINT "game_rounds_sale_id_games_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD CONSTRAINT "game_rounds_voided_by_users_id_fk" FOREIGN KEY ("voided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "game_rounds_in_progress_uq" ON "game_rounds" USING btree ("user_id") WHERE "game_rounds"."status" IN ('open', 'drawing');--> statement-breakpoint
CREATE INDEX "game_rounds_user_idx" ON "game_rounds" USING btree ("user_id","status","created_at");--> statement-breakpoint
CREATE INDEX "game_rounds_parent_idx" ON "game_rounds" USING btree ("parent_id","status","created_at");--> statement-breakpoint
CREATE INDEX "game_rounds_superagent_idx" ON "game_rounds" USING btree ("superagent_id","status","created_at");--> statement-breakpoint
CREATE INDEX "game_rounds_status_idx" ON "game_rounds" USING btree ("status","created_at");