"""Two real Discord bot processes, one gateway shard each of two, one bot token, one
PostgreSQL database, against the fake Discord over HTTP and a websocket
(``tests/fakes/discord_server``).

Guild A is on shard 0, guild B on shard 1. In A two people open a 1-v-1 and play it card by
card (a press previews a card, a second confirms it). In B a 2-v-2 of two people and two
computers is left alone on the shortest turn clock a channel may choose, so the clock plays
for each absent person. Each guild's interactions must reach only the connection of the
process holding its shard and be answered by that process; each clock must fire once, within
0.5 s of its deadline; no 429, no unknown route, and no card of a hand in a channel message.
Then guild B's process is killed outright while a clock runs there: the other process takes
the overdue clock over, fires it once, and writes to guild B's channel. The first clock of a
2-v-2 of four people, in a process where no computer has played yet, fires on time too: it
does not wait for the computers' thinking processes to start. Last, people of both
guilds ask the pairing pool for an opponent: the pool runs on shard 0's process, where
Discord brings every DM interaction, and the match is played in their DMs.

The bots run with ``BASRA_COMPUTER_PROCESSES=1`` (the README's advice for several processes
on one machine). Needs ``BASRA_TEST_POSTGRES``; the file takes about a minute.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TypeVar

import pytest

from bots.discord.texts import NO_DMS
from bots.i18n import card_face, translator
from bots.service import ServiceConfig
from core import Match
from storage import Store, StoredEvent, TableRecord, open_store
from tests.fakes.discord_payloads import Interaction, User, guild_id_on
from tests.fakes.discord_people import Person, actions, body_of, buttons, custom_id, until
from tests.fakes.discord_server import FakeDiscord, StoredMessage
from tests.storage.backends import postgres_schema

__all__ = ["postgres_schema"]

T = TypeVar("T")

MAIN = Path(__file__).with_name("discord_main.py")
TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0.GfakeS.shard-processes-0123456789abcdefghijklmn"
BOT_ID = 1098765432109876540
OWNER = f"dc:{BOT_ID}"
SHARDS = 2
#: The shortest turn clock a channel may choose (``/basra settings clock``).
CLOCK = 10
#: Plays the two people of guild A make by pressing cards.
PLAYS = 6
#: Clocks that must fire in guild B.
CLOCKS = 2
#: Overdue timed work waits this long for the process that armed it (``ServiceConfig``).
TAKEOVER = ServiceConfig().takeover_seconds
#: How often each process looks for overdue work.
POLL = ServiceConfig().poll_seconds
#: Reading and claiming overdue work, loading the table and committing its play.
TAKING = 0.5


@dataclass
class Bots:
    """The bot's processes, one per shard, named ``shard<n>`` to the fake."""

    fake: FakeDiscord
    database: str
    logs: Path
    processes: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)

    def start(self, shard: int) -> None:
        env = {
            **os.environ,
            "DISCORD_BOT_TOKEN": TOKEN,
            "DISCORD_TEST_API": self.fake.url,
            "BASRA_DATABASE": self.database,
            "DISCORD_SHARD_COUNT": str(SHARDS),
            "DISCORD_SHARD_IDS": str(shard),
            "BASRA_COMPUTER_DELAY": "0.3",
            "BASRA_COMPUTER_PROCESSES": "1",
            "BASRA_LOG_LEVEL": "INFO",
        }
        with (self.logs / f"shard{shard}.txt").open("ab") as err:
            process = subprocess.Popen(
                [sys.executable, str(MAIN)],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=err,
                cwd=Path(__file__).parents[2],
            )
        self.processes[shard] = process
        self.fake.processes[process.pid] = f"shard{shard}"

    def log(self, shard: int) -> str:
        return (self.logs / f"shard{shard}.txt").read_text(errors="replace")

    async def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
        end = time.monotonic() + 20
        while any(p.poll() is None for p in self.processes.values()) and time.monotonic() < end:
            await asyncio.sleep(0.05)
        self.kill()  # those that did not stop in time

    def kill(self) -> None:
        """End the processes still running outright (SIGKILL). A killed process leaves none
        of its own behind: its thinking processes see it gone and end
        (``bots.service.thinking.watch``)."""
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
            process.wait()


@dataclass
class World:
    """The fake Discord, the bot's two processes, and two guilds: A (alice, bob, erin and
    frank) on shard 0, B (carol and dave) on shard 1."""

    fake: FakeDiscord
    bots: Bots
    store: Store
    alice: Person
    bob: Person
    carol: Person
    dave: Person
    erin: Person
    frank: Person

    def shard_of(self, interaction: Interaction) -> int:
        """The shard Discord brings it to: its guild's, or shard 0 for a DM's."""
        return 0 if interaction.guild in (None, self.alice.guild) else 1


@pytest.fixture
async def world(postgres_schema: str, tmp_path: Path) -> AsyncIterator[World]:
    fake = FakeDiscord(TOKEN, User(BOT_ID, "basra", bot=True), shard_count=SHARDS)
    await fake.start()
    users = {name: fake.add_user(name) for name in ("alice", "bob", "carol", "dave", "erin", "frank")}
    in_a = [users[name] for name in ("alice", "bob", "erin", "frank")]
    guild_a = fake.add_guild(guild_id_on(0, SHARDS), "Cairo", in_a)
    guild_b = fake.add_guild(guild_id_on(1, SHARDS), "Alexandria", [users["carol"], users["dave"]])
    bots = Bots(fake, postgres_schema, tmp_path)
    try:
        for shard in range(SHARDS):
            bots.start(shard)
        for shard in range(SHARDS):
            await until(f"shard {shard} identified", partial(fake.gateway.live, shard, SHARDS), 30)
        await until("the commands synced", lambda: fake.commands.get(None), 30)
        async with open_store(postgres_schema) as store:
            yield World(
                fake,
                bots,
                store,
                *(Person(fake, users[name], guild_a) for name in ("alice", "bob")),
                *(Person(fake, users[name], guild_b) for name in ("carol", "dave")),
                *(Person(fake, users[name], guild_a) for name in ("erin", "frank")),
            )
    finally:
        # A test that looks at how the processes stop stops them itself (the first, with
        # SIGINT, then reads their logs); the others' are killed. Stopped, a process first
        # sends what its chats' budgets still hold back: after the pairing test's plays,
        # shard 0's writes to the two DMs, about 5 s of them, which no test reads.
        bots.kill()
        await fake.stop()


# -- reading the table ---------------------------------------------------------------------


async def table_of(store: Store, person: Person) -> TableRecord:
    """The open table of ``person``'s channel; in a DM, the match whose table it shows (a
    match the pool found has no channel of its own)."""
    if person.guild is None:
        shown = newest(person.fake, person, "hand")
        assert shown is not None, f"no table in {person.user.name}'s DM"
        found = await store.get_table(next(a.table_id for a in actions(shown) if a.verb == "hand"))
    else:
        found = await store.open_table_for_chat(f"dc:{person.channel.id}", OWNER)
    assert found is not None, f"no open table in channel {person.channel.id}"
    return found


async def match_of(store: Store, record: TableRecord) -> Match:
    return Match.from_events([e.data for e in await store.load_events(record.table_id)])


def newest(fake: FakeDiscord, person: Person, verb: str) -> StoredMessage | None:
    """The newest message the channel shows with a ``verb`` button."""
    for stored in reversed(fake.shown(person.channel)):
        if any(a.verb == verb for a in actions(stored)):
            return stored
    return None


async def shows_latest(fake: FakeDiscord, store: Store, person: Person) -> bool:
    table = newest(fake, person, "hand")
    record = await table_of(store, person)
    return table is not None and any(a.verb == "hand" and a.version == record.version for a in actions(table))


def has(message: StoredMessage, verb: str) -> bool:
    return any(a.verb == verb for a in actions(message))


@dataclass
class PublicScan:
    """Each public message version, checked once against the cards held when it is checked
    (the matches here stay in their first round, so a card held now was held all along)."""

    fake: FakeDiscord
    seen: set[tuple[int, int]] = field(default_factory=set)
    checked: int = 0

    def check(self, person: Person, held: set[str]) -> None:
        """The new versions of the messages in ``person``'s channel, against ``held`` there."""
        faces = {card_face(code) for code in held}
        for stored in self.fake.public(person.channel):
            for index, version in enumerate(stored.versions):
                if (stored.id, index) in self.seen:
                    continue
                self.seen.add((stored.id, index))
                self.checked += 1
                body = body_of(version.payload)
                leaked = sorted(face for face in faces if face in body)
                assert not leaked, f"hand cards {leaked} in a channel message:\n{body}"
                ids = " ".join(str(b.get("custom_id", "")) for b in buttons(version.payload))
                assert not any(f"|{code}" in ids for code in held), f"a hand card in a public button: {ids}"


async def held(store: Store, person: Person) -> set[str]:
    """Every card in a hand now at the match in ``person``'s channel (in its first round,
    as ``PublicScan`` needs); in their DM, every card but their own."""
    record = await table_of(store, person)
    match = await match_of(store, record)
    assert match.round_no == 1, match.round_no
    own = [n for n, seat in enumerate(record.seats) if person.guild is None and seat.player_id == pid(person)]
    return {card.code for seat in range(match.players) if seat not in own for card in match.hand(seat)}


def pid(person: Person) -> str:
    return f"dc:{person.user.id}"


# -- the two guilds' games -------------------------------------------------------------------


async def until_async(what: str, probe: Callable[[], Awaitable[T | None]], timeout: float = 10.0) -> T:
    """``await probe()`` once it is truthy, polled every 50 ms."""
    end = time.monotonic() + timeout
    while not (value := await probe()):
        assert time.monotonic() < end, f"no {what} within {timeout} s"
        await asyncio.sleep(0.05)
    return value


async def eventually(what: str, probe: Callable[[], Awaitable[bool]], timeout: float = 10.0) -> None:
    await until_async(what, probe, timeout)


async def computers(store: Store, person: Person, count: int) -> bool:
    return sum(seat.player_id is None for seat in (await table_of(store, person)).seats) >= count


async def open_match(
    fake: FakeDiscord, store: Store, creator: Person, mode: str, joiner: Person, machines: int = 0
) -> None:
    await creator.slash("new", mode=mode)
    lobby = await until("lobby", lambda: newest(fake, creator, "join"))
    await joiner.press(lobby, custom_id(lobby, "join"))
    await until(f"{joiner.user.name} seated", lambda: joiner.user.name in body_of(lobby.payload))
    for n in range(machines):
        await creator.press(lobby, custom_id(lobby, "computer"))
        await eventually("a computer seated", partial(computers, store, creator, n + 1))
    await creator.press(lobby, custom_id(lobby, "start"))
    await until("the table", lambda: newest(fake, creator, "hand"))


async def play_by_presses(
    fake: FakeDiscord, store: Store, people: list[Person], scan: PublicScan, others: list[Person]
) -> TableRecord:
    """``PLAYS`` plays, each by whoever is to move: "My hand", a card (the preview), then the
    confirm; every channel message checked against the hands after each."""
    by_id = {pid(p): p for p in people}
    for _ in range(PLAYS):
        record = await table_of(store, people[0])
        match = await match_of(store, record)
        assert match.to_move is not None
        mover = by_id[str(record.seats[match.to_move].player_id)]
        table = newest(fake, mover, "hand")
        assert table is not None
        opened = await mover.press(table, custom_id(table, "hand"))
        hand = await mover.answer(opened)
        assert hand.ephemeral and hand.viewer == mover.user.id
        cards = [a for a in actions(hand) if a.verb == "card"]
        assert cards and all(a.version == record.version for a in cards), [a.encode() for a in actions(hand)]
        await mover.press(hand, cards[0].encode())
        await until("the preview's confirm", partial(has, hand, "play"))
        assert (await table_of(store, people[0])).version == record.version  # a preview plays nothing
        await mover.press(hand, custom_id(hand, "play"))

        async def played(version: int = record.version) -> bool:
            return (await table_of(store, people[0])).version > version

        await eventually("stored play", played)
        events = await store.load_events(record.table_id, after_version=record.version)
        play = next(e for e in events if e.kind == "card_played")
        assert (play.data["seat"], play.data["card"]) == (match.to_move, cards[0].card), play
        for person in [people[0], *others]:
            scan.check(person, await held(store, person))
    return await table_of(store, people[0])


async def watch_clocks(
    store: Store, person: Person, deadlines: dict[int, float], clocks: int = CLOCKS, computer: bool = True
) -> list[StoredEvent]:
    """Note the deadline at each version of the guild's table until ``CLOCKS`` clocks have
    played for absent people and a computer has played: the table's events then."""
    end = time.monotonic() + CLOCK * (clocks + 1) + 10
    while time.monotonic() < end:
        record = await table_of(store, person)
        if record.deadline is not None:
            deadlines.setdefault(record.version, record.deadline)
        events = await store.load_events(record.table_id)
        fired = [e for e in events if e.kind == "auto_played"]
        machine = [e for e in events if e.kind == "card_played" and record.seats[e.data["seat"]].computer]
        if len(fired) >= clocks and (machine or not computer):
            return events
        await asyncio.sleep(0.05)
    raise AssertionError(
        f"fewer than {clocks} clocks fired, or no computer played, in {CLOCK * (clocks + 1) + 10} s"
    )


async def test_two_shard_processes_each_serve_their_own_guild(world: World) -> None:
    """A 1-v-1 played by presses in guild A while guild B's clock plays for absent people."""
    fake, store, alice, bob, carol, dave = (
        world.fake,
        world.store,
        world.alice,
        world.bob,
        world.carol,
        world.dave,
    )
    started = time.monotonic()
    await carol.slash("settings", clock=CLOCK)
    await asyncio.gather(
        open_match(fake, store, alice, "1v1", bob),
        open_match(fake, store, carol, "2v2", dave, machines=2),
    )
    clocked = await table_of(store, carol)
    assert sum(seat.computer is not None for seat in clocked.seats) == 2
    deadlines: dict[int, float] = {}
    scan = PublicScan(fake)
    watching = asyncio.ensure_future(watch_clocks(store, carol, deadlines))
    try:
        final = await play_by_presses(fake, store, [alice, bob], scan, [carol])
        events = await watching
    finally:
        watching.cancel()
    a_events = await store.load_events(final.table_id)
    # Each channel's table message comes to show its table's stored state (its buttons name
    # the version), whichever process wrote it last.
    for person in (alice, carol):
        await eventually(
            f"channel {person.channel.id}'s table shown as stored", partial(shows_latest, fake, store, person)
        )
    elapsed = time.monotonic() - started
    await world.bots.stop()
    for shard in range(SHARDS):
        assert "Traceback" not in world.bots.log(shard), world.bots.log(shard)[-4000:]

    # Guild A: the plays were stored, each by a person, and no clock played there.
    assert final.version >= PLAYS and not any(e.kind == "auto_played" for e in a_events)
    assert scan.checked > PLAYS
    # Guild B: each clock fired once, within 0.5 s of its deadline, for a person's seat.
    fired = [e for e in events if e.kind == "auto_played"]
    for event in fired:
        deadline = deadlines.get(event.version - 1)
        assert deadline is not None, (event.version, deadlines)
        assert deadline - 0.05 <= event.at <= deadline + 0.5, (event.at - deadline, event)
        turn_began = next(e.at for e in events if e.version == event.version - 1)
        assert abs(deadline - turn_began - CLOCK) < 0.5, (deadline - turn_began, event)
        assert clocked.seats[event.data["seat"]].player_id is not None
    assert len({deadlines[e.version - 1] for e in fired}) == len(fired)
    assert any(e.kind == "card_played" and clocked.seats[e.data["seat"]].computer for e in events)

    # Each guild's interactions went to its shard's process alone, and that process answered.
    assert len(fake.interactions) > 3 * PLAYS
    for interaction in fake.interactions.values():
        shard = world.shard_of(interaction)
        assert interaction.sent_to == (f"shard{shard}", shard), interaction
        assert interaction.answered_by == f"shard{shard}", interaction
        used = [c for c in fake.calls if interaction.token in c.path]
        assert used and all(c.process == f"shard{shard}" for c in used), used
    # Every call and connection came from one of the two processes, and both wrote.
    assert {c.process for c in fake.calls} == {"shard0", "shard1"}
    assert {c.process for c in fake.gateway.connections} == {"shard0", "shard1"}
    assert all(c.heartbeats >= 1 for c in fake.gateway.connections) and fake.gateway.unexpected == []
    assert fake.gateway.too_soon == []
    # Each connection was sent its own guild alone, and that guild's interactions.
    for connection in fake.gateway.connections:
        sent = [event for _, event in connection.events]
        assert sent.count("READY") == 1 and sent.count("GUILD_CREATE") == 1, sent
        mine = [i for i in fake.interactions.values() if world.shard_of(i) == (connection.shard or (-1,))[0]]
        assert sent.count("INTERACTION_CREATE") == len(mine) > 0
    assert fake.refused == [] and not [c for c in fake.calls if c.status == 429]
    assert fake.unknown == [] and fake.invalid == []
    assert elapsed < 50, elapsed


async def test_a_killed_shard_process_s_overdue_clock_is_taken_over(world: World) -> None:
    """Guild B's process is killed (SIGKILL) while a person's turn clock runs there: the other
    process claims the clock within about a second of its being 1.5 s overdue, it still fires
    once, and that process writes the play to guild B's channel. A practice against the
    computer in guild A has started the survivor's thinking process first, which the
    computers of guild B's table use once it is taken over."""
    fake, store, alice, carol, dave = world.fake, world.store, world.alice, world.carol, world.dave
    await carol.slash("settings", clock=CLOCK)
    await alice.slash("new", mode="practice", players=2)
    practice = await until("the practice lobby", lambda: newest(fake, alice, "start"))
    await alice.press(practice, custom_id(practice, "start"))
    await open_match(fake, store, carol, "2v2", dave, machines=2)

    async def persons_turn() -> TableRecord | None:
        record = await table_of(store, carol)
        match = await match_of(store, record)
        person = match.to_move is not None and record.seats[match.to_move].player_id is not None
        return record if person and record.deadline is not None else None

    record = await until_async("a person's turn", persons_turn, CLOCK + 5)
    assert record.deadline is not None
    victim = world.bots.processes[1]
    victim.kill()
    victim.wait()
    killed = time.monotonic()
    assert record.deadline - time.time() > 2, "the clock ran out before the kill"

    async def fired() -> list[StoredEvent]:
        events = await store.load_events(record.table_id)
        return [e for e in events if e.kind == "auto_played" and e.version == record.version + 1]

    clocks = await until_async("the overdue clock", fired, CLOCK + 10)
    # A second play of the same turn would be a later event: wait a little for one.
    await asyncio.sleep(1.0)
    events = await store.load_events(record.table_id)
    assert [e.version for e in events if e.kind == "auto_played"] == [clocks[0].version]
    late = clocks[0].at - record.deadline
    assert 0 <= late <= TAKEOVER + POLL + TAKING, late
    # The survivor wrote the clock's play to guild B's channel.
    channel = f"/channels/{carol.channel.id}/messages"
    writes = [c for c in fake.calls if c.at > killed and c.path.startswith(channel) and c.method != "GET"]
    assert writes and all(c.process == "shard0" and c.status < 300 for c in writes), writes
    # Its connection is gone; guild A's shard is still connected.
    assert fake.gateway.live(1, SHARDS) is None and fake.gateway.live(0, SHARDS) is not None
    assert fake.refused == [] and fake.unknown == [] and fake.invalid == []


async def test_the_first_clock_of_a_2v2_of_four_people_fires_on_time(world: World) -> None:
    """In a 2-v-2 of four people the clock plays for an absent person with the beginner's
    choice. No computer has played in this process, so its thinking processes are not
    running: the clock does not wait for them to start (about a second) but decides at once
    in the process itself (``Thinker.choose(wait=False)``)."""
    fake, store, alice = world.fake, world.store, world.alice
    await alice.slash("settings", clock=CLOCK)
    await alice.slash("new", mode="2v2")
    lobby = await until("lobby", lambda: newest(fake, alice, "join"))

    async def seated(count: int) -> bool:
        return sum(seat.player_id is not None for seat in (await table_of(store, alice)).seats) >= count

    for count, person in enumerate((world.bob, world.erin, world.frank), start=2):
        await person.press(lobby, custom_id(lobby, "join"))
        await eventually(f"{person.user.name} seated", partial(seated, count))
    await alice.press(lobby, custom_id(lobby, "start"))
    deadlines: dict[int, float] = {}
    events = await watch_clocks(store, alice, deadlines, clocks=1, computer=False)
    first = next(e for e in events if e.kind == "auto_played")
    assert deadlines[first.version - 1] - 0.05 <= first.at <= deadlines[first.version - 1] + 0.5, (
        first.at - deadlines[first.version - 1]
    )


async def test_people_of_both_shards_are_paired_and_play_in_their_dms_on_shard_0(world: World) -> None:
    """Discord brings every DM interaction to shard 0, whose process runs the pairing pool:
    carol asks in guild B (shard 1's process), alice in guild A, and they are paired and play
    in their DMs, each press there reaching shard 0's process. dave takes no DMs: his search
    is called off."""
    fake, store = world.fake, world.store
    world.dave.user.takes_dms = False
    refused = await world.dave.slash("play")
    await until("dave's DM refused", lambda: any(c.status == 403 for c in fake.calls), 10)
    for person in (world.alice, world.carol):
        await person.slash("play")
    alice, carol = world.alice.in_dm(), world.carol.in_dm()
    for person in (alice, carol):
        await until(f"the table in {person.user.name}'s DM", partial(newest, fake, person, "hand"), 20)
    record = await table_of(store, alice)
    assert {s.player_id for s in record.seats} == {pid(alice), pid(carol)}
    assert (await table_of(store, carol)).table_id == record.table_id
    final = await play_by_presses(fake, store, [alice, carol], PublicScan(fake), [carol])
    assert final.version > record.version

    dms = [i for i in fake.interactions.values() if i.guild is None]
    assert {i.user.id for i in dms} == {alice.user.id, carol.user.id}
    for interaction in fake.interactions.values():
        shard = world.shard_of(interaction)
        assert interaction.sent_to == (f"shard{shard}", shard), interaction
        assert interaction.answered_by == f"shard{shard}", interaction
    # dave's search wrote nothing he could see, and his guild's process told him why, to him alone.
    assert fake.shown(world.dave.in_dm().channel) == [] and refused.answered_by == "shard1"
    told = [m for m in fake.messages.values() if m.token == refused.token]
    no_dms = translator("ar").gettext(NO_DMS)  # the bot's language here (BASRA_LANGUAGE's default)
    assert told and all(m.ephemeral for m in told) and told[-1].payload["content"] == no_dms, told
    blocked = [c for c in fake.calls if c.status == 403]
    assert [c.path for c in blocked] == [f"/channels/{fake.dm_of(world.dave.user).id}/messages"], blocked
    assert fake.refused == [] and fake.unknown == [] and fake.invalid == []
