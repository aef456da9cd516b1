"""The terminal table: play the computer in a terminal, through the same table
service, renderer and translations as the chat bots (``basra play``)."""
