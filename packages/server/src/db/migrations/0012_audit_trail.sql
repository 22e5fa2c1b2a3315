CREATE TABLE "audit_heads" (
	"chain" integer PRIMARY KEY NOT NULL,
	"seq" integer NOT NULL,
	"hash" "bytea" NOT NULL,
	"prev_hash" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"chain" integer DEFAULT 0 NOT NULL,
	"seq" integer DEFAULT 0 NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" integer,
	"address" text,
	"action" text NOT NULL,
	"target_kind" text,
	"target_id" bigint,
	"target_user_id" integer,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"prev_hash" "bytea" DEFAULT '\x'::bytea NOT NULL,
	"hash" "bytea" DEFAULT '\x'::bytea NOT NULL,
	CONSTRAINT "audit_log_chain_seq_uq" UNIQUE("chain","seq")
);
--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_target_user_idx" ON "audit_log" USING btree ("target_user_id","id");--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------
-- Custom SQL (not generated): the audit trail's chain and its refusal of changes (decision 029).
-- ---------------------------------------------------------------------------------------------
-- A row's canonical content: every column but the hashes, each written as its length in bytes,
-- a colon and its text (NULL as '~'), so no two rows can share one encoding. The time is integer
-- microseconds since the epoch and the details the jsonb text, so nothing depends on the session's
-- settings; `npm run audit:verify` rebuilds the same bytes in Node (modules/audit/audit-chain.ts).
CREATE FUNCTION audit_field(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN value IS NULL THEN '~' ELSE octet_length(value)::text || ':' || value END
$$;
--> statement-breakpoint
CREATE FUNCTION audit_log_chain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One chain per actor: the rows without one (a failed sign-in) share chain 0.
  NEW.chain := COALESCE(NEW.actor_id, 0);
  -- One UPDATE locks the chain's head, moves it on by this row and answers where the row sits:
  -- in SET every h.* is the head before this row, and RETURNING shows the head after it.
  FOR attempt IN 1..2 LOOP
    UPDATE audit_heads h SET seq = h.seq + 1, prev_hash = h.hash, hash = sha256(h.hash || convert_to(
        audit_field(NEW.id::text) || audit_field(NEW.chain::text) || audit_field((h.seq + 1)::text)
        || audit_field((extract(epoch FROM NEW.at) * 1000000)::bigint::text)
        || audit_field(NEW.actor_id::text) || audit_field(NEW.address) || audit_field(NEW.action)
        || audit_field(NEW.target_kind) || audit_field(NEW.target_id::text) || audit_field(NEW.target_user_id::text)
        || audit_field(NEW.details::text), 'UTF8'))
      WHERE h.chain = NEW.chain
      RETURNING h.seq, h.prev_hash, h.hash INTO NEW.seq, NEW.prev_hash, NEW.hash;
    IF FOUND THEN
      RETURN NEW;
    END IF;
    -- The chain's first row: its head starts at seq 0 and 32 zero bytes (another transaction may
    -- create it first; then this one waits for it and moves that head on).
    INSERT INTO audit_heads (chain, seq, hash, prev_hash)
      VALUES (NEW.chain, 0, decode(repeat('00', 32), 'hex'), decode(repeat('00', 32), 'hex'))
      ON CONFLICT (chain) DO NOTHING;
  END LOOP;
  RAISE EXCEPTION 'audit chain % has no head', NEW.chain;
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_chain BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_chain();
--> statement-breakpoint
CREATE FUNCTION audit_log_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit trail is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
FOR EACH ROW EXECUTE FUNCTION audit_log_refuse();
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse();
