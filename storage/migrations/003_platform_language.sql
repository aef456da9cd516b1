-- The language a person's chat app reports (Telegram's language_code), kept so that
-- after a restart their private messages still speak it before they press anything.
ALTER TABLE players ADD COLUMN platform_language TEXT;
