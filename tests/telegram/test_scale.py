"""Three bot processes on one PostgreSQL database, in webhook mode behind one URL (the fake
Bot API spreads the updates over them, as a reverse proxy would: one leads the bot and
listens, the others wait to take over and refuse connections), while people play fast
matches and a computer plays its seat. Processes are killed (SIGKILL) at random moments and
started again. Afterwards the stored logs must hold every play a person saw acknowledged,
once, every match must have reached its end, and no message may ever have gone back to an
older state.

Needs a PostgreSQL server (``BASRA_TEST_POSTGRES``) and ``BASRA_KILL_TEST=1``, since it
takes two to three minutes; ``.ci/run`` sets both. A match that makes no progress for 30 s
is noted with what each person's private chat shows, and reported if it does not end by
its target.
"""

from __future__ import annotations

import asyncio
import os
import random
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bots.i18n import translator
from bots.render import Action
from bots.render.actions import PREFIX
from bots.render.answers import played_answer
from bots.service.live import fold
from storage import ChatSettings, Store, open_store
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.fakes.telegram_http import HttpFront
from tests.fakes.telegram_push import WebhookPush
from tests.storage.backends import postgres_schema
from tests.telegram.live import never_older
from tests.telegram.test_process import Process, data_for, until
from tests.telegram.test_webhook import free_port

__all__ = ["postgres_schema"]

SECRET = "kill-test-secret"
HOOK = "https://bot.example.org/tg/hook"
WORKERS = 3
KILLS = int(os.environ.get("BASRA_KILLS", "20"))


async def finished_in(store: Store, chat: str, owner: str) -> list[str]:
    """The id of the chat's last finished table of the bot ``owner``, if any."""
    table = await store.last_finished_table(chat, owner)
    return [table.table_id] if table is not None else []


def listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class Table:
    """One group's game and what its people saw acknowledged."""

    group: FakeChat
    people: list[FakeUser]
    #: (table id, version the confirm was pressed at, card) of each acknowledged play.
    acknowledged: list[tuple[str, int, str]] = field(default_factory=list)
    presses: int = 0
    #: What the bot answered to confirms it refused (shown if the match gets stuck).
    refusals: list[str] = field(default_factory=list)
    #: What the people's chats showed when no play had been acknowledged for 30 s.
    stuck: list[str] = field(default_factory=list)
    #: People told it is someone else's turn: they wait for the next play (user id: the
    #: number of plays acknowledged when they were told).
    waiting: dict[int, int] = field(default_factory=dict)


class Workers:
    def __init__(self, url: str, token: str, database: str, logs: Path) -> None:
        self.url, self.token, self.database, self.logs = url, token, database, logs
        self.ports = [free_port() for _ in range(WORKERS)]
        self.processes: list[Process] = [self._start(i) for i in range(WORKERS)]
        self.kills = 0

    def _start(self, index: int) -> Process:
        return Process(
            self.url, self.token, self.logs / "unused", BASRA_DATABASE=self.database,
            TELEGRAM_WEBHOOK_URL=HOOK, TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
            TELEGRAM_WEBHOOK_PORT=str(self.ports[index]), TELEGRAM_WEBHOOK_SECRET=SECRET,
            BASRA_COMPUTER_DELAY="0.3", BASRA_LOG_LEVEL="WARNING",
        )

    def targets(self) -> list[str]:
        return [f"http://127.0.0.1:{port}/tg/hook" for port in self.ports]

    async def ready(self) -> None:
        """One worker leads the bot and listens for the webhook; the others wait to take over
        (they listen on nothing) and are still running."""
        try:
            await until("a leading worker", lambda: any(listening(port) for port in self.ports), timeout=60)
        except AssertionError:
            logs = [process.stderr()[-2000:] for process in self.processes]
            raise AssertionError(f"no worker listens: {logs}") from None
        await asyncio.sleep(1.0)
        assert sum(listening(port) for port in self.ports) == 1, "more than one worker leads the bot"
        for process in self.processes:
            assert process.popen.poll() is None, process.stderr()[-3000:]

    def kill(self, index: int) -> None:
        victim = self.processes[index].popen
        victim.kill()
        victim.wait()
        print(f"worker {index} killed at {time.perf_counter():.2f}")  # the messages' clock
        self.kills += 1
        self.processes[index] = self._start(index)

    async def stop(self) -> list[str]:
        return [(await process.stop())[1] for process in self.processes]


def the_hand(server: FakeTelegram, table: Table) -> tuple[FakeUser, FakeMessage] | None:
    """The live hand of whoever is to move: of the hand messages with card buttons (or with
    a confirm button: a card previewed, the preview having come after the player gave up
    waiting for it), the one for the newest state its buttons carry. A turn comes as a new
    message, or, at a group's 1-v-1 whose opponent answered within a moment, on the hand
    just played (an edit of an older message), while the opponent's own hand, just played,
    stays pressable at its older state for that moment. Of two at the same state, the one
    sent last: a hand shown out of turn stays pressable too, but it is older; and someone
    told that it is another's turn waits for the next play before pressing again. A hand at
    the state of a play acknowledged already (kept pressable while the answer to it is
    awaited) is not the live one: the next turn is on its way."""
    played = table.acknowledged[-1][1] if table.acknowledged else -1
    found = [
        (shown, message.versions[0].at, message.message_id, user, message)
        for user in table.people
        if table.waiting.get(user.id) != len(table.acknowledged)
        for message in server.messages(server.private_chat(user), bot_only=True)
        if data_for(message, "card") or data_for(message, "play")
        if (shown := shown_version(message)) > played
    ]
    if not found:
        return None
    *_, user, message = max(found, key=lambda f: f[:3])
    return user, message


def shown_version(message: FakeMessage) -> int:
    """The table's version the hand's card (or confirm) buttons carry."""
    return max(Action.decode(data).version for data in message.button_data()
               if data.startswith(PREFIX + "|") and Action.decode(data).verb in ("card", "play"))


def ended(server: FakeTelegram, table: Table) -> bool:
    return any(data_for(m, "rematch") for m in server.messages(table.group, bot_only=True))


async def stored_state(database: str, table_id: str) -> str:
    """The table's row as the database holds it, and its last events (for a stuck match)."""
    import asyncpg

    connection = await asyncpg.connect(database)
    try:
        row = await connection.fetchrow(
            "SELECT status, version, revision, deadline, due_at, claim_holder, claim_until,"
            " extract(epoch from now()) AS now FROM tables WHERE table_id = $1", table_id)
        kinds = await connection.fetch(
            "SELECT version, kind FROM events WHERE table_id = $1 ORDER BY version DESC LIMIT 3", table_id)
    finally:
        await connection.close()
    return f"{dict(row) if row else None} {[tuple(k) for k in kinds]}"


def private_view(server: FakeTelegram, table: Table, *, full: bool = False) -> list[str]:
    """Each person's last private messages, for a stuck match: id, edits, the buttons' verbs
    and versions, the first words (the test's own chats: nobody else sees this)."""
    lines = []
    for user in table.people:
        for message in server.messages(server.private_chat(user), bot_only=True)[-4:]:
            verbs = [f"{(a := Action.decode(data)).verb}@{a.version}" for data in message.button_data()
                     if data.startswith(PREFIX + "|")]
            lines.append(f"{user.first_name} #{message.message_id} ×{len(message.versions)} "
                         f"{verbs} {message.text[:40]!r}")
            if full:
                for version in message.versions:
                    data = [b.callback_data or "" for row in version.buttons for b in row]
                    shown = [f"{(a := Action.decode(d)).verb}@{a.version}" for d in data
                             if d.startswith(PREFIX + "|")]
                    lines.append(f"    {version.at:.2f} {shown} {version.text[:30]!r}")
    return lines


async def play(front: HttpFront, server: FakeTelegram, table: Table, give_up: float,
               database: str = "") -> None:
    """Play the group's match to its end as people do: a card, its preview, the confirm;
    a press nobody answers (its process was killed) is pressed again."""
    progress = time.monotonic()
    while not ended(server, table):
        if time.monotonic() - progress > 30 and not table.stuck:
            table.stuck = [f"refused: {table.refusals[-5:]}", *private_view(server, table, full=True)]
        if time.monotonic() > give_up:
            shown = [m.text for m in server.messages(table.group, bot_only=True)][-3:]
            state = await stored_state(database, table.acknowledged[-1][0]) if table.acknowledged else ""
            raise AssertionError(
                f"the match in {table.group.title or 'private'} did not end: {shown}; "
                f"refused: {table.refusals[-5:]}; {table.presses} presses; stored: {state}; "
                f"private: {private_view(server, table)}"
            )
        found = the_hand(server, table)
        if found is None:
            await asyncio.sleep(0.05)
            continue
        mover, hand = found
        card = data_for(hand, "card")
        told = False
        if data_for(hand, "play") is None and card is not None:
            table.presses += 1
            pressed = server.user_presses(mover, hand, card)
            server.queue_update(pressed)
            assert pressed.callback_query is not None
            asked = server.callback_queries[pressed.callback_query.id]
            try:
                # Drawn in the hand (a card with a choice), or told in the answer (one outcome).
                await until("the preview", lambda h=hand, q=asked: data_for(h, "play") or not h.button_data()
                            or (q.answer is not None and q.answer.text and not q.answer.show_alert), 4.0)
            except AssertionError:
                continue  # not answered: pressed again
            # Told, not refused: a toast (no alert), and the card still there to press again
            # (a hand that became a line meanwhile was played from elsewhere, or moved on).
            told = (data_for(hand, "play") is None and asked.answer is not None
                    and bool(asked.answer.text) and not asked.answer.show_alert
                    and card in hand.button_data())
        # The same card again confirms a preview told in the press's answer.
        confirm = card if told else data_for(hand, "play")
        if confirm is None or confirm not in hand.button_data():
            continue
        table.presses += 1
        # Acknowledged: the press's spinner stopped without a refusal, which the bot does
        # once the play is committed (a press lost with its process is never answered).
        update = server.user_presses(mover, hand, confirm)
        server.queue_update(update)
        assert update.callback_query is not None
        query = server.callback_queries[update.callback_query.id]
        try:
            await until("the play acknowledged", lambda q=query: q.answer is not None, 4.0)
        except AssertionError:
            table.refusals.append("(no answer)")
            continue
        assert query.answer is not None
        if query.answer.text is not None and not played(query.answer, Action.decode(confirm).card):
            table.refusals.append(query.answer.text)
            if any(other.first_name in query.answer.text for other in table.people if other is not mover):
                table.waiting[mover.id] = len(table.acknowledged)  # "it is <other>'s turn"
            continue  # refused (the match moved on meanwhile): the player looks again
        action = Action.decode(confirm)
        table.acknowledged.append((action.table_id, action.version, action.card or ""))
        progress = time.monotonic()


def played(answer: Any, card: str | None) -> bool:
    """Whether a confirm's answer says it was played ("You played 7♦.", as the hand may wait
    for the answer to the play), in either language: acknowledged, not refused."""
    said = {played_answer(card, translator(lang)) for lang in ("en", "ar")} if card else set()
    return not answer.show_alert and answer.text in said


@pytest.mark.skipif(os.environ.get("BASRA_KILL_TEST") != "1",
                    reason="the kill test runs with BASRA_KILL_TEST=1")
async def test_three_webhook_workers_on_postgresql_lose_nothing_when_killed(
    tmp_path: Path, postgres_schema: str
) -> None:
    database = postgres_schema
    server = FakeTelegram()
    front = HttpFront(server)
    url = await front.start()
    rng = random.Random(11)
    tables = []
    for n in range(2):
        people = [server.add_user(f"Amr{n}", language_code="ar"), server.add_user(f"Bea{n}")]
        for person in people:
            server.private_chat(person)
        tables.append(Table(server.add_group(f"Cafe {n}", people), people))
    loner = server.add_user("Hoda", language_code="ar")
    practice = Table(server.private_chat(loner), [loner])
    # A match nobody plays: its turn clock (10 s) must end it, once, whichever process is up.
    idle = [server.add_user("Sami", language_code="ar"), server.add_user("Tala")]
    for person in idle:
        server.private_chat(person)
    clocked = Table(server.add_group("Clock", idle), idle)
    # One round per match (target 1), so each match is short.
    async with open_store(database) as store:
        for chat in [t.group for t in tables] + [practice.group]:
            await store.put_chat_settings(ChatSettings(chat_id=f"tg:{chat.id}", rules={"target": 1}))
        await store.put_chat_settings(ChatSettings(chat_id=f"tg:{clocked.group.id}", turn_seconds=10))
    workers = Workers(url, server.token, database, tmp_path)
    push = WebhookPush(server, workers.targets(), SECRET)
    stderr: list[str] = []
    try:
        await workers.ready()
        await until("the webhook", lambda: server.webhook_url == HOOK, timeout=30)
        await push.start()
        for table in [*tables, clocked]:
            alice, badr = table.people
            front.send(alice, table.group, "/newgame")
            lobby = await until("the lobby", lambda t=table: next(
                (m for m in server.messages(t.group, bot_only=True) if data_for(m, "join")), None), 30)
            assert isinstance(lobby, FakeMessage)
            front.press(badr, lobby, data_for(lobby, "join") or "")
            await until("the start button", lambda m=lobby: data_for(m, "start"), 30)
            front.press(alice, lobby, data_for(lobby, "start") or "")
        front.send(loner, practice.group, "/practice")
        give_up = time.monotonic() + float(os.environ.get("BASRA_KILL_TEST_SECONDS", "300"))
        games = [asyncio.ensure_future(play(front, server, t, give_up, database))
                 for t in [*tables, practice]]

        async def killing() -> None:
            # A kill every 1.15 s on average: a play no longer waits for its preview's edit, so
            # the matches are over in about half a minute, and every kill must fall within them.
            while workers.kills < KILLS and not all(g.done() for g in games):
                await asyncio.sleep(rng.uniform(0.5, 1.8))
                workers.kill(rng.randrange(WORKERS))

        killer = asyncio.ensure_future(killing())
        await asyncio.gather(*games)
        try:
            await until("the clock to end the idle match", lambda: ended(server, clocked), 90)
        except AssertionError:
            async with open_store(database) as store:
                owner = f"tg:{server.bot_user.id}"
                stuck = await store.open_table_for_chat(f"tg:{clocked.group.id}", owner)
                done = await store.last_finished_table(f"tg:{clocked.group.id}", owner)
            shown = [m.text[:80] for m in server.messages(clocked.group, bot_only=True)][-3:]
            why = f"the idle match did not end: open {stuck}, finished {done}, shown {shown}"
            raise AssertionError(why) from None
        await killer
        assert workers.kills >= KILLS, f"only {workers.kills} kills before the matches ended"
    finally:
        stderr = await workers.stop()
        await push.stop()
        await front.stop()

    async with open_store(database) as store:
        for table in [*tables, practice]:
            assert table.acknowledged, f"nothing acknowledged in {table.group.title}"
            table_id = table.acknowledged[0][0]
            record = await store.get_table(table_id)
            assert record is not None and record.status == "finished", record
            events = await store.load_events(table_id)
            versions = [e.version for e in events]
            assert versions == list(range(1, len(events) + 1))
            for _, version, card in table.acknowledged:
                played = [e for e in events if e.version > version and e.kind == "card_played"][:1]
                assert played and played[0].data.get("card") == card, (version, card, played)
            # Each acknowledged press is a distinct play: none of them committed twice.
            assert len({(v, c) for _, v, c in table.acknowledged}) == len(table.acknowledged)
            # The log replays: every computer turn and every play happened once, in turn.
            match, _ = fold([e.data for e in events])
            assert match.over, "\n".join(
                [f"{table.group.title}: {record.result} {[e.kind for e in events[-3:]]}", *table.stuck])
        owner = f"tg:{server.bot_user.id}"
        assert await store.open_table_for_chat(f"tg:{clocked.group.id}", owner) is None
        ended_by_clock = await finished_in(store, f"tg:{clocked.group.id}", owner)
        assert len(ended_by_clock) == 1
        events = await store.load_events(ended_by_clock[0])
        timeouts = [e for e in events if e.data.get("reason") == "timeout"]
        assert len(timeouts) == 1 and timeouts[0].version == len(events), [e.kind for e in events]
    people = [u for t in [*tables, practice] for u in t.people]
    chats = [t.group for t in tables] + [server.private_chat(u) for u in people]
    for chat in chats:
        never_older(server.messages(chat, bot_only=True))
    for text in stderr:
        assert "Traceback" not in text, text[-3000:]
