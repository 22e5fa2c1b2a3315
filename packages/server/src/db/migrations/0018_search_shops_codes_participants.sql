-- The header's search (decision 022): the participants of a game as one searchable text, each
-- entry's name and its phone's digits (so '0917 123' and '0917-123' find the same phone).
-- IMMUTABLE, as an index expression must be: it reads only its argument.
CREATE FUNCTION game_entries_search_text(entries jsonb) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT COALESCE(string_agg(
    COALESCE(e->>'name', '') || ' ' || regexp_replace(COALESCE(e->>'phoneNumber', ''), '[^0-9]', '', 'g'),
    ' | '), '')
  FROM jsonb_array_elements(entries) AS e
$$;--> statement-breakpoint
CREATE INDEX "game_rounds_code_prefix_idx" ON "game_rounds" USING btree ("code" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "game_rounds_entries_search_idx" ON "game_rounds" USING gin (game_entries_search_text("entries") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_shop_name_trgm_idx" ON "users" USING gin ("shop_name" gin_trgm_ops);