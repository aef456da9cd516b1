"""The table as a web page: a Telegram Mini App, a signed link from a Discord hand, and
a read-only page to watch a game live; and a start page without a table, from which a
person plays someone online (a Mini App on Telegram, a signed link on Discord). One more
adapter of the same table service.

The bot process serves it itself (aiohttp, ``server``) on ``BASRA_WEB_PORT``, behind
the public ``https`` address ``BASRA_WEB_URL`` a reverse proxy gives it; with either
unset there is no web table and the chat keyboards work as before. ``auth`` says who a
page is (Telegram's ``initData``, signed expiring links, sessions) and how replays are
refused; ``hub`` keeps the connected pages and sends each the latest view of its own
seat (or the public table), woken by the notices the chat platform delivers
(``TeedPlatform``); ``frames`` turns views into the page's JSON, every word translated
here; ``start`` serves the start page, whose presses are the pairing pool's own calls
and which hears what the pool tells its person (``TeedPoolPlatform``). The pages
themselves (``static/``) are plain HTML, CSS and JavaScript with cards drawn as SVG: no
build step, nothing fetched from elsewhere but Telegram's own ``telegram-web-app.js``
inside Telegram.

Wiring, in an adapter::

    web = WebTable.from_settings(settings, bot_token, telegram=True)
    platform = web.platform(delivery) if web else delivery
    service = TableService(store, [platform], ...)
    web.connect(service); await web.start()
    ...
    web.mini_app_url(table_id)      # the hand's web_app button
    web.start_url()                 # the welcome's web_app button (the start page)
    web.pool_chat("tg", chat)       # the chat follows searches begun on the start page
    web.pool_chat("dc", chat, people)  # ... and who a Discord start link's person is
    web.discord_start_url(player_id, lang)  # a Discord DM's link to the start page
    web.watch_url(table_id)         # the table message's link
"""

from .auth import Gate, Login, Refused, Session, StartSession, signed_init_data
from .server import WebServer, WebUnavailable
from .start import PoolChat, StartPages, StartPeople
from .table import TeedPlatform, TeedPoolPlatform, WebTable

__all__ = [
    "Gate",
    "Login",
    "PoolChat",
    "Refused",
    "Session",
    "StartPages",
    "StartPeople",
    "StartSession",
    "TeedPlatform",
    "TeedPoolPlatform",
    "WebServer",
    "WebTable",
    "WebUnavailable",
    "signed_init_data",
]
