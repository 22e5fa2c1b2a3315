CREATE TABLE "user_counts" (
	"role" text NOT NULL,
	"status" text NOT NULL,
	"users" integer NOT NULL,
	CONSTRAINT "user_counts_pk" PRIMARY KEY("role","status")
);
--> statement-breakpoint
CREATE FUNCTION user_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One upsert per statement from its transition tables (a bulk insert of 100,000 users touches
  -- each count row once), in key order so that concurrent statements lock the rows alike.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO user_counts AS c (role, status, users)
    SELECT role, status, count(*) FROM new_rows WHERE deleted_at IS NULL
    GROUP BY role, status ORDER BY role, status
    ON CONFLICT (role, status) DO UPDATE SET users = c.users + EXCLUDED.users;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO user_counts AS c (role, status, users)
    SELECT role, status, sum(delta) FROM (
      SELECT role, status, 1 AS delta FROM new_rows WHERE deleted_at IS NULL
      UNION ALL
      SELECT role, status, -1 FROM old_rows WHERE deleted_at IS NULL
    ) moved
    GROUP BY role, status HAVING sum(delta) <> 0 ORDER BY role, status
    ON CONFLICT (role, status) DO UPDATE SET users = c.users + EXCLUDED.users;
  ELSE
    UPDATE user_counts c SET users = c.users - gone.n
    FROM (SELECT role, status, count(*) AS n FROM old_rows WHERE deleted_at IS NULL GROUP BY role, status) gone
    WHERE c.role = gone.role AND c.status = gone.status;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER users_counts_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION user_counts_apply();--> statement-breakpoint
CREATE TRIGGER users_counts_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION user_counts_apply();--> statement-breakpoint
CREATE TRIGGER users_counts_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION user_counts_apply();--> statement-breakpoint
INSERT INTO user_counts (role, status, users)
SELECT role, status, count(*) FROM users WHERE deleted_at IS NULL GROUP BY role, status;
