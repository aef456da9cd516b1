"""The practice hint: what the computer would play in your place, from what your seat sees."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots.i18n import card_face, card_label, cards_text, translator
from bots.i18n.bidi import LRI
from bots.render import Action, hint_text, render_hand, render_hint
from bots.render.hints import REASON_WORDING, reason_text
from bots.service import HintView, ManualClock, NoHint, NotYourTurn, TableService
from core import Card, Match
from core.ai import REASONS, Reason, player
from storage import SqliteStore
from tests.service.helpers import ALICE, BADR, GROUP, FakePlatform


async def practice(service: TableService, clock: ManualClock) -> str:
    await service.set_rules(GROUP, target=1)  # one round is enough
    table = await service.practice(GROUP, ALICE)
    await clock.run_due()  # the computer plays first when it is its turn
    return table.table_id


async def test_following_every_hint_plays_a_whole_practice_match(
    service: TableService, clock: ManualClock, db_path: Path
) -> None:
    table_id = await practice(service, clock)
    reasons: set[str] = set()
    for _ in range(40):
        if not (await service.table(table_id)).running:
            break
        hand = await service.hand(table_id, ALICE.player_id)
        hint = await service.hint(table_id, ALICE.player_id)
        # The computer saw the seat's own view of the true match, history and all.
        async with SqliteStore(db_path) as store:
            events = [e.data for e in await store.load_events(table_id)]
        kinds = {"resigned", "expired", "auto_played"}
        truth = Match.from_events([e for e in events if e["kind"] not in kinds])
        expected = player("strong", seed=f"{table_id}:{hand.version}").suggest(truth.view(hand.seat))
        assert (hint.card, hint.plan, hint.reason) == (expected.card.code, expected.plan, expected.reason.key)
        assert hint.version == hand.version and hint.hand.hand == hand.hand
        assert hint.hand.preview is not None
        assert (hint.hand.preview.card, hint.hand.preview.selected) == (hint.card, hint.plan)
        assert await service.hand(table_id, ALICE.player_id) == hand  # a hint changes nothing
        reasons.add(hint.reason)
        for lang in ("ar", "en"):
            line = hint_text(hint, translator(lang))
            assert card_label(hint.card) in line and "{" not in line
        await service.play(table_id, ALICE.player_id, hint.version, hint.card, hint.plan)
        await clock.run_due()
    assert not (await service.table(table_id)).running
    assert len(reasons) >= 2


async def test_no_hint_in_a_match_between_people(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    table = await service.start_match(lobby.table_id, ALICE)
    mover = table.seats[table.to_move or 0].player_id or ""
    with pytest.raises(NoHint) as refused:
        await service.hint(table.table_id, mover)
    assert refused.value.fresh is not None and refused.value.fresh.table_id == table.table_id
    assert (
        refused.value.message(translator("en")) == "Hints are only for practice matches against the computer."
    )
    assert refused.value.message(translator("ar")) != refused.value.message(translator("en"))
    hand = await service.hand(table.table_id, mover)
    assert "hint" not in [b.action.verb for row in render_hand(hand, translator("en")).buttons for b in row]


async def test_no_hint_while_the_computer_is_to_move(service: TableService, clock: ManualClock) -> None:
    table_id = await practice(service, clock)
    hand = await service.hand(table_id, ALICE.player_id)
    await service.play(table_id, ALICE.player_id, hand.version, hand.hand[0])
    with pytest.raises(NotYourTurn):
        await service.hint(table_id, ALICE.player_id)  # the computer has not played yet
    waiting = await service.hand(table_id, ALICE.player_id)
    assert "hint" not in [
        b.action.verb for row in render_hand(waiting, translator("en")).buttons for b in row
    ]


async def test_a_practice_hand_on_its_turn_has_a_hint_button_whose_payload_fits(
    service: TableService, clock: ManualClock
) -> None:
    table_id = await practice(service, clock)
    hand = await service.hand(table_id, ALICE.player_id)
    for lang in ("ar", "en"):
        rendered = render_hand(hand, translator(lang))
        (button,) = rendered.buttons[-1]
        assert button.action == Action("hint", table_id, hand.version)
        assert len(button.action.encode().encode()) <= 64
        assert Action.decode(button.action.encode()) == button.action
    hint = await service.hint(table_id, ALICE.player_id)
    shown = render_hint(hint, translator("en"))
    assert shown.plain().startswith(hint_text(hint, translator("en")))
    play = next(b.action for row in shown.buttons for b in row if b.action.verb == "play")
    assert (play.card, play.plan, play.version) == (hint.card, hint.plan, hint.version)


def example_args(key: str) -> dict[str, int | tuple[str, ...]]:
    cards = {"card": ("10D",), "taken": ("4S", "6H"), "left": ("3D",), "sweeper": ("JS",)}
    args: dict[str, int | tuple[str, ...]] = {}
    template = REASONS[key]
    for name in ("card", "taken", "left", "sweeper", "points", "cards"):
        if "{" + name + "}" in template.singular:
            args[name] = cards.get(name, 3)
    return args


@pytest.mark.parametrize("key", sorted(REASONS))
def test_every_reason_the_computer_gives_is_worded_in_both_languages(key: str) -> None:
    args = example_args(key)
    reason = Reason(
        key, {k: tuple(Card.parse(c) for c in v) if isinstance(v, tuple) else v for k, v in args.items()}
    )
    english = reason_text(key, args, translator("en"))
    # The English wording is core.ai's template, with cards as isolated labels.
    singular, plural = reason.template
    labels = reason.fields(lambda cs: cards_text([c.code for c in cs]))
    assert english == (singular if reason.count == 1 else plural).format_map(labels)
    arabic = reason_text(key, args, translator("ar"))
    assert arabic != english and "{" not in arabic
    for value in args.values():
        if isinstance(value, tuple):
            assert f"{LRI}{' '.join(card_face(c) for c in value)}" in arabic
    assert key in REASON_WORDING
    hint_line = hint_text(HintView(None, "10D", 1, key, args), translator("ar"))  # type: ignore[arg-type]
    assert arabic in hint_line


async def test_the_hint_needs_no_platform_to_wait_for(
    service: TableService, platform: FakePlatform, clock: ManualClock
) -> None:
    table_id = await practice(service, clock)
    platform.clear()
    await service.hint(table_id, ALICE.player_id)
    assert platform.notices == []  # nothing is delivered: nothing changed
