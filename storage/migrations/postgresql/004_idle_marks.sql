-- When each message mark was last moved, on the database's clock, so that the marks of
-- messages nobody edits any more can be forgotten (Store.forget_idle).
ALTER TABLE marks ADD COLUMN touched double precision NOT NULL
    DEFAULT extract(epoch FROM clock_timestamp());
