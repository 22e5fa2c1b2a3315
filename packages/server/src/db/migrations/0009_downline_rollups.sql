CREATE TABLE "branch_daily" (
	"superagent_id" integer NOT NULL,
	"branch_id" integer NOT NULL,
	"day" date NOT NULL,
	"games" integer NOT NULL,
	"numbers" bigint NOT NULL,
	"pool" bigint NOT NULL,
	"prizes" bigint NOT NULL,
	"commission" bigint NOT NULL,
	CONSTRAINT "branch_daily_pk" PRIMARY KEY("superagent_id","branch_id","day")
);
--> statement-breakpoint
CREATE TABLE "money_daily" (
	"day" date NOT NULL,
	"from_top" integer NOT NULL,
	"to_top" integer NOT NULL,
	"type" text NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "money_daily_pk" PRIMARY KEY("day","from_top","to_top","type")
);
--> statement-breakpoint
ALTER TABLE "sales_daily" ADD COLUMN "numbers" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sales_daily" ADD COLUMN "pool" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sales_daily" ADD COLUMN "prizes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The game rollups (decision 023): sales_daily grows the downline report's columns, branch_daily
-- keeps the same figures per branch of a superagent (its agent, or a player directly under it or
-- without a superagent). One function keeps both, for every write path.
CREATE FUNCTION sales_daily_add(g games, s integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO sales_daily AS d (superagent_id, day, games, numbers, pool, prizes, commission)
  VALUES (COALESCE(g.superagent_id, 0), (g.created_at AT TIME ZONE 'UTC')::date, s, s * g.selected_count,
          s * g.pool, s * g.total_prize, s * g.commission)
  ON CONFLICT (superagent_id, day) DO UPDATE SET games = d.games + EXCLUDED.games,
    numbers = d.numbers + EXCLUDED.numbers, pool = d.pool + EXCLUDED.pool, prizes = d.prizes + EXCLUDED.prizes,
    commission = d.commission + EXCLUDED.commission;
  INSERT INTO branch_daily AS d (superagent_id, branch_id, day, games, numbers, pool, prizes, commission)
  VALUES (COALESCE(g.superagent_id, 0),
          CASE WHEN g.parent_id IS NULL OR g.parent_id = g.superagent_id THEN g.user_id ELSE g.parent_id END,
          (g.created_at AT TIME ZONE 'UTC')::date, s, s * g.selected_count, s * g.pool, s * g.total_prize,
          s * g.commission)
  ON CONFLICT (superagent_id, branch_id, day) DO UPDATE SET games = d.games + EXCLUDED.games,
    numbers = d.numbers + EXCLUDED.numbers, pool = d.pool + EXCLUDED.pool, prizes = d.prizes + EXCLUDED.prizes,
    commission = d.commission + EXCLUDED.commission;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sales_daily_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM sales_daily_add(OLD, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM sales_daily_add(NEW, 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER games_sales_daily ON games;
--> statement-breakpoint
CREATE TRIGGER games_sales_daily
AFTER INSERT OR UPDATE OF created_at, user_id, parent_id, superagent_id, selected_count, pool, total_prize, commission
   OR DELETE ON games
FOR EACH ROW EXECUTE FUNCTION sales_daily_apply();
--> statement-breakpoint
UPDATE sales_daily d SET numbers = g.numbers, pool = g.pool, prizes = g.prizes
FROM (SELECT COALESCE(superagent_id, 0) AS superagent_id, (created_at AT TIME ZONE 'UTC')::date AS day,
             sum(selected_count) AS numbers, sum(pool) AS pool, sum(total_prize) AS prizes
      FROM games GROUP BY 1, 2) g
WHERE d.superagent_id = g.superagent_id AND d.day = g.day;
--> statement-breakpoint
INSERT INTO branch_daily (superagent_id, branch_id, day, games, numbers, pool, prizes, commission)
SELECT COALESCE(superagent_id, 0),
       CASE WHEN parent_id IS NULL OR parent_id = superagent_id THEN user_id ELSE parent_id END,
       (created_at AT TIME ZONE 'UTC')::date, count(*), sum(selected_count), sum(pool), sum(total_prize), sum(commission)
FROM games GROUP BY 1, 2, 3;
--> statement-breakpoint
-- The money rollup (decision 023). An account's top-level subtree: a superagent's own, its agents'
-- and their users'; a user without a superagent its own; the admin 0.
CREATE FUNCTION top_of(role text, id integer, parent_role text, parent_id integer, grandparent_id integer)
RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE role WHEN 'superagent' THEN id WHEN 'agent' THEN parent_id
    WHEN 'user' THEN CASE parent_role WHEN 'superagent' THEN parent_id WHEN 'agent' THEN grandparent_id ELSE id END
    ELSE 0 END
$$;
--> statement-breakpoint
CREATE FUNCTION account_top(account integer) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT COALESCE((SELECT top_of(u.role, u.id, p.role, p.id, p.parent_id)
                   FROM users u LEFT JOIN users p ON p.id = u.parent_id WHERE u.id = account), 0)
$$;
--> statement-breakpoint
-- Only money that crosses from one top-level subtree to another is kept: what moves inside one is
-- never a figure of the admin's report, and leaving it out keeps the rows of busy shops apart.
CREATE FUNCTION money_daily_add(integer, integer, date, text, bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO money_daily AS d (day, from_top, to_top, type, amount)
  SELECT $3, $1, $2, $4, $5 WHERE $1 <> $2
  ON CONFLICT (day, from_top, to_top, type) DO UPDATE SET amount = d.amount + EXCLUDED.amount
$$;
--> statement-breakpoint
CREATE FUNCTION money_daily_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.type IN ('topup', 'transfer', 'takeback') AND OLD.status = 'completed' THEN
    PERFORM money_daily_add(account_top(OLD.user_id), account_top(OLD.receiver_id),
                            (OLD.created_at AT TIME ZONE 'UTC')::date, OLD.type, -OLD.amount);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.type IN ('topup', 'transfer', 'takeback') AND NEW.status = 'completed' THEN
    PERFORM money_daily_add(account_top(NEW.user_id), account_top(NEW.receiver_id),
                            (NEW.created_at AT TIME ZONE 'UTC')::date, NEW.type, NEW.amount);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER transactions_money_daily_insert AFTER INSERT ON transactions FOR EACH ROW
WHEN (NEW.type IN ('topup', 'transfer', 'takeback') AND NEW.status = 'completed')
EXECUTE FUNCTION money_daily_apply();
--> statement-breakpoint
CREATE TRIGGER transactions_money_daily_change
AFTER UPDATE OF type, status, amount, user_id, receiver_id, created_at OR DELETE ON transactions
FOR EACH ROW EXECUTE FUNCTION money_daily_apply();
--> statement-breakpoint
-- A change of parent moves the account's past money (and, for an agent, its users') to the subtree
-- it stands in now: each ledger row of an affected account is taken out of the pair of subtrees
-- its two sides stood in before the statement and added to the pair they stand in after it.
CREATE FUNCTION money_daily_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH moved AS (
    SELECT o.id, o.parent_id FROM old_users o JOIN new_users n ON n.id = o.id
    WHERE o.parent_id IS DISTINCT FROM n.parent_id
  ), affected AS (
    SELECT id FROM moved UNION SELECT u.id FROM users u JOIN moved m ON u.parent_id = m.id
  ), before AS (
    SELECT a.id, top_of(u.role, u.id, p.role, p.id, CASE WHEN mp.id IS NULL THEN p.parent_id ELSE mp.parent_id END) AS top
    FROM affected a JOIN users u ON u.id = a.id
    LEFT JOIN moved mu ON mu.id = u.id
    LEFT JOIN users p ON p.id = CASE WHEN mu.id IS NULL THEN u.parent_id ELSE mu.parent_id END
    LEFT JOIN moved mp ON mp.id = p.id
  ), touched AS (
    SELECT t.created_at, t.type, t.amount, t.user_id, t.receiver_id FROM transactions t
    WHERE t.user_id IN (SELECT id FROM affected)
      AND t.type IN ('topup', 'transfer', 'takeback') AND t.status = 'completed'
    UNION ALL
    SELECT t.created_at, t.type, t.amount, t.user_id, t.receiver_id FROM transactions t
    WHERE t.receiver_id IN (SELECT id FROM affected) AND t.user_id NOT IN (SELECT id FROM affected)
      AND t.type IN ('topup', 'transfer', 'takeback') AND t.status = 'completed'
  ), sides AS (
    SELECT (r.created_at AT TIME ZONE 'UTC')::date AS day, r.type, r.amount,
           COALESCE(bf.top, account_top(r.user_id)) AS from_then, account_top(r.user_id) AS from_now,
           COALESCE(bt.top, account_top(r.receiver_id)) AS to_then, account_top(r.receiver_id) AS to_now
    FROM touched r LEFT JOIN before bf ON bf.id = r.user_id LEFT JOIN before bt ON bt.id = r.receiver_id
  ), deltas AS (
    SELECT day, from_then AS from_top, to_then AS to_top, type, -amount AS amount FROM sides
    WHERE from_then <> to_then AND (from_then, to_then) IS DISTINCT FROM (from_now, to_now)
    UNION ALL
    SELECT day, from_now, to_now, type, amount FROM sides
    WHERE from_now <> to_now AND (from_then, to_then) IS DISTINCT FROM (from_now, to_now)
  )
  INSERT INTO money_daily AS d (day, from_top, to_top, type, amount)
  -- In key order, so that two moves at once lock the rows they share in the same order.
  SELECT day, from_top, to_top, type, sum(amount) FROM deltas GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (day, from_top, to_top, type) DO UPDATE SET amount = d.amount + EXCLUDED.amount;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_money_daily_move AFTER UPDATE ON users
REFERENCING OLD TABLE AS old_users NEW TABLE AS new_users
FOR EACH STATEMENT EXECUTE FUNCTION money_daily_move();
--> statement-breakpoint
INSERT INTO money_daily (day, from_top, to_top, type, amount)
SELECT day, from_top, to_top, type, sum(amount)
FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, account_top(user_id) AS from_top,
             account_top(receiver_id) AS to_top, type, amount
      FROM transactions WHERE type IN ('topup', 'transfer', 'takeback') AND status = 'completed') moves
WHERE from_top <> to_top
GROUP BY 1, 2, 3, 4;
