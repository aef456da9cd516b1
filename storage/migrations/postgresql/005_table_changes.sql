-- Every process hears when a table moves (a play, a start, an end), whichever process
-- wrote it: a notification on the channel basra_tables carrying "<schema> <table id>",
-- sent when the writing transaction commits (Store.changes). A row written without a new
-- version or status (message references, claims) says nothing, and neither does a session
-- without basra.announce = on (open_store's announce): notifying commits share a lock.
CREATE FUNCTION basra_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('basra.announce', true) = 'on' THEN
        PERFORM pg_notify('basra_tables', TG_TABLE_SCHEMA || ' ' || NEW.table_id);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER tables_changed AFTER UPDATE ON tables FOR EACH ROW
    WHEN (OLD.version IS DISTINCT FROM NEW.version OR OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION basra_table_changed();
