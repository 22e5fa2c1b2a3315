CREATE TABLE "business_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"claim_period_days" integer DEFAULT 90 NOT NULL,
	"claims_any_shop_of_agent" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "business_settings_one_row_ck" CHECK ("business_settings"."id" = 1),
	CONSTRAINT "business_settings_claim_period_ck" CHECK ("business_settings"."claim_period_days" BETWEEN 1 AND 3650)
);
--> statement-breakpoint
CREATE TABLE "prize_claims" (
	"winner_id" integer PRIMARY KEY NOT NULL,
	"game_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"parent_id" integer,
	"superagent_id" integer,
	"amount" bigint NOT NULL,
	"entry_code" text,
	"status" text DEFAULT 'unpaid' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"paid_by" integer,
	"shift_id" integer,
	"claimer_name" text,
	"claimer_id_number" text,
	"receipt_prints" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "prize_claims_amount_ck" CHECK ("prize_claims"."amount" > 0),
	CONSTRAINT "prize_claims_status_ck" CHECK ("prize_claims"."status" IN ('unpaid', 'paid', 'expired', 'before_claims')),
	CONSTRAINT "prize_claims_paid_ck" CHECK (("prize_claims"."status" = 'paid') = ("prize_claims"."paid_at" IS NOT NULL)
        AND ("prize_claims"."paid_at" IS NULL) = ("prize_claims"."paid_by" IS NULL)
        AND ("prize_claims"."paid_at" IS NULL) = ("prize_claims"."claimer_name" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "shifts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "shifts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"parent_id" integer,
	"superagent_id" integer,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"opened_by" integer NOT NULL,
	"opening_float" bigint NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" integer,
	"expected_cash" bigint,
	"counted_cash" bigint,
	"variance" bigint,
	"variance_reason" text,
	"z_number" integer,
	"z_report" jsonb,
	CONSTRAINT "shifts_user_z_uq" UNIQUE("user_id","z_number"),
	CONSTRAINT "shifts_float_ck" CHECK ("shifts"."opening_float" >= 0),
	CONSTRAINT "shifts_close_ck" CHECK (("shifts"."closed_at" IS NULL) = ("shifts"."z_number" IS NULL)
        AND ("shifts"."closed_at" IS NULL) = ("shifts"."counted_cash" IS NULL)
        AND ("shifts"."closed_at" IS NULL) = ("shifts"."expected_cash" IS NULL)
        AND ("shifts"."closed_at" IS NULL) = ("shifts"."z_report" IS NULL)
        AND ("shifts"."counted_cash" IS NULL OR ("shifts"."counted_cash" >= 0 AND "shifts"."variance" = "shifts"."counted_cash" - "shifts"."expected_cash"))
        AND ("shifts"."variance" IS NULL OR "shifts"."variance" = 0 OR "shifts"."variance_reason" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "shop_counters" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"games" integer DEFAULT 0 NOT NULL,
	"z_reports" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "shop_counters_ck" CHECK ("shop_counters"."games" >= 0 AND "shop_counters"."z_reports" >= 0)
);
--> statement-breakpoint
ALTER TABLE "game_rounds" ADD COLUMN "number" integer;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD COLUMN "shift_id" integer;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "number" integer;--> statement-breakpoint
ALTER TABLE "business_settings" ADD CONSTRAINT "business_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prize_claims" ADD CONSTRAINT "prize_claims_winner_id_game_winners_id_fk" FOREIGN KEY ("winner_id") REFERENCES "public"."game_winners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prize_claims" ADD CONSTRAINT "prize_claims_game_id_game_rounds_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."game_rounds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prize_claims" ADD CONSTRAINT "prize_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prize_claims" ADD CONSTRAINT "prize_claims_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prize_claims" ADD CONSTRAINT "prize_claims_superagent_id_users_id_fk" FOREIGN KEY ("superagent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prize_claims" ADD CONSTRAINT "prize_claims_paid_by_users_id_fk" FOREIGN KEY ("paid_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prize_claims" ADD CONSTRAINT "prize_claims_shift_id_shifts_id_fk" FOREIGN KEY ("shift_id") REFERENCES "public"."shifts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shifts" ADD CONSTRAINT "shifts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shifts" ADD CONSTRAINT "shifts_parent_id_users_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shifts" ADD CONSTRAINT "shifts_superagent_id_users_id_fk" FOREIGN KEY ("superagent_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shifts" ADD CONSTRAINT "shifts_opened_by_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shifts" ADD CONSTRAINT "shifts_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_counters" ADD CONSTRAINT "shop_counters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prize_claims_game_idx" ON "prize_claims" USING btree ("game_id");--> statement-breakpoint
CREATE INDEX "prize_claims_entry_code_idx" ON "prize_claims" USING btree ("entry_code");--> statement-breakpoint
CREATE INDEX "prize_claims_user_idx" ON "prize_claims" USING btree ("user_id","status","created_at");--> statement-breakpoint
CREATE INDEX "prize_claims_parent_idx" ON "prize_claims" USING btree ("parent_id","status","created_at");--> statement-breakpoint
CREATE INDEX "prize_claims_superagent_idx" ON "prize_claims" USING btree ("superagent_id","status","created_at");--> statement-breakpoint
CREATE INDEX "prize_claims_status_idx" ON "prize_claims" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "prize_claims_shift_idx" ON "prize_claims" USING btree ("shift_id") WHERE "prize_claims"."shift_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "shifts_one_open_uq" ON "shifts" USING btree ("user_id") WHERE "shifts"."closed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "shifts_user_idx" ON "shifts" USING btree ("user_id","opened_at");--> statement-breakpoint
CREATE INDEX "shifts_parent_idx" ON "shifts" USING btree ("parent_id","opened_at");--> statement-breakpoint
CREATE INDEX "shifts_superagent_idx" ON "shifts" USING btree ("superagent_id","opened_at");--> statement-breakpoint
CREATE INDEX "shifts_opened_idx" ON "shifts" USING btree ("opened_at");--> statement-breakpoint
ALTER TABLE "game_rounds" ADD CONSTRAINT "game_rounds_shift_id_shifts_id_fk" FOREIGN KEY ("shift_id") REFERENCES "public"."shifts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "game_rounds_shift_idx" ON "game_rounds" USING btree ("shift_id") WHERE "game_rounds"."shift_id" IS NOT NULL;--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------
-- Custom SQL (not generated), after: one game number per shop (decision 037). Existing rounds are
-- numbered 1, 2, 3… per shop in the order they opened, their sales take the round's number, and
-- the counters start after them. From now on a trigger gives each new round the shop's next number
-- in the inserting transaction: a rolled-back open gives its number back, so there is no gap.
-- ---------------------------------------------------------------------------------------------
UPDATE game_rounds g SET number = n.number
FROM (SELECT id, row_number() OVER (PARTITION BY user_id ORDER BY created_at, id) AS number FROM game_rounds) n
WHERE g.id = n.id;--> statement-breakpoint
ALTER TABLE "game_rounds" ALTER COLUMN "number" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "game_rounds" ADD CONSTRAINT "game_rounds_user_number_uq" UNIQUE("user_id","number");--> statement-breakpoint
UPDATE games s SET number = g.number FROM game_rounds g WHERE g.sale_id = s.id;--> statement-breakpoint
INSERT INTO shop_counters (user_id, games)
SELECT user_id, max(number) FROM game_rounds GROUP BY user_id;--> statement-breakpoint
CREATE FUNCTION game_rounds_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO shop_counters AS c (user_id, games) VALUES (NEW.user_id, 1)
  ON CONFLICT (user_id) DO UPDATE SET games = c.games + 1
  RETURNING c.games INTO NEW.number;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER game_rounds_number BEFORE INSERT ON game_rounds FOR EACH ROW EXECUTE FUNCTION game_rounds_number();--> statement-breakpoint
-- The business settings' one row, with the defaults.
INSERT INTO business_settings (id) VALUES (1);--> statement-breakpoint
-- Every prize of a settled game is a claim (decision 038). The prizes won before this release were
-- paid, or not, without a record: they are `before_claims`, never payable, until the admin marks
-- them paid (decision 060; this backfill wrote them unpaid until then, which made them payable).
INSERT INTO prize_claims (winner_id, game_id, user_id, parent_id, superagent_id, amount, entry_code, status, created_at, expires_at)
SELECT w.id, g.id, g.user_id, g.parent_id, g.superagent_id, w.prize_amount,
  (SELECT e->>'nonce' FROM jsonb_array_elements(g.entries) e WHERE (e->>'number')::int = w.number LIMIT 1),
  'before_claims',
  COALESCE(g.ended_at, g.created_at), COALESCE(g.ended_at, g.created_at) + interval '90 days'
FROM game_rounds g JOIN game_winners w ON w.game_id = g.sale_id
WHERE g.status = 'settled' AND w.prize_amount > 0;--> statement-breakpoint
-- A closed shift and its Z report are kept as they were: no change once closed, no delete ever.
CREATE FUNCTION shifts_keep_closed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'shifts are never deleted' USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.closed_at IS NOT NULL THEN
    RAISE EXCEPTION 'shift % is closed: its Z report cannot change', OLD.id USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER shifts_keep_closed BEFORE UPDATE OR DELETE ON shifts FOR EACH ROW EXECUTE FUNCTION shifts_keep_closed();