"""The shared renderer: both languages, card labels, isolates, buttons, and no hand card in public."""

from __future__ import annotations

import re

import pytest

from bots.i18n import translator
from bots.i18n.bidi import LRI, PDI
from bots.render import (
    Action,
    Rendered,
    render_error,
    render_hand,
    render_help,
    render_leaderboard,
    render_lobby,
    render_notice,
    render_rules,
    render_settings,
    render_stats,
    render_table,
)
from bots.render.common import seat_name
from bots.service import BadInput, HandUpdated, ManualClock, NotYourTurn, TableService, TableUpdated
from core.ai import LEVELS
from tests.service.helpers import ALICE, BADR, CARLA, DINA, GROUP, FakePlatform, play_out

LABEL = re.compile(r"(?<![0-9])(10|[2-9AJQK])([♣♦♥♠])")
SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def labels_in(text: str) -> set[str]:
    return {rank + SUITS[suit] for rank, suit in LABEL.findall(text)}


@pytest.mark.parametrize("mode", ["1v1", "2v2"])
async def test_no_public_message_ever_shows_a_card_in_someones_hand(
    service: TableService, clock: ManualClock, platform: FakePlatform, mode: str
) -> None:
    people = (ALICE, BADR) if mode == "1v1" else (ALICE, BADR, CARLA, DINA)
    lobby = await service.new_lobby(GROUP, ALICE, mode)  # type: ignore[arg-type]
    for person in people[1:]:
        await service.join(lobby.table_id, person)
    await service.start_match(lobby.table_id, ALICE)
    await play_out(service, clock, lobby.table_id)
    scanned = 0
    for batch in platform.batches:
        hands = [n.hand for n in batch if isinstance(n, HandUpdated)]
        for notice in batch:
            if not notice.public:
                continue
            # A finished round's last table shows that round's cards, all played by now;
            # the hands of the batch are the next round's.
            shown_round = notice.table.round_no if isinstance(notice, TableUpdated) else None
            hidden = {c for h in hands if shown_round in (None, h.table.round_no) for c in h.hand}
            for lang in ("ar", "en"):
                rendered = render_notice(notice.__class__(**{**_fields(notice), "lang": lang}))
                text = rendered.plain()
                shown = labels_in(text)
                if notice.kind == "round_ended":
                    shown -= {"2C", "10D"}  # the points breakdown names them
                assert not shown & hidden, (notice.kind, shown & hidden, text)
                for button in (b for row in rendered.buttons for b in row):
                    assert button.action.card is None
                scanned += 1
    assert scanned > 50


def _fields(notice: object) -> dict[str, object]:
    return {name: getattr(notice, name) for name in notice.__dataclass_fields__}  # type: ignore[attr-defined]


async def started(service: TableService) -> str:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    await service.start_match(lobby.table_id, ALICE)
    return lobby.table_id


async def test_the_table_shows_the_floor_in_order_with_symbols_in_an_isolate(service: TableService) -> None:
    table = await service.table(await started(service))
    for lang in ("ar", "en"):
        text = render_table(table, translator(lang)).plain()
        floor = " ".join(c[:-1] + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[c[-1]] for c in table.floor)
        assert f"{LRI}{floor}{PDI}" in text
    assert "الأرض" in render_table(table, translator("ar")).plain()
    assert "Floor" in render_table(table, translator("en")).plain()


async def test_a_hand_renders_its_cards_as_buttons_and_a_preview_with_confirm(service: TableService) -> None:
    table_id = await started(service)
    table = await service.table(table_id)
    mover = table.seats[table.to_move or 0].player_id or ""
    hand = await service.hand(table_id, mover)
    rendered = render_hand(hand, translator("en"))
    actions = [b.action for row in rendered.buttons for b in row]
    assert [a.card for a in actions] == list(hand.hand)
    assert all(a.verb == "card" and a.version == hand.version for a in actions)
    preview = await service.preview(table_id, mover, hand.hand[0])
    for lang, confirm in (("en", "Play"), ("ar", "العب")):
        shown = render_hand(preview, translator(lang))
        labels = shown.labels()
        assert any(label.startswith(confirm) for label in labels)
        play = next(b.action for row in shown.buttons for b in row if b.action.verb == "play")
        assert (play.card, play.version) == (hand.hand[0], hand.version)
        assert Action.decode(play.encode()) == play
        assert len(play.encode().encode()) <= 64


async def test_takes_nothing_and_basra_are_said_in_both_languages(service: TableService) -> None:
    from bots.service import HandView, PlanOption, Preview

    table_id = await started(service)
    table = await service.table(table_id)
    hand = await service.hand(table_id, table.seats[0].player_id or "")
    nothing = HandView(table, 0, hand.player_id, hand.hand, Preview(hand.hand[0], (), 0, False))
    assert "takes nothing" in render_hand(nothing, translator("en")).plain()
    assert "لا تأكل شيئًا" in render_hand(nothing, translator("ar")).plain()
    basra = Preview(
        hand.hand[0], (PlanOption(1, table.floor, tuple(range(len(table.floor))), True),), 1, False
    )
    sweep = HandView(table, 0, hand.player_id, hand.hand, basra)
    assert "basra!" in render_hand(sweep, translator("en")).plain()
    assert "باصرة!" in render_hand(sweep, translator("ar")).plain()


async def test_lobby_buttons_and_texts(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE, "2v2")
    en = render_lobby(lobby, translator("en"))
    verbs = [b.action.verb for row in en.buttons for b in row]
    assert verbs[:2] == ["join", "leave"] and "team" in verbs and "cancel" in verbs and "start" not in verbs
    assert "الفريق أ" in render_lobby(lobby, translator("ar")).plain()


def verbs_by_row(rendered: Rendered) -> list[list[str]]:
    return [[b.action.verb for b in row] for row in rendered.buttons]


async def test_a_lobby_fits_a_phone_and_shows_no_join_once_full(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    rows = verbs_by_row(render_lobby(lobby, translator("en")))
    # Each long "Add computer (level)" label has a row of its own.
    assert [row for row in rows if "computer" in row] == [["computer"]] * len(
        [level for level in ("beginner", "strong", "expert") if level in LEVELS]
    )
    full = await service.join(lobby.table_id, BADR)
    rows = verbs_by_row(render_lobby(full, translator("en")))
    assert rows == [["leave"], ["start", "cancel"]]
    with_computer = await service.add_computer(
        (await service.new_lobby("tg:-301", CARLA, "2v2")).table_id, CARLA, "beginner"
    )
    assert ["uncomputer"] in verbs_by_row(render_lobby(with_computer, translator("en")))


async def test_a_lobby_says_whether_it_counts_from_the_first_moment(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    assert "Rated: the result moves both players' ratings." in render_lobby(lobby, translator("en")).plain()
    practice = await service.add_computer(lobby.table_id, ALICE, "beginner")
    for lang in ("en", "ar"):
        text = render_lobby(practice, translator(lang)).plain()
        assert translator(lang).gettext(
            "Practice: with the computer at the table, the result counts in nobody's record."
        ) in text
    alone = await service.new_lobby("tg:-302", BADR, "practice")
    assert "join" not in [verb for row in verbs_by_row(render_lobby(alone, translator("en"))) for verb in row]


async def test_a_cancelled_lobby_names_no_empty_list(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.leave(lobby.table_id, ALICE)
    closed = await service.lobby(lobby.table_id)
    assert closed.status == "cancelled"
    text = render_lobby(closed, translator("en")).plain()
    assert "Players: —" in text and "This table was cancelled." in text


async def test_results_show_the_points_breakdown(
    service: TableService, clock: ManualClock, platform: FakePlatform
) -> None:
    table_id = await started(service)
    await play_out(service, clock, table_id)
    round_text = render_notice(platform.of("round_ended")[0]).plain()
    assert "الجولة" in round_text or "Round" in round_text
    result = platform.of("match_ended")[-1].result
    en = render_notice(platform.of("match_ended")[-1].__class__(result, "en")).plain()
    assert "The match is over" in en and "profile points" in en and "rating" in en


async def test_info_messages_in_both_languages(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    await service.start_match(lobby.table_id, ALICE)
    await service.resign(lobby.table_id, BADR.player_id)
    for lang in ("ar", "en"):
        t = translator(lang)
        assert render_help(t, {"new": "/newgame"}).plain().count("/newgame") == 1
        assert "121" in render_rules(t).plain()
        settings = render_settings(await service.settings(GROUP), t)
        assert 0 < len(settings.buttons) <= 5
        mine = await service.stats(ALICE.player_id)
        assert mine.line is not None
        assert str(mine.line.rating) in render_stats(mine, t).plain()
        board = render_leaderboard(await service.leaderboard(GROUP), t).plain()
        assert board.count("\n") >= 2
    assert "الباصرة" in render_rules(translator("ar")).plain()


async def test_errors_are_short_and_translated(service: TableService) -> None:
    error = NotYourTurn(name="بدر")
    assert render_error(error, translator("en")).plain() == "It is \u2068بدر\u2069's turn, not yours."
    assert "الدور على" in render_error(error, translator("ar")).plain()
    with pytest.raises(BadInput):
        Action.decode("b1|play|x|notanumber")
    with pytest.raises(BadInput):
        Action.decode("b1|play|abc|3|ZZ")


@pytest.mark.parametrize("digit", ["²", "٣", "３", "𝟑", "①"])
def test_only_ascii_digits_are_numbers_in_a_payload(digit: str) -> None:
    assert Action.decode("b1|play|abc|3|7H|1") == Action("play", "abc", 3, "7H", 1)
    for payload in (f"b1|play|abc|{digit}|7H|1", f"b1|play|abc|3|7H|{digit}", f"b1|play|abc|1{digit}|7H"):
        with pytest.raises(BadInput):
            Action.decode(payload)


async def test_settings_fit_in_five_rows_of_at_most_five_buttons_and_offer_every_choice(
    service: TableService,
) -> None:
    view = await service.set_variant(GROUP, "optional capture", True)
    for lang in ("ar", "en"):
        rendered = render_settings(view, translator(lang))
        assert len(rendered.buttons) <= 5 and all(0 < len(row) <= 5 for row in rendered.buttons)
        actions = [b.action for row in rendered.buttons for b in row]
        toggles = {a.arg: a.plan for a in actions if a.verb == "variant"}
        assert toggles == {name: 0 if on else 1 for name, on in view.variants}  # each press flips one
        assert {a.arg for a in actions if a.verb == "clock"} == {"60", "120", "300"}
        assert {a.arg for a in actions if a.verb == "lang"} == {"ar", "en", "auto"}
        assert all(len(label) <= 40 for label in rendered.labels())
        assert sum(label.startswith("✓ ") for label in rendered.labels()) == 1


async def test_every_plan_of_the_largest_optional_capture_floor_is_reachable_on_both_bots(
    service: TableService,
) -> None:
    from dataclasses import replace

    from bots.discord.messages import MAX_PER_ROW, MAX_ROWS, view_of
    from bots.service import HandView, PlanOption, Preview
    from core import Card, Rules
    from core.plans import capture_plans

    table_id = await started(service)
    table = await service.table(table_id)
    hand = await service.hand(table_id, table.seats[0].player_id or "")
    # The floor optional capture lets grow: 23 small number cards; a 9 has 39 plans, and laying it.
    floor = tuple(f"{r}{s}" for r in "A23456" for s in "CDHS")[:23]
    plans = capture_plans(Card.parse("9C"), [Card.parse(c) for c in floor], Rules(optional_capture=True))
    assert len(plans) > 30
    options = tuple(
        PlanOption(n, tuple(c.code for c in p.taken), p.positions, p.basra) for n, p in enumerate(plans, 1)
    )
    big = replace(table, floor=floor)
    every = {p.number for p in options} | {0}
    reached: set[int] = set()
    pending, seen = [1], set()
    while pending:
        selected = pending.pop()
        if selected in seen:
            continue
        seen.add(selected)
        view = HandView(big, 0, hand.player_id, ("9C",), Preview("9C", options, selected, True))
        for lang in ("en", "ar"):
            rendered = render_hand(view, translator(lang))
            assert len(rendered.buttons) <= MAX_ROWS and all(len(r) <= MAX_PER_ROW for r in rendered.buttons)
            verbs = [b.action.verb for b in rendered.buttons[-1]]
            assert verbs == ["play", "back"]
            discord_view = view_of(rendered)  # nothing dropped on Discord either
            assert discord_view is not None and len(discord_view.children) == sum(map(len, rendered.buttons))
        for button in (b for row in rendered.buttons for b in row if b.action.verb == "plan"):
            reached.add(button.action.plan or 0)
            pending.append(button.action.plan or 0)
    assert reached == every


async def test_computers_at_one_table_have_names_of_their_own_and_the_partner_is_marked(
    service: TableService,
) -> None:
    table = await service.practice(GROUP, ALICE, players=4, level="expert")
    for lang in ("en", "ar"):
        t = translator(lang)
        names = [render_seat for render_seat in (seat_name(t, s) for s in table.seats[1:])]
        assert len(set(names)) == 3, names
        hand = await service.hand(table.table_id, ALICE.player_id)
        text = render_hand(hand, t).plain()
        partner = t.gettext("{name} (your partner)", name=seat_name(t, table.seats[2]))
        assert partner in text
    assert [seat_name(translator("en"), s) for s in table.seats[1:]] == [
        "Computer 1 (expert)", "Computer 2 (expert)", "Computer 3 (expert)"
    ]
    alone = await service.practice("tg:-400", BADR, players=2)
    assert seat_name(translator("en"), alone.seats[1]) == "Computer (beginner)"
