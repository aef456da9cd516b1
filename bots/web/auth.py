"""Who a page is: Telegram Mini App logins, signed links, sessions.

Three ways in, each ending in a *session*: a signed token bound to one person
and one table, which the page keeps (``sessionStorage``) and sends first on
every WebSocket, so a reload or a reconnect needs no new login.

- **Telegram** opens the page as a Mini App with ``initData``, which the
  server checks exactly as Telegram specifies: the secret key is
  HMAC-SHA256 of the bot token under the key ``"WebAppData"``, the data-check
  string is every field but ``hash`` as ``key=value`` sorted by key and joined
  by newlines, and ``hash`` must be its HMAC-SHA256 under that key (hex).
  ``auth_date`` must be at most ``max_age`` seconds old (``BASRA_WEB_LOGIN_SECONDS``).
- **Discord** hands get a link whose token (``d``) names the player, the
  table and an expiry, signed with the server's secret; a Discord person's link to
  the start page (``b``) is the same without a table.
- **Watching** links (``w``) name a table and an expiry; they show only the
  public table, so they may be opened by anyone in the chat, any number of times.

The start page (``start``), opened without a table, logs in with the same
``initData``, or a Discord person's start link, and gets a *start session* instead
(``p``): the person, their display name and their private chat, and no table. It is no table's session, nor a
table's session a start page's; a table's session is handed to the start page only
for a table where the person has a seat (``StartPages``).

Replays: a Mini App's ``initData`` is valid for every request Telegram's
client makes within its life, by design. Here it is exchanged *once*: the
``hash`` of every ``initData`` accepted is remembered until it would have
expired anyway, and the same ``hash`` seen again is refused (403), as is a
Discord link token, a hand's or a start page's, used a second time (each carries a nonce). The gate remembers
them in memory, and the server asks the store too (``Store.use_once``, through
``TableService.once``), which keeps each one until it expires: a restarted server,
or another process of the bot on a shared database, refuses it as well. A session
is a bearer token like any cookie; it is bound to its person and table and expires.

The secret is ``BASRA_WEB_SECRET``, or else HMAC-SHA256 of the bot token under
``"basra web"``: stable across restarts, different for every bot, never the
token itself. Nothing here logs a token, ``initData`` or the secret.

>>> gate = Gate(b"s" * 32, bot_token="123456:" + "a" * 35, clock=lambda: 1000.0)
>>> login = gate.telegram(signed_init_data("123456:" + "a" * 35, {"id": 7, "first_name": "Amal"}, 990))
>>> login.player_id, login.name
('tg:7', 'Amal')
>>> gate.telegram(signed_init_data("123456:" + "a" * 35, {"id": 7, "first_name": "Amal"}, 990))
Traceback (most recent call last):
...
bots.web.auth.Refused: 403 this login was used already
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal
from urllib.parse import parse_qsl, urlencode

#: How long a session lasts (a match rarely takes longer; the page logs in again after).
SESSION_SECONDS: Final = 12 * 3600
#: How long a watching link lasts, counted from the start of the day it was made.
WATCH_DAYS: Final = 2
Kind = Literal["s", "d", "w", "p", "b"]


class Refused(Exception):
    """A login, link or session that is not accepted: ``status`` 401 (not genuine, too old)
    or 403 (genuine but not allowed: used already, not this person's seat). The message
    says why in words that name no secret."""

    def __init__(self, status: int, reason: str, lang: str | None = None) -> None:
        super().__init__(f"{status} {reason}")
        self.status = status
        self.reason = reason
        #: The language a genuine link was made in (expired, or used already), for the
        #: refusal's words; None when nothing genuine says it.
        self.lang = lang


@dataclass(frozen=True, slots=True)
class Login:
    """Someone the page has proved to be: a player id of the platform, their name, the
    language their app reports, and the table a link was for (None: the page says)."""

    player_id: str
    name: str
    language: str | None
    table_id: str | None = None
    #: What makes the login good once, and until when it would be (epoch seconds): for
    #: the bot's other processes to refuse it too (``WebServer.once``).
    once: tuple[str, float] = ("", 0.0)


@dataclass(frozen=True, slots=True)
class Session:
    """A page's standing: who (None when only watching), which table, until when."""

    player_id: str | None
    table_id: str
    expires: float
    lang: str | None = None


@dataclass(frozen=True, slots=True)
class StartSession:
    """A start page's standing: who, by which name, from which private chat (where the
    chat shows their search), in what language their app reports, until when."""

    player_id: str
    name: str
    chat_id: str
    language: str | None
    expires: float


def telegram_secret(bot_token: str) -> bytes:
    """The Mini App's secret key: HMAC-SHA256 of the bot token, keyed ``WebAppData``."""
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def derived_secret(bot_token: str) -> bytes:
    """The link secret when ``BASRA_WEB_SECRET`` is not set."""
    return hmac.new(b"basra web", bot_token.encode(), hashlib.sha256).digest()


def signed_init_data(bot_token: str, user: Mapping[str, Any], auth_date: int, **fields: str) -> str:
    """``initData`` as Telegram's client makes it (for tests and the benchmark)."""
    pairs = {"user": json.dumps(dict(user), separators=(",", ":"), ensure_ascii=False),
             "auth_date": str(auth_date), "query_id": "AAH" + str(auth_date), **fields}
    check = "\n".join(f"{k}={v}" for k, v in sorted(pairs.items()))
    pairs["hash"] = hmac.new(telegram_secret(bot_token), check.encode(), hashlib.sha256).hexdigest()
    return urlencode(pairs)


def _lang(body: Mapping[str, Any]) -> str | None:
    """The language a token's body names, if any."""
    lang = body.get("l")
    return lang if isinstance(lang, str) and len(lang) <= 8 else None


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Gate:
    """Checks logins and tokens, and issues them. ``clock`` gives epoch seconds."""

    def __init__(self, secret: bytes, *, bot_token: str | None = None, max_age: float = 600.0,
                 clock: Callable[[], float] = time.time) -> None:
        self._secret = secret
        self._telegram_key = telegram_secret(bot_token) if bot_token else None
        self.max_age = max_age
        self._clock = clock
        #: initData hashes and link nonces accepted, until when they would have expired.
        self._used: dict[str, float] = {}

    # -- tokens ------------------------------------------------------------------------

    def _sign(self, body: Mapping[str, Any]) -> str:
        payload = _b64(json.dumps(body, separators=(",", ":")).encode())
        mac = hmac.new(self._secret, payload.encode(), hashlib.sha256).digest()
        return f"{payload}.{_b64(mac)}"

    def _open(self, token: object, kind: Kind) -> dict[str, Any]:
        if not isinstance(token, str) or len(token) > 1200 or token.count(".") != 1:
            raise Refused(401, "not a token")
        payload, mac = token.split(".")
        expected = _b64(hmac.new(self._secret, payload.encode(), hashlib.sha256).digest())
        if not hmac.compare_digest(mac, expected):
            raise Refused(401, "bad signature")
        try:
            body = json.loads(_unb64(payload))
        except ValueError:
            raise Refused(401, "not a token") from None
        if not isinstance(body, dict) or body.get("k") != kind or not isinstance(body.get("e"), int | float):
            raise Refused(401, "wrong kind of token")
        if body["e"] < self._clock():
            raise Refused(401, "expired", _lang(body))
        return body

    def session(self, player_id: str | None, table_id: str, lang: str | None = None) -> str:
        return self._sign({"k": "s", "p": player_id, "t": table_id, "l": lang,
                           "e": int(self._clock()) + SESSION_SECONDS})

    def check_session(self, token: object) -> Session:
        body = self._open(token, "s")
        player, table, lang = body.get("p"), body.get("t"), body.get("l")
        if not isinstance(table, str) or not (player is None or isinstance(player, str)):
            raise Refused(401, "not a token")
        return Session(player, table, float(body["e"]), lang if isinstance(lang, str) else None)

    def start_session(self, player_id: str, name: str, chat_id: str, language: str | None) -> str:
        """A start page's session: this person, their name and private chat, no table."""
        return self._sign({"k": "p", "p": player_id, "n": name[:64], "c": chat_id, "l": language,
                           "e": int(self._clock()) + SESSION_SECONDS})

    def check_start(self, token: object) -> StartSession:
        body = self._open(token, "p")
        player, name, chat, lang = body.get("p"), body.get("n"), body.get("c"), body.get("l")
        if not all(isinstance(v, str) and v for v in (player, chat)) or not isinstance(name, str):
            raise Refused(401, "not a token")
        return StartSession(str(player), name, str(chat), lang if isinstance(lang, str) else None,
                            float(body["e"]))

    def hand_link(self, player_id: str, table_id: str, lang: str | None = None) -> str:
        """A Discord hand's link token: this player, this table, one use, ``max_age`` seconds."""
        return self._sign({"k": "d", "p": player_id, "t": table_id, "l": lang,
                           "e": int(self._clock() + self.max_age), "n": secrets.token_urlsafe(9)})

    def discord(self, token: object) -> Login:
        body = self._open(token, "d")
        player, table, nonce, lang = body.get("p"), body.get("t"), body.get("n"), body.get("l")
        if not all(isinstance(v, str) for v in (player, table, nonce)):
            raise Refused(401, "not a token")
        once = ("d:" + str(nonce), float(body["e"]))
        self._use(*once)
        return Login(str(player), "", lang if isinstance(lang, str) else None, str(table), once)

    def start_link(self, player_id: str, lang: str | None = None) -> str:
        """A Discord person's link token to the start page: what a hand's says but the table
        (this person, the language of the words around it), one use, ``max_age`` seconds."""
        return self._sign({"k": "b", "p": player_id, "l": lang,
                           "e": int(self._clock() + self.max_age), "n": secrets.token_urlsafe(9)})

    def discord_start(self, token: object) -> Login:
        """The Discord person a start link names, once (no table: the start page's)."""
        body = self._open(token, "b")
        player, nonce, lang = body.get("p"), body.get("n"), _lang(body)
        if not all(isinstance(v, str) and v for v in (player, nonce)):
            raise Refused(401, "not a token")
        once = ("b:" + str(nonce), float(body["e"]))
        try:
            self._use(*once)
        except Refused as used:
            raise Refused(used.status, used.reason, lang) from None
        return Login(str(player), "", lang, None, once)

    def watch_link(self, table_id: str) -> str:
        """A watching token for the table: the same all day (a table message edited all
        through a match keeps its link), valid until the end of the next day."""
        day = int(self._clock() // 86400)
        return self._sign({"k": "w", "t": table_id, "e": (day + WATCH_DAYS) * 86400})

    def watch(self, token: object) -> str:
        table = self._open(token, "w").get("t")
        if not isinstance(table, str):
            raise Refused(401, "not a token")
        return table

    # -- Telegram ------------------------------------------------------------------------

    def telegram(self, init_data: object) -> Login:
        """The Telegram user a Mini App's ``initData`` proves, once."""
        if self._telegram_key is None:
            raise Refused(401, "no Telegram bot here")
        if not isinstance(init_data, str) or not init_data or len(init_data) > 4096:
            raise Refused(401, "no initData")
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=False)
        fields = dict(pairs)
        given = fields.pop("hash", "")
        if len(fields) + 1 != len(pairs) or not given:
            raise Refused(401, "malformed initData")
        check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
        expected = hmac.new(self._telegram_key, check.encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(given.lower(), expected):
            raise Refused(401, "bad signature")
        try:
            auth_date = int(fields.get("auth_date", ""))
            user = json.loads(fields.get("user", ""))
            user_id = int(user["id"])
        except (ValueError, KeyError, TypeError):
            raise Refused(401, "malformed initData") from None
        now = self._clock()
        if auth_date > now + 60:
            raise Refused(401, "dated in the future")
        if now - auth_date > self.max_age:
            raise Refused(401, "expired")
        once = ("tg:" + expected, auth_date + self.max_age)
        self._use(*once)
        name = " ".join(str(user.get(k) or "") for k in ("first_name", "last_name")).strip()
        language = user.get("language_code")
        return Login(f"tg:{user_id}", name, language if isinstance(language, str) else None, once=once)

    def _use(self, key: str, until: float) -> None:
        now = self._clock()
        if len(self._used) > 1000:
            self._used = {k: v for k, v in self._used.items() if v >= now}
        if self._used.get(key, 0.0) >= now:
            raise Refused(403, "this login was used already")
        self._used[key] = until
