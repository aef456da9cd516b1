-- A chat's last finished match (its record is what a player asks for) is found
-- without reading the chat's other tables.
CREATE INDEX tables_finished_by_chat ON tables (owner, chat_id, created_at)
    WHERE status = 'finished';
