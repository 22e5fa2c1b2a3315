CREATE TABLE "game_winners" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "game_winners_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"game_id" integer NOT NULL,
	"number" integer NOT NULL,
	"name" text NOT NULL,
	"phone_number" text NOT NULL,
	"position" integer NOT NULL,
	"prize_amount" bigint NOT NULL,
	CONSTRAINT "game_winners_prize_ck" CHECK ("game_winners"."prize_amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "games" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "games_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"parent_id" integer,
	"superagent_id" integer,
	"start_range" integer NOT NULL,
	"end_range" integer NOT NULL,
	"bet_amount" bigint NOT NULL,
	"pool" bigint NOT NULL,
	"total_prize" bigint NOT NULL,
	"commission" bigint NOT NULL,
	"selected_count" integer NOT NULL,
	"winners_count" integer NOT NULL,
	"game_data" jsonb NOT NULL,
	"transaction_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "games_transaction_id_unique" UNIQUE("transaction_id"),
	CONSTRAINT "games_range_ck" CHECK ("games"."start_range" >= 1 AND "games"."start_range" < "games"."end_range" AND "games"."end_range" <= 100),
	CONSTRAINT "games_money_ck" CHECK ("games"."bet_amount" > 0 AND "games"."total_prize" >= 0 AND "games"."commission" >= 0 AND "games"."pool" = "games"."total_prize" + "games"."commission"),
	CONSTRAINT "games_pool_ck" CHECK ("games"."pool" = "games"."bet_amount" * "games"."selected_count")
);
--> statement-breakpoint
CREATE TABLE "winner_configs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "winner_configs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer,
	"name" text NOT NULL,
	"percent_bps" integer NOT NULL,
	"position" integer NOT NULL,
	"description" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "winner_configs_percent_ck" CHECK ("winner_configs"."percent_bps" BETWEEN 0 AND 10000),
	CONSTRAINT "winner_configs_position_ck" CHECK ("winner_configs"."position" >= 1)
);
--> statement-breakpoint
ALTER TABLE "game_winners" ADD CONSTRAINT "game_winners_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_superagent_id_users_id_fk" FOREIGN KEY ("superagent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "winner_configs" ADD CONSTRAINT "winner_configs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "game_winners_game_idx" ON "game_winners" USING btree ("game_id","position");--> statement-breakpoint
CREATE INDEX "games_created_idx" ON "games" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "games_user_idx" ON "games" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "games_parent_idx" ON "games" USING btree ("parent_id","created_at","id");--> statement-breakpoint
CREATE INDEX "games_superagent_idx" ON "games" USING btree ("superagent_id","created_at","id");--> statement-breakpoint
CREATE INDEX "winner_configs_user_idx" ON "winner_configs" USING btree ("user_id","position");