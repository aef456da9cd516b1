-- Each table belongs to the bot that opened it ("tg:<bot id>", "dc:<application id>"):
-- another bot started on the same file, with another token, never acts on it. Tables
-- written before owners were kept have none ('') until the first bot of their platform
-- starts and adopts them (the store's resume()).
ALTER TABLE tables ADD COLUMN owner TEXT NOT NULL DEFAULT '';

-- A chat runs at most one lobby or match at a time of each bot.
DROP INDEX tables_one_open_per_chat;
CREATE UNIQUE INDEX tables_one_open_per_chat ON tables (owner, chat_id)
    WHERE status IN ('lobby', 'running');

-- Finding the tables still to adopt costs nothing once there are none.
CREATE INDEX tables_without_owner ON tables (platform) WHERE owner = '';
