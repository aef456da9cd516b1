"""A store that fails while a play or a command is being saved: the player is told it was
not saved, nothing is shown as played, and the same press works once the store does.

One test fills a real filesystem (a small tmpfs, which needs root to mount; skipped
elsewhere); the other makes the store refuse the same way, everywhere.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage import SqliteStore, StorageError
from tests.fakes import FakeChat, FakeTelegram, FakeUser
from tests.telegram.test_presses import dealt, press_card
from tests.telegram.world import World, start_match, to_move, told_preview

NOT_SAVED = "That was not saved: the game's storage is failing. Nothing changed; try again in a moment."


def people(server: FakeTelegram) -> tuple[FakeUser, FakeUser, FakeChat]:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    return alice, badr, server.add_group("Cafe", [alice, badr])


async def confirm_fails_then_works(world: World, group: FakeChat, alice: FakeUser, badr: FakeUser,
                                   broken: contextlib.AbstractContextManager[object], card: str) -> None:
    """The first to play (``dealt``) confirms ``card`` while the store is ``broken``, then
    once it works: 9♥ (two plans) with Play on its preview in the hand, 7♣ (one outcome,
    told in the press's answer) by pressing it again."""
    server = world.server
    table = await world.table(group)
    assert table is not None
    mover = to_move(table, alice, badr)
    hand = world.hand_message(mover)
    pressed = await press_card(world, mover, hand, card)
    in_hand = card == "9H"
    if in_hand:
        assert world.buttons(hand, "play")
        confirm = world.buttons(hand, "play")[0]
    else:
        assert told_preview(server, pressed) and not world.buttons(hand, "play")
        confirm = next(d for d in world.buttons(hand, "card") if d.split("|")[4] == card)
    shown = (hand.text, server.last_message(group).text, len(hand.versions))
    with broken:
        update = await world.press(mover, hand, confirm)
        answer = server.callback_answer(update)
        assert answer is not None and answer.show_alert and answer.text == NOT_SAVED
        await world.basra.dispatcher.idle()
        # Nothing is shown as played: the hand (its preview, if drawn there) and the table are
        # as they were.
        assert (hand.text, server.last_message(group).text, len(hand.versions)) == shown
        assert bool(world.buttons(hand, "play")) == in_hand
        assert await world.table(group) == table
        # A command gets its answer too.
        other = server.add_group("Other", [alice, badr])
        await world.send(alice, other, "/newgame")
        await world.basra.dispatcher.idle()
        assert server.last_message(other).text == NOT_SAVED
    # The store works again: the same press plays (a card told in the press's answer stays
    # armed after a confirm that was not saved: one press more, not its preview again).
    update = await world.press(mover, hand, confirm)
    answer = server.callback_answer(update)
    assert answer is not None and not answer.show_alert
    after = await world.table(group)
    assert after is not None and after.version > table.version and after.to_move != table.to_move
    assert after.last_play is not None and after.last_play.card == card
    held = await world.basra.service.hand(table.table_id, f"tg:{mover.id}")
    assert card not in held.hand and len(held.hand) == 3  # played once


@contextlib.contextmanager
def refusing(store: SqliteStore) -> Iterator[None]:
    """Every write of ``store`` fails as SQLite fails on a full disk."""
    original = store._writer.write  # type: ignore[attr-defined]

    async def full(*args: object, **kwargs: object) -> object:
        raise StorageError("writing failed: database or disk is full")

    store._writer.write = full  # type: ignore[attr-defined]
    try:
        yield
    finally:
        store._writer.write = original  # type: ignore[attr-defined]


@pytest.mark.parametrize("card", ["9H", "7C"])
async def test_a_play_the_store_refuses_is_not_shown_as_played(
    server: FakeTelegram, database: Path, card: str
) -> None:
    alice, badr, group = people(server)
    async with dealt(server, database) as world:
        await start_match(world, group, alice, badr)
        assert world.basra.store is not None
        await confirm_fails_then_works(world, group, alice, badr, refusing(world.basra.store), card)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB tmpfs of its own (root only)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)],
                          capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


@contextlib.contextmanager
def filled(disk: Path) -> Iterator[None]:
    """The filesystem has not a byte left."""
    filler = disk / "filler"
    with filler.open("wb", buffering=0) as out, contextlib.suppress(OSError):
        while True:
            out.write(b"\0" * 4096)
    try:
        yield
    finally:
        filler.unlink()


async def test_a_full_disk_is_told_and_nothing_is_lost(server: FakeTelegram, small_disk: Path) -> None:
    alice, badr, group = people(server)
    async with dealt(server, small_disk / "basra.sqlite3") as world:
        await start_match(world, group, alice, badr)
        await confirm_fails_then_works(world, group, alice, badr, filled(small_disk), "9H")
