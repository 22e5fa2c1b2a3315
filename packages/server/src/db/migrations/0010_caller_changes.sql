-- Every change of a user is announced on commit (decision 025): each API process forgets the
-- caller it kept, so an ended session (password change, deactivation, deletion) is refused at once.
CREATE FUNCTION users_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('lot_users', OLD.id::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_notify_change AFTER UPDATE OR DELETE ON users
FOR EACH ROW EXECUTE FUNCTION users_notify_change();
