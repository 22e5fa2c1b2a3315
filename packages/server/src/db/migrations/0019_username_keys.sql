-- Usernames compared as people read them (decision 047): the key of @lot/domain/username-key.ts in
-- SQL (NFKC, invisible format characters dropped, lower case, final sigma as sigma, the dotted
-- capital I's combining dot dropped, NFKC again), kept by the database in a generated column.
CREATE FUNCTION lot_username_key(name text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN normalize(
    replace(
      replace(
        lower(normalize(regexp_replace(name, '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]', '', 'g'), NFKC)),
        U&'\03C2', U&'\03C3'),
      U&'i\0307', 'i'),
    NFKC);--> statement-breakpoint
-- Live users whose names read the same cannot both keep them: the migration stops and names them.
DO $$
DECLARE
  clashes text;
BEGIN
  SELECT string_agg(names, '; ' ORDER BY first) INTO clashes
  FROM (
    SELECT min(id) AS first, string_agg(format('%s (id %s)', username, id), ', ' ORDER BY id) AS names
    FROM users
    WHERE deleted_at IS NULL
    GROUP BY lot_username_key(username)
    HAVING count(*) > 1
  ) AS groups;
  IF clashes IS NOT NULL THEN
    RAISE EXCEPTION 'These live users have usernames that read the same: %. Rename all but one in each group (UPDATE users SET username = ... WHERE id = ...), then start LOT again (decision 047).', clashes;
  END IF;
END $$;--> statement-breakpoint
DROP INDEX "users_username_live_uq";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "username_key" text GENERATED ALWAYS AS (lot_username_key(username)) STORED NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_live_uq" ON "users" USING btree ("username_key") WHERE "users"."deleted_at" IS NULL;
