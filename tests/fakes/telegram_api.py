"""In-process fake of the Telegram Bot API server for end-to-end bot tests.

The real python-telegram-bot ``Application`` runs against it with no network:
``FakeRequest`` replaces the HTTP layer and answers every Bot API call from
``FakeTelegram``'s state with the same status codes and JSON the server
sends. Tests arrange users and chats, produce the updates a Telegram client
would produce, and read back what each player would see::

    server = FakeTelegram()
    app = server.application_builder().build()  # add .rate_limiter(...) etc. as needed
    server.attach(app.bot)
    async with app:  # initialize() calls getMe on the fake
        alice = server.add_user("Alice")
        await server.deliver(app, server.user_sends(alice, None, "/start"))
        print(server.last_message(server.private_chat(alice)).text)
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import json
import time
from contextvars import ContextVar
from typing import Any

from telegram import Bot, Update
from telegram.error import NetworkError, TimedOut
from telegram.ext import Application, ApplicationBuilder, CallbackContext, ContextTypes, ExtBot, JobQueue
from telegram.request import BaseRequest, RequestData

from .telegram_entities import incoming_entities
from .telegram_faults import Fault, FaultPlan, FloodControl, FloodLimit, injected_error
from .telegram_methods import BotApiMethods
from .telegram_models import (
    ApiCall,
    ApiError,
    CallbackQueryRecord,
    FakeChat,
    FakeMessage,
    FakeUsageError,
    FakeUser,
    JSONDict,
    MessageVersion,
    Upload,
    numeric_id,
)
from .telegram_records import TelegramRecords
from .telegram_world import DEFAULT_TOKEN

AnyApplication = Application[Any, Any, Any, Any, Any, Any]
#: What ``ApplicationBuilder()`` gives before anything is chosen, in the library's public names.
Builder = ApplicationBuilder[
    ExtBot[None], ContextTypes.DEFAULT_TYPE, dict[Any, Any], dict[Any, Any], dict[Any, Any],
    JobQueue[ContextTypes.DEFAULT_TYPE],
]

#: Telegram's author of an anonymous admin's messages (the same account in every group).
ANONYMOUS_ADMIN = FakeUser(1087968824, "Group", "GroupAnonymousBot", is_bot=True)

_handling_update: ContextVar[int | None] = ContextVar("fake_telegram_update", default=None)

TELEGRAM_FLOOD_LIMITS = (
    FloodLimit(20, 60.0, "group"),
    FloodLimit(3, 3.0, "private"),
    FloodLimit(30, 1.0, "overall"),
)
"""Telegram's limits for bots, as its server enforces them: 20 messages a minute in a
group, about one a second in a private chat (a burst of three passes), 30 a second in
all; sends and edits count alike."""


class FakeRequest(BaseRequest):
    """The HTTP layer of python-telegram-bot, answered by a FakeTelegram instead of the network."""

    def __init__(self, server: FakeTelegram) -> None:
        self._server = server

    @property
    def read_timeout(self) -> float:
        return 5.0

    async def initialize(self) -> None:
        """Nothing to open: there is no connection pool."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        # The fake answers at once: any timeout the library passes is taken and not used.
        read_timeout: object = BaseRequest.DEFAULT_NONE,
        write_timeout: object = BaseRequest.DEFAULT_NONE,
        connect_timeout: object = BaseRequest.DEFAULT_NONE,
        pool_timeout: object = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        return await self._server.handle(url, request_data)


class FakeTelegram(TelegramRecords):
    """The fake server: world state, Bot API endpoint, update factory and test inspection.

    ``latency`` (seconds) delays every call, for benchmarks that should not
    pretend the network is free. ``privacy_mode`` is on by default, as for
    every new bot: in groups a non-admin bot only receives commands meant for
    it and replies to its own messages. ``history=False`` keeps of each call
    only its method, update and times, of each update only its times, and of
    each message its first and current versions: a benchmark's server then
    stops growing the heap of the process the bot runs in, which Telegram's
    records never do, and stops making the garbage collector walk it.

    Telegram's flood limits (``TELEGRAM_FLOOD_LIMITS``) are enforced from the
    start, with 429 and ``retry_after`` as on the server; ``speedup`` runs
    their clocks that many times faster (every period divided by it), for
    tests that play whole matches through a bot whose budgets are sped up
    alike. ``flood_control()`` sets other limits, ``clear_faults()`` none.
    """

    def __init__(
        self,
        token: str = DEFAULT_TOKEN,
        *,
        bot_username: str = "basra_test_bot",
        bot_name: str = "Basra",
        latency: float = 0.0,
        privacy_mode: bool = True,
        history: bool = True,
        speedup: float = 1.0,
    ) -> None:
        super().__init__(token, bot_username, bot_name)
        self.api = BotApiMethods(self)
        self.latency = latency
        self.privacy_mode = privacy_mode
        self.history = history
        self.faults = FaultPlan()
        self.speedup = speedup
        self.flood: FloodControl | None = FloodControl(self.telegram_limits())
        self._bot: Bot | None = None
        self._errors: dict[int | None, list[BaseException]] = {}
        self._watched_apps: set[int] = set()

    # --- wiring the real library to the fake ------------------------------------

    def request(self) -> FakeRequest:
        return FakeRequest(self)

    def application_builder(self) -> Builder:
        """An ApplicationBuilder whose bot talks to this server (both request objects)."""
        return (
            ApplicationBuilder().token(self.token).request(self.request()).get_updates_request(self.request())
        )

    def attach(self, bot: Bot) -> None:
        """Bind produced updates to the application's bot, so ``reply_text`` etc. work."""
        self._bot = bot

    @property
    def bot(self) -> Bot:
        if self._bot is None:
            raise FakeUsageError("call server.attach(application.bot) before producing updates")
        return self._bot

    async def handle(self, url: str, request_data: RequestData | None) -> tuple[int, bytes]:
        """Answer one HTTP call to ``.../bot<token>/<method>`` as the Bot API would."""
        prefix, _, method = url.rpartition("/")
        # A JSON round trip is what the parameters go through on the wire; uploaded files
        # travel beside them as parts of a multipart form.
        params: JSONDict = json.loads(json.dumps(request_data.parameters)) if request_data else {}
        if request_data is not None and request_data.contains_files:
            for name, (filename, data, mime_type) in request_data.multipart_data.items():
                if isinstance(data, bytes):
                    params[name] = Upload(str(filename), data, str(mime_type) if mime_type else None)
        is_polling = method.lower() == "getupdates"
        call = ApiCall(method, params, time.perf_counter(), None if is_polling else self._cause())
        self.api_calls.append(call)
        try:
            await asyncio.sleep(self.latency)
            result = await self._answer(prefix, method, params)
        except ApiError as error:
            call.status, call.response = error.error_code, error.payload()
        except NetworkError:
            call.status = 0
            raise
        else:
            call.response = {"ok": True, "result": result}
        finally:
            call.finished_at = time.perf_counter()
        body = json.dumps(call.response).encode()
        if not self.history:
            call.params, call.response = {}, {}
        return call.status, body

    async def _answer(self, prefix: str, method: str, params: JSONDict) -> Any:
        if not prefix.endswith(f"/bot{self.token}"):
            raise ApiError(401, "Unauthorized")
        handler = self.api.handlers.get(method.lower())
        if handler is None:
            self.unsupported.append(method)
            raise ApiError(404, "Not Found")
        fault = self.faults.take(method, params)
        if fault is not None and fault.error is not None:
            raise fault.error
        if fault is not None and not fault.delivered:
            raise NetworkError(f"fake network failure during {method}")
        self._check_flood(method, params)
        result = handler(params)
        if inspect.isawaitable(result):
            result = await result
        if fault is not None:
            raise TimedOut(f"fake timeout after {method} was carried out")
        return result

    def _cause(self) -> int | None:
        """The update a call answers: the one being delivered, else the latest produced."""
        current = _handling_update.get()
        if current is None and self.updates:
            return max(self.updates)
        return current

    def _check_flood(self, method: str, params: JSONDict) -> None:
        if self.flood is None or not FloodControl.counts(method):
            return
        key = numeric_id(params.get("chat_id"))
        error = self.flood.check(key, key is not None and key < 0, time.monotonic())
        if error is not None:
            raise error

    # --- fault injection ----------------------------------------------------------

    def fail_next(
        self,
        method: str | None = None,
        *,
        error_code: int = 429,
        retry_after: float = 1,
        description: str | None = None,
        times: int = 1,
        chat: FakeChat | int | None = None,
    ) -> None:
        """Answer the next ``times`` matching calls with an error instead of running them.

        429 carries ``retry_after`` like the server (which sends whole seconds;
        sub-second values are allowed to keep tests fast, but never 0, which
        python-telegram-bot would not treat as RetryAfter).
        """
        error = injected_error(error_code, retry_after, description)
        self.faults.add(Fault(method, _chat_id(chat), times, error=error))

    def fail_network_next(
        self,
        method: str | None = None,
        *,
        times: int = 1,
        delivered: bool = False,
        chat: FakeChat | int | None = None,
    ) -> None:
        """Make the next matching calls raise NetworkError from the HTTP layer.

        With ``delivered`` the call is carried out and then TimedOut is raised:
        the message exists although the bot was told the request failed.
        """
        self.faults.add(Fault(method, _chat_id(chat), times, network=True, delivered=delivered))

    def telegram_limits(self) -> tuple[FloodLimit, ...]:
        """Telegram's own limits, on this server's clock."""
        return tuple(FloodLimit(f.max_calls, f.period / self.speedup, f.scope) for f in TELEGRAM_FLOOD_LIMITS)

    def flood_control(self, *limits: FloodLimit) -> None:
        """Enforce rate limits with 429 answers; no arguments means Telegram's own limits."""
        self.flood = FloodControl(limits or self.telegram_limits())

    def too_many_requests(self) -> int:
        """How many calls were refused with 429 (by flood control or an injected fault)."""
        return sum(1 for call in self.api_calls if call.status == 429)

    def clear_faults(self) -> None:
        self.faults.clear()
        self.flood = None

    # --- updates a Telegram client would produce ----------------------------------

    def user_sends(
        self,
        user: FakeUser,
        chat: FakeChat | None,
        text: str,
        *,
        reply_to: FakeMessage | None = None,
    ) -> Update:
        """A text message from ``user``; ``chat=None`` means their private chat with the bot.

        Writing in private starts (or unblocks) the bot, as pressing Start does;
        /commands and @mentions get the entities a client adds.
        """
        if not text.strip():
            raise FakeUsageError("Telegram clients do not send empty messages")
        if chat is None or chat.is_private:
            if chat is not None and chat.user is not user:
                raise FakeUsageError(f"{user} cannot write in {chat}")
            chat = self.private_chat(user)
            user.blocked_bot = False
        elif not chat.can_see(user):
            raise FakeUsageError(f"{user} is not a member of {chat}")
        elif not self._bot_receives(chat, text, reply_to):
            raise FakeUsageError(f"Telegram would not deliver {text!r} in {chat} to the bot")
        now = time.perf_counter()
        version = MessageVersion(text, incoming_entities(text), None, text, None, now, int(time.time()))
        message = self.post(chat, user, version, reply_to)
        return self._produce({"message": message.to_api()})

    def user_deletes(self, user: FakeUser, message: FakeMessage) -> None:
        """``user`` deletes ``message`` in their private chat with the bot, for both sides (as
        a private chat allows): edits of it are refused from then on."""
        if message.chat is not self.private_chat(user):
            raise FakeUsageError(f"{user} can delete only in their private chat, not in {message.chat}")
        message.deleted = True

    def user_forwards(
        self, user: FakeUser, message: FakeMessage, chat: FakeChat | None = None
    ) -> FakeMessage:
        """``user`` forwards ``message`` to ``chat`` (their private chat with the bot by
        default): a copy whose author is ``user``, with the original's buttons, as Telegram
        keeps an inline keyboard on a forward. The bot may not edit it (it is not its own). The
        forward's own update is not produced: the bot has nothing to do with it."""
        if not message.chat.can_see(user):
            raise FakeUsageError(f"{user} cannot see message {message.message_id} in {message.chat}")
        where = self.private_chat(user) if chat is None else chat
        original = message.current
        version = MessageVersion(original.text, original.entities, original.reply_markup, original.source,
                                 original.parse_mode, time.perf_counter(), int(time.time()))
        copy = self.post(where, user, version)
        copy.forwarded = message
        return copy

    def admin_sends_anonymously(self, admin: FakeUser, group: FakeChat, text: str) -> Update:
        """An admin with "Remain anonymous" writes in ``group``: Telegram names the group as
        the sender (``sender_chat``) and its GroupAnonymousBot as ``from``, never the admin."""
        if group.is_private or group.members.get(admin.id) not in ("creator", "administrator"):
            raise FakeUsageError(f"{admin} is not an admin of {group}")
        if not self._bot_receives(group, text, None):
            raise FakeUsageError(f"Telegram would not deliver {text!r} in {group} to the bot")
        now = time.perf_counter()
        version = MessageVersion(text, incoming_entities(text), None, text, None, now, int(time.time()))
        message = self.post(group, ANONYMOUS_ADMIN, version)
        message.sender_chat = group
        return self._produce({"message": message.to_api()})

    def _bot_receives(self, group: FakeChat, text: str, reply_to: FakeMessage | None) -> bool:
        """Whether a group message reaches the bot, given its membership and privacy mode."""
        if group.bot_status not in ("creator", "administrator", "member"):
            return False
        if not self.privacy_mode or group.bot_status != "member":
            return True
        if reply_to is not None and reply_to.from_bot:
            return True
        command, _, addressee = text.split(maxsplit=1)[0].partition("@")
        username = self.bot_user.username or ""
        return command.startswith("/") and addressee.lower() in ("", username.lower())

    def group_upgrades(self, group: FakeChat, by: FakeUser) -> tuple[FakeChat, list[Update]]:
        """``by`` upgrades a basic group to a supergroup: the new chat, and the two
        service messages Telegram then delivers (one in each chat, naming the other).

        Nothing is delivered here: a test hands the notices to the bot when it likes,
        late or never, as the bot may call the old id (and be refused with the new one)
        before Telegram's notices reach it."""
        upgraded = self.upgrade_to_supergroup(group)
        date = int(time.time())
        notes = [
            {"message_id": group.next_message_id, "date": date, "chat": group.to_api(),
             "from": by.to_api(), "migrate_to_chat_id": upgraded.id},
            {"message_id": upgraded.next_message_id, "date": date, "chat": upgraded.to_api(),
             "from": by.to_api(), "migrate_from_chat_id": group.id},
        ]
        group.next_message_id += 1
        upgraded.next_message_id += 1
        return upgraded, [self._produce({"message": note}) for note in notes]

    def user_presses(self, user: FakeUser, message: FakeMessage, button: str) -> Update:
        """A callback query for the button labelled (or carrying the data) ``button``.

        Refused, as a client would refuse, if the message is gone, the user
        cannot see it, or its *current* keyboard has no such callback button.
        """
        if message.deleted:
            raise FakeUsageError(f"message {message.message_id} in {message.chat} was deleted")
        if not message.chat.can_see(user):
            raise FakeUsageError(f"{user} cannot see message {message.message_id} in {message.chat}")
        pressed = message.find_button(button)
        if pressed.callback_data is None:
            raise FakeUsageError(f"button {pressed.text!r} opens a link; it sends no callback")
        query_id = self.new_query_id()
        update = self._produce(
            {
                "callback_query": {
                    "id": query_id,
                    "from": user.to_api(),
                    "message": message.to_api(),
                    "chat_instance": str(abs(message.chat.id) * 7919),
                    "data": pressed.callback_data,
                }
            }
        )
        self.callback_queries[query_id] = CallbackQueryRecord(
            query_id, user, message, pressed.callback_data, update.update_id
        )
        return update

    def _produce(self, payload: JSONDict) -> Update:
        incoming = self.new_update(payload)
        update = Update.de_json(copy.deepcopy(incoming.data), self.bot)
        if not self.history:
            incoming.data = {}
        return update

    def queue_update(self, update: Update | JSONDict) -> None:
        """Hand an update to getUpdates, for tests that run the real polling loop."""
        data = update.to_dict() if isinstance(update, Update) else dict(update)
        self.pending_updates.append(data)
        self.api.notify_updates()

    async def deliver(
        self, application: AnyApplication, update: Update, *, raise_errors: bool = True
    ) -> list[ApiCall]:
        """Process ``update`` in the application and return the API calls it caused.

        python-telegram-bot routes handler exceptions to error handlers and
        otherwise only logs them; here they are re-raised (unless
        ``raise_errors`` is false) so a broken handler fails the test, as do
        calls to Bot API methods this fake does not implement.
        """
        if id(application) not in self._watched_apps:
            application.add_error_handler(self._record_error)
            self._watched_apps.add(id(application))
        if update.update_id in self.updates:
            self.updates[update.update_id].delivered_at = time.perf_counter()
        token = _handling_update.set(update.update_id)
        try:
            await application.process_update(update)
        finally:
            _handling_update.reset(token)
        errors = self._errors.pop(update.update_id, [])
        if raise_errors:
            self.check()
            if errors:
                raise errors[0]
        return self.calls_for(update)

    async def _record_error(self, update: object, context: CallbackContext[Any, Any, Any, Any]) -> None:
        update_id = update.update_id if isinstance(update, Update) else None
        if context.error is not None:
            self._errors.setdefault(update_id, []).append(context.error)


def _chat_id(chat: FakeChat | int | None) -> int | None:
    return chat.id if isinstance(chat, FakeChat) else chat
