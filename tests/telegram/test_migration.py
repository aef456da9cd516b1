"""A basic group upgraded to a supergroup gets a new chat id: the game follows it.

The bot may learn it from Telegram's notice, or first from a call to the old
id that Telegram refuses with the new one (``ChatMigrated``): either way the
game moves once, and the other way changes nothing after.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from telegram import Update

from bots.i18n import translator
from bots.render import render_notice
from bots.render.answers import render_score
from bots.service import TableUpdated, TableView
from bots.telegram.delivery import content_of
from tests.fakes import ApiCall, FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.telegram.world import CARD_LABEL, HandLedger, World, start_match, to_move


def basic_group(server: FakeTelegram) -> tuple[FakeUser, FakeUser, FakeChat]:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    return alice, badr, server.add_group("Cafe", [alice, badr], supergroup=False)


def drawn(table: TableView) -> str:
    """The table message the bot draws for this view (the world's language is English)."""
    return content_of(render_notice(TableUpdated(table, "en"))).html


def calls_to(server: FakeTelegram, chat: FakeChat, since: int = 0) -> list[ApiCall]:
    return [c for c in server.calls()[since:] if str(c.params.get("chat_id")) == str(chat.id)]


def quiet_logs(caplog: pytest.LogCaptureFixture) -> None:
    """Nothing went wrong enough to warn about, and no log line names a card."""
    for record in caplog.records:
        assert record.levelno < logging.WARNING, record.getMessage()
        assert not CARD_LABEL.search(record.getMessage()), record.getMessage()


async def test_a_match_follows_its_group_to_the_supergroup_and_goes_on(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr, group = basic_group(server)
    async with World(server, database) as world:
        await world.send(alice, group, "/settings")
        await world.press_verb(alice, server.last_message(group), "variant")  # match to 100
        before = await start_match(world, group, alice, badr)
        mover = to_move(before, alice, badr)
        await world.play_any(mover)
        played = await world.table(group)
        assert played is not None and played.version > before.version
        old_messages = len(server.messages(group, bot_only=True))

        supergroup, notes = server.group_upgrades(group, alice)
        for note in notes:  # Telegram says it in both chats; the second changes nothing
            await world.deliver(note)

        assert await world.table(group) is None
        moved = await world.table(supergroup)
        assert moved is not None and moved.table_id == played.table_id
        assert moved.version == played.version and moved.floor == played.floor
        assert moved.rules.target == 100
        assert (await world.basra.service.settings(f"tg:{supergroup.id}")).rules.target == 100
        # The table is drawn anew in the supergroup, where the old message ids mean nothing.
        [table_message] = server.messages(supergroup, bot_only=True)
        assert table_message.button_data() or table_message.text

        other = badr if mover is alice else alice
        await world.play_any(other)
        after = await world.table(supergroup)
        assert after is not None and after.version > moved.version
        assert len(server.messages(group, bot_only=True)) == old_messages  # nothing more in the old chat
        assert server.messages(supergroup, bot_only=True)[0].edited


async def upgrade_then_play(
    world: World, alice: FakeUser, badr: FakeUser, group: FakeChat
) -> tuple[FakeChat, list[Update], TableView, FakeMessage]:
    """The group is upgraded and Telegram's notices are held back; the next play's table
    edit is refused with the supergroup's id. Returns the supergroup, the held notices,
    the table after the play and its message in the supergroup."""
    server = world.server
    await world.send(alice, group, "/settings")
    await world.press_verb(alice, server.last_message(group), "variant")  # match to 100
    before = await start_match(world, group, alice, badr)
    mover = to_move(before, alice, badr)
    hand_before = (await world.basra.service.hand(before.table_id, f"tg:{mover.id}")).hand
    old_messages = len(server.messages(group, bot_only=True))
    supergroup, notes = server.group_upgrades(group, alice)
    since = len(server.calls())

    await world.play_any(mover)

    # One call reached the old id, the table edit, and Telegram named the new id in its refusal.
    [refused] = calls_to(server, group, since)
    assert refused.method == "editMessageText" and refused.status == 400
    assert refused.response["parameters"]["migrate_to_chat_id"] == supergroup.id
    assert len(server.messages(group, bot_only=True)) == old_messages
    # The match now lives under the supergroup's id, with the play and the chat's settings.
    assert await world.table(group) is None
    moved = await world.table(supergroup)
    assert moved is not None and moved.table_id == before.table_id
    assert moved.version > before.version and moved.last_play is not None
    assert moved.last_play.seat == before.to_move
    hand_after = (await world.basra.service.hand(before.table_id, f"tg:{mover.id}")).hand
    assert len(hand_after) == len(hand_before) - 1 and moved.last_play.card in hand_before
    assert moved.rules.target == 100
    assert (await world.basra.service.settings(f"tg:{supergroup.id}")).rules.target == 100
    # The table is drawn afresh in the supergroup, showing the play; nothing waits to be retried.
    [table_message] = server.messages(supergroup, bot_only=True)
    assert table_message.current.source == drawn(moved)
    assert world.basra.dispatcher.pending() == 0
    return supergroup, notes, moved, table_message


async def test_a_refused_table_edit_moves_the_match_to_the_supergroup_without_the_notice(
    server: FakeTelegram, database: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bots")
    alice, badr, group = basic_group(server)
    async with World(server, database) as world:
        ledger = HandLedger.watch(world)
        supergroup, _, moved, table_message = await upgrade_then_play(world, alice, badr, group)
        since = len(server.calls())

        await world.play_any(to_move(moved, alice, badr))

        after = await world.table(supergroup)
        assert after is not None and after.version > moved.version
        # The same message in the supergroup is edited; the old group hears nothing more.
        assert server.messages(supergroup, bot_only=True) == [table_message]
        assert table_message.edited and table_message.current.source == drawn(after)
        assert calls_to(server, group, since) == []
    ledger.assert_no_leak(server, group, [alice, badr])
    ledger.assert_no_leak(server, supergroup, [alice, badr])
    quiet_logs(caplog)


async def test_the_notice_after_a_refused_edit_changes_nothing(
    server: FakeTelegram, database: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bots")
    alice, badr, group = basic_group(server)
    async with World(server, database) as world:
        supergroup, notes, moved, table_message = await upgrade_then_play(world, alice, badr, group)
        shown = table_message.current.source
        since = len(server.calls())

        for note in notes:  # Telegram's notices arrive at last, in both chats
            await world.deliver(note)

        assert server.calls()[since:] == []  # no table drawn again, nothing sent anywhere
        assert await world.table(group) is None
        assert await world.table(supergroup) == moved
        assert server.messages(supergroup, bot_only=True) == [table_message]
        assert table_message.current.source == shown
        # The match goes on in the supergroup's one table message.
        await world.play_any(to_move(moved, alice, badr))
        after = await world.table(supergroup)
        assert after is not None and after.version > moved.version
        assert server.messages(supergroup, bot_only=True) == [table_message]
        assert table_message.current.source == drawn(after)
    quiet_logs(caplog)


async def test_a_match_ended_by_a_refused_edit_shows_its_results_in_the_supergroup(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr, group = basic_group(server)
    async with World(server, database) as world:
        await world.basra.service.set_rules(f"tg:{group.id}", target=10)  # one round decides it
        table = await start_match(world, group, alice, badr)
        while table.stock or sum(seat.cards for seat in table.seats) > 1:
            await world.play_any(to_move(table, alice, badr))
            current = await world.table(group)
            assert current is not None
            table = current
        supergroup, _ = server.group_upgrades(group, alice)  # no notice
        old_messages = server.messages(group, bot_only=True)

        await world.play_any(to_move(table, alice, badr))  # the last card of the match

        finished = await world.basra.service.table(table.table_id)
        assert finished.status == "finished" and finished.chat_id == f"tg:{supergroup.id}"
        assert server.messages(group, bot_only=True) == old_messages
        texts = [m.text for m in server.messages(supergroup, bot_only=True)]
        # One message: the final table, the round's result and the match's result.
        [text] = texts
        assert "Alice" in text and "Badr" in text and "won" in text
        # The result counts in the supergroup, and no longer in the old group.
        board = await world.basra.service.leaderboard(f"tg:{supergroup.id}")
        assert {line.name for line in board.lines} == {"Alice", "Badr"}
        assert (await world.basra.service.leaderboard(f"tg:{group.id}")).lines == ()


async def test_a_reply_refused_in_the_old_group_goes_to_the_supergroup(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr, group = basic_group(server)
    async with World(server, database) as world:
        table = await start_match(world, group, alice, badr)
        supergroup, _ = server.group_upgrades(group, alice)  # no notice
        # Sent in the old group just before the upgrade, handled just after it.
        await world.send(badr, group, "/score")

        moved = await world.table(supergroup)
        assert moved is not None and moved.table_id == table.table_id
        # The answer (the score, as /score gives it during a match) and the redrawn table.
        messages = server.messages(supergroup, bot_only=True)
        assert len(messages) == 2
        sources = sorted(m.current.source for m in messages)
        assert drawn(moved) in sources
        score = content_of(render_score(moved, translator("en"))).html
        assert score in sources
        # Later commands from the old id are answered for the supergroup without trying it
        # (Alice's: Badr's own repeat within a minute would not be answered again).
        since = len(server.calls())
        await world.send(alice, group, "/score")
        assert calls_to(server, group, since) == []
        assert len(server.messages(supergroup, bot_only=True)) == 3


async def test_a_settings_press_on_the_old_panel_draws_it_again_in_the_supergroup(
    server: FakeTelegram, database: Path
) -> None:
    alice, _, group = basic_group(server)
    async with World(server, database) as world:
        await world.send(alice, group, "/settings")
        panel = server.last_message(group)
        supergroup, _ = server.group_upgrades(group, alice)  # no notice
        await world.press_verb(alice, panel, "variant")  # match to 100, on the old group's panel

        settings = await world.basra.service.settings(f"tg:{supergroup.id}")
        assert settings.rules.target == 100
        [redrawn] = server.messages(supergroup, bot_only=True)
        # The same panel (the same buttons), showing the change.
        verbs = [data.split("|")[1] for data in panel.button_data()]
        assert [data.split("|")[1] for data in redrawn.button_data()] == verbs
        assert redrawn.button_data() != panel.button_data()
        assert redrawn.current.source != panel.current.source


async def test_a_lobby_follows_its_group_when_a_join_is_refused_in_the_old_group(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr, group = basic_group(server)
    async with World(server, database) as world:
        await world.send(alice, group, "/newgame")
        lobby = server.last_message(group)
        supergroup, _ = server.group_upgrades(group, alice)  # no notice
        since = len(server.calls())

        await world.press_verb(badr, lobby, "join")  # on the old group's lobby message

        # The edit of the old message was refused with the new id; the lobby,
        # with Badr in it, is drawn anew in the supergroup.
        assert [c.method for c in calls_to(server, group, since)] == ["editMessageText"]
        [moved_lobby] = server.messages(supergroup, bot_only=True)
        assert "Badr" in moved_lobby.text and "Alice" in moved_lobby.text
        # Starting from the supergroup's lobby message starts the match there.
        await world.press_verb(alice, moved_lobby, "start")
        assert await world.table(group) is None
        table = await world.table(supergroup)
        assert table is not None
        assert {seat.player_id for seat in table.seats} == {f"tg:{alice.id}", f"tg:{badr.id}"}
        await world.play_any(to_move(table, alice, badr))
        after = await world.table(supergroup)
        assert after is not None and after.version > table.version


async def test_show_my_hand_on_the_old_table_message_still_works_and_the_play_moves_the_match(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr, group = basic_group(server)
    async with World(server, database) as world:
        ledger = HandLedger.watch(world)
        table = await start_match(world, group, alice, badr)
        [table_message] = [m for m in server.messages(group, bot_only=True) if world.buttons(m, "hand")]
        supergroup, _ = server.group_upgrades(group, alice)  # no notice
        mover = to_move(table, alice, badr)
        old_hand = world.hand_message(mover)

        await world.press_verb(mover, table_message, "hand")  # on the old group's table

        # The hand comes anew in private, as ever, with a card button for each card.
        new_hand = world.hand_message(mover)
        assert new_hand.message_id != old_hand.message_id
        assert not old_hand.deleted and not old_hand.button_data()  # a line now, nothing to press
        hand = (await world.basra.service.hand(table.table_id, f"tg:{mover.id}")).hand
        assert len(world.buttons(new_hand, "card")) == len(hand)
        assert not server.unanswered_callback_queries()
        # Playing from it reaches the old group's table, which is refused: the match moves.
        await world.play_any(mover)
        assert await world.table(group) is None
        moved = await world.table(supergroup)
        assert moved is not None and moved.version > table.version
    ledger.assert_no_leak(server, group, [alice, badr])
    ledger.assert_no_leak(server, supergroup, [alice, badr])
