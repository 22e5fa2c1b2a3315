ALTER TABLE "audit_log" ADD COLUMN "actor_scope" integer[];--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "target_scope" integer[];--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------
-- Custom SQL (not generated): who above the actor and the target user may read each audit row
-- (decision 048). A person's scope is who was above them: their parent and that parent's parent.
-- A row about a game, a prize claim or a shift takes, for its player, the hierarchy recorded on
-- that record (as games are read); any other row the hierarchy each person stood in when it was
-- written. A move (a parent change) is written before the users row changes, and is both the old
-- and the new hierarchy's. These columns are not hashed: they index who reads the record.
-- ---------------------------------------------------------------------------------------------
CREATE FUNCTION audit_ancestors(person integer) RETURNS integer[] LANGUAGE sql STABLE AS $$
  SELECT COALESCE((SELECT array_remove(ARRAY[u.parent_id, p.parent_id], NULL)
    FROM users u LEFT JOIN users p ON p.id = u.parent_id WHERE u.id = person), '{}'::integer[])
$$;
--> statement-breakpoint
CREATE FUNCTION audit_recorded_scope(kind text, target bigint, player integer) RETURNS integer[] LANGUAGE sql STABLE AS $$
  SELECT CASE kind
    WHEN 'game' THEN (SELECT array_remove(ARRAY[g.parent_id, g.superagent_id], NULL) FROM game_rounds g
      WHERE g.id = target AND g.user_id = player)
    WHEN 'claim' THEN (SELECT array_remove(ARRAY[c.parent_id, c.superagent_id], NULL) FROM prize_claims c
      WHERE c.winner_id = target AND c.user_id = player)
    WHEN 'shift' THEN (SELECT array_remove(ARRAY[s.parent_id, s.superagent_id], NULL) FROM shifts s
      WHERE s.id = target AND s.user_id = player)
  END
$$;
--> statement-breakpoint
CREATE FUNCTION audit_log_scope() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved_to integer;
BEGIN
  IF NEW.target_user_id IS NOT NULL AND NEW.target_scope IS NULL THEN
    NEW.target_scope := COALESCE(audit_recorded_scope(NEW.target_kind, NEW.target_id, NEW.target_user_id),
      audit_ancestors(NEW.target_user_id));
    IF NEW.target_kind = 'user' THEN
      moved_to := (NEW.details -> 'changes' -> 'parentId' ->> 'to')::integer;
      IF moved_to IS NOT NULL THEN
        NEW.target_scope := NEW.target_scope || moved_to || audit_ancestors(moved_to);
      END IF;
    END IF;
  END IF;
  IF NEW.actor_id IS NOT NULL AND NEW.actor_scope IS NULL THEN
    NEW.actor_scope := CASE WHEN NEW.actor_id = NEW.target_user_id THEN NEW.target_scope
      ELSE audit_ancestors(NEW.actor_id) END;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_scope BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_scope();
--> statement-breakpoint
-- Rows written before: the same rule, each person's parent then being the `from` of the first
-- parent change the trail recorded for them at or after the row (today's parent if none).
CREATE FUNCTION audit_parent_then(person integer, row_id bigint) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN m.details IS NULL THEN (SELECT u.parent_id FROM users u WHERE u.id = person)
    ELSE (m.details -> 'changes' -> 'parentId' ->> 'from')::integer END
  FROM (SELECT 1) one LEFT JOIN LATERAL (
    SELECT a.details FROM audit_log a
    WHERE a.target_user_id = person AND a.target_kind = 'user' AND a.id >= row_id
      AND a.details -> 'changes' ? 'parentId'
    ORDER BY a.id LIMIT 1) m ON true
$$;
--> statement-breakpoint
CREATE FUNCTION audit_ancestors_then(person integer, row_id bigint) RETURNS integer[] LANGUAGE sql STABLE AS $$
  SELECT array_remove(ARRAY[x.parent, audit_parent_then(x.parent, row_id)], NULL)
  FROM (SELECT audit_parent_then(person, row_id) AS parent) x
$$;
--> statement-breakpoint
ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only;
--> statement-breakpoint
UPDATE audit_log SET target_scope = COALESCE(audit_recorded_scope(target_kind, target_id, target_user_id),
    audit_ancestors_then(target_user_id, id))
  || CASE WHEN target_kind = 'user' AND (details -> 'changes' -> 'parentId' ->> 'to') IS NOT NULL
    THEN (details -> 'changes' -> 'parentId' ->> 'to')::integer
      || audit_ancestors_then((details -> 'changes' -> 'parentId' ->> 'to')::integer, id)
    ELSE '{}'::integer[] END
WHERE target_user_id IS NOT NULL;
--> statement-breakpoint
UPDATE audit_log SET actor_scope = CASE WHEN actor_id = target_user_id THEN target_scope
    ELSE audit_ancestors_then(actor_id, id) END
WHERE actor_id IS NOT NULL;
--> statement-breakpoint
ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only;
--> statement-breakpoint
DROP FUNCTION audit_ancestors_then(integer, bigint);
--> statement-breakpoint
DROP FUNCTION audit_parent_then(integer, bigint);
