CREATE TABLE "shift_cash_movements" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "shift_cash_movements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"shift_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount" bigint NOT NULL,
	"reason" text NOT NULL,
	"taken_by" text,
	"recorded_by" integer NOT NULL,
	"transaction_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shift_cash_movements_amount_ck" CHECK ("shift_cash_movements"."amount" > 0),
	CONSTRAINT "shift_cash_movements_kind_ck" CHECK ("shift_cash_movements"."kind" IN ('pickup', 'drop', 'paid_in', 'paid_out')),
	CONSTRAINT "shift_cash_movements_taken_by_ck" CHECK (("shift_cash_movements"."kind" IN ('pickup', 'drop')) = ("shift_cash_movements"."taken_by" IS NOT NULL)
        AND ("shift_cash_movements"."transaction_id" IS NULL OR "shift_cash_movements"."kind" = 'pickup'))
);
--> statement-breakpoint
ALTER TABLE "shift_cash_movements" ADD CONSTRAINT "shift_cash_movements_shift_id_shifts_id_fk" FOREIGN KEY ("shift_id") REFERENCES "public"."shifts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shift_cash_movements" ADD CONSTRAINT "shift_cash_movements_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shift_cash_movements" ADD CONSTRAINT "shift_cash_movements_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shift_cash_movements_shift_idx" ON "shift_cash_movements" USING btree ("shift_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "shift_cash_movements_transaction_uq" ON "shift_cash_movements" USING btree ("transaction_id") WHERE "shift_cash_movements"."transaction_id" IS NOT NULL;--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------
-- Custom SQL (not generated), after: a cash movement is kept as recorded (decision 091). It is
-- recorded only while its shift is open (the statements that record one hold the open shift FOR
-- SHARE, so a close waits for them; this is the backstop), and never changed or deleted.
-- ---------------------------------------------------------------------------------------------
CREATE FUNCTION shift_cash_movements_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'cash movements are never changed or deleted' USING ERRCODE = 'restrict_violation';
  END IF;
  IF EXISTS (SELECT 1 FROM shifts WHERE id = NEW.shift_id AND closed_at IS NOT NULL) THEN
    RAISE EXCEPTION 'shift % is closed: no cash movement can be added', NEW.shift_id USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER shift_cash_movements_keep BEFORE INSERT OR UPDATE OR DELETE ON shift_cash_movements FOR EACH ROW EXECUTE FUNCTION shift_cash_movements_keep();
