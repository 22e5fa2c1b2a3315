CREATE TABLE "audit_baseline" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"ledger_from" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "audit_baseline_one_ck" CHECK ("audit_baseline"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "audit_checkpoints" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_checkpoints_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"made_at" timestamp with time zone NOT NULL,
	"digest" text NOT NULL,
	"chains" integer NOT NULL,
	"rows" bigint NOT NULL,
	"target" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_checkpoints_made_idx" ON "audit_checkpoints" USING btree ("made_at");--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------
-- Custom SQL (not generated): where the ledger's comparison with the audit trail starts (decision
-- 044). Ledger rows written before the first audit row (before migration 0012) have no audit row;
-- the highest of their ids is kept here once, so later rows are always compared.
-- ---------------------------------------------------------------------------------------------
INSERT INTO audit_baseline (id, ledger_from)
SELECT 1, COALESCE((SELECT max(id) FROM transactions
  WHERE created_at < COALESCE((SELECT min(at) FROM audit_log), 'infinity'::timestamptz)), 0);
