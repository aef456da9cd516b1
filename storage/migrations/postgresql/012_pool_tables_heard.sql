-- A match between strangers may seat people of two platforms whose bots run in separate
-- processes: each process tells its own people, so each must hear what the other did to
-- the table, whether or not its store asked to announce (basra.announce). The trigger now
-- announces every change of a stranger match's table (its chat id holds ":pool-"), and a
-- clock's warning given there too (the flag "warned": no new version, but its person must
-- be told). Other tables announce as before.
CREATE OR REPLACE FUNCTION basra_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF position(':pool-' IN NEW.chat_id) > 0 THEN
        PERFORM pg_notify('basra_tables', TG_TABLE_SCHEMA || ' ' || NEW.table_id);
    ELSIF (OLD.version IS DISTINCT FROM NEW.version OR OLD.status IS DISTINCT FROM NEW.status)
            AND current_setting('basra.announce', true) = 'on' THEN
        PERFORM pg_notify('basra_tables', TG_TABLE_SCHEMA || ' ' || NEW.table_id);
    END IF;
    RETURN NULL;
END
$$;

DROP TRIGGER tables_changed ON tables;
CREATE TRIGGER tables_changed AFTER UPDATE ON tables FOR EACH ROW
    WHEN (OLD.version IS DISTINCT FROM NEW.version OR OLD.status IS DISTINCT FROM NEW.status
          OR (OLD.warned IS DISTINCT FROM NEW.warned AND position(':pool-' IN NEW.chat_id) > 0))
    EXECUTE FUNCTION basra_table_changed();
