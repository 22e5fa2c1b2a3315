CREATE TABLE "sales_daily" (
	"superagent_id" integer NOT NULL,
	"day" date NOT NULL,
	"games" integer NOT NULL,
	"commission" bigint NOT NULL,
	CONSTRAINT "sales_daily_pk" PRIMARY KEY("superagent_id","day")
);
--> statement-breakpoint
CREATE INDEX "sales_daily_day_idx" ON "sales_daily" USING btree ("day");--> statement-breakpoint
CREATE FUNCTION sales_daily_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE sales_daily SET games = games - 1, commission = commission - OLD.commission
    WHERE superagent_id = COALESCE(OLD.superagent_id, 0) AND day = (OLD.created_at AT TIME ZONE 'UTC')::date;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO sales_daily AS s (superagent_id, day, games, commission)
    VALUES (COALESCE(NEW.superagent_id, 0), (NEW.created_at AT TIME ZONE 'UTC')::date, 1, NEW.commission)
    ON CONFLICT (superagent_id, day)
    DO UPDATE SET games = s.games + 1, commission = s.commission + EXCLUDED.commission;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER games_sales_daily AFTER INSERT OR UPDATE OF created_at, commission, superagent_id OR DELETE ON games
FOR EACH ROW EXECUTE FUNCTION sales_daily_apply();--> statement-breakpoint
INSERT INTO sales_daily (superagent_id, day, games, commission)
SELECT COALESCE(superagent_id, 0), (created_at AT TIME ZONE 'UTC')::date, count(*), sum(commission)
FROM games GROUP BY 1, 2;
