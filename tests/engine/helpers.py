"""Building exact positions for the engine tests.

A test describes the hands, the floor and the top of the stock it wants;
``build_deck`` turns that into the 52-card deck the engine deals from, in the
dealing order of RULES.md section 2: one card at a time to each seat starting
after the dealer, four times round, then the four floor cards, then the stock
top card first.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

from core import Card, Match, Rules

CardsLike = str | Iterable[Card | str]

# Cards used to complete a deck or a short hand: kings and queens first, since
# they take only their own rank and so rarely disturb the situation a test sets up.
_QUIET_ORDER = tuple(
    Card.parse(rank + suit) for rank in ("K", "Q", "9", "8", "6", "5", "4", "3") for suit in "SHCD"
)


def cards(text: CardsLike) -> list[Card]:
    """Cards from ``"4S 6H 10C"`` or from a list of Cards or texts."""
    if isinstance(text, str):
        return [Card.parse(t) for t in text.split()]
    return [Card.of(c) for c in text]


def codes(items: Iterable[Card]) -> list[str]:
    return [c.code for c in items]


def seat_order(dealer: int, players: int) -> list[int]:
    """The seats in dealing and playing order for a round: the seat after the dealer first."""
    return [(dealer + 1 + i) % players for i in range(players)]


def build_deck(
    hands: Sequence[CardsLike],
    floor: CardsLike,
    stock: CardsLike = (),
    *,
    dealer: int = 0,
    later_deals: Sequence[Sequence[CardsLike]] = (),
    pad_hands: bool = False,
) -> list[Card]:
    """A 52-card deck, top card first, that deals exactly these cards.

    ``hands[seat]`` is the seat's first hand of four cards (with ``pad_hands``
    a shorter hand is completed with kings and queens not used elsewhere),
    ``floor`` the four cards turned up for the floor, ``later_deals`` the
    hands of the following deals (each a list per seat), ``stock`` the cards
    on top of the stock after those, top first. Every other card follows in a
    fixed order.
    """
    players = len(hands)
    first = [cards(h) for h in hands]
    deals = [[cards(h) for h in deal] for deal in later_deals]
    used = [c for h in first for c in h] + cards(floor) + cards(stock)
    used += [c for deal in deals for h in deal for c in h]
    if pad_hands:
        spare = [c for c in _QUIET_ORDER if c not in used]
        for hand in first:
            while len(hand) < 4:
                card = spare.pop(0)
                hand.append(card)
                used.append(card)
    order = seat_order(dealer, players)
    deck: list[Card] = []
    for hand_set in [first, *deals]:
        if len(hand_set) != players or any(len(h) != 4 for h in hand_set):
            raise AssertionError(f"each of the {players} hands needs 4 cards: {hand_set}")
        for i in range(4):
            for seat in order:
                deck.append(hand_set[seat][i])
        if hand_set is first:
            floor_cards = cards(floor)
            if len(floor_cards) != 4:
                raise AssertionError(f"the floor needs 4 cards: {floor_cards}")
            deck.extend(floor_cards)
    deck.extend(cards(stock))
    if len(set(deck)) != len(deck):
        raise AssertionError(f"a card appears twice: {codes(deck)}")
    deck.extend(c for c in _QUIET_ORDER + Card.deck() if c not in deck)
    deck = list(dict.fromkeys(deck))
    assert len(deck) == 52
    return deck


def new_match(
    hands: Sequence[CardsLike],
    floor: CardsLike,
    stock: CardsLike = (),
    *,
    rules: Rules | None = None,
    dealer: int = 0,
    later_deals: Sequence[Sequence[CardsLike]] = (),
    pad_hands: bool = False,
    seed: object = 0,
) -> Match:
    """A match whose first round deals exactly the given cards."""
    deck = build_deck(hands, floor, stock, dealer=dealer, later_deals=later_deals, pad_hands=pad_hands)
    return Match.new(len(hands), rules, decks=[deck], dealer=dealer, seed=seed)


def legal_plays(match: Match) -> list[tuple[Card, int | None]]:
    """Every play the seat to move may make: (card, plan number), 0 for laying a card."""
    seat = match.to_move
    assert seat is not None
    out: list[tuple[Card, int | None]] = []
    for card in match.hand(seat):
        plans = match.plans(card)
        out.extend((card, n) for n in range(1, len(plans) + 1))
        if not plans or match.rules.optional_capture:
            out.append((card, 0))
    return out


Chooser = Callable[[Match], tuple[Card, int | None]]


def first_card(match: Match) -> tuple[Card, int | None]:
    """A fixed strategy: the first card in hand, its first plan."""
    assert match.to_move is not None
    return match.hand(match.to_move)[0], None


def random_chooser(rng: random.Random) -> Chooser:
    def choose(match: Match) -> tuple[Card, int | None]:
        return rng.choice(legal_plays(match))

    return choose


def play_round(match: Match, choose: Chooser = first_card) -> None:
    """Play until the current round has been scored (or the match is over)."""
    round_no = match.round_no
    while match.round_no == round_no and match.to_move is not None:
        card, plan = choose(match)
        match.play(match.to_move, card, plan)


def play_match(match: Match, choose: Chooser = first_card, max_rounds: int = 200) -> None:
    """Play to the end of the match."""
    for _ in range(max_rounds):
        if match.to_move is None:
            return
        play_round(match, choose)
    raise AssertionError("the match did not end")


def round_deck(seed: int) -> list[Card]:
    deck = list(Card.deck())
    random.Random(seed).shuffle(deck)
    return deck


def round_events(match: Match, choose: Chooser = first_card) -> list[list[object]]:
    """Play the current round to its end; the events of each play."""
    round_no = match.round_no
    out: list[list[object]] = []
    while match.round_no == round_no and match.to_move is not None:
        card, plan = choose(match)
        out.append(list(match.play(match.to_move, card, plan)))
    return out


def find_deck(
    wanted: Callable[[Match, list[list[object]]], bool],
    *,
    players: int = 2,
    rules: Rules | None = None,
    dealer: int = 0,
    tries: int = 3000,
) -> list[Card]:
    """A deck whose first round, played with ``first_card``, does what ``wanted`` asks."""
    for seed in range(tries):
        deck = round_deck(seed)
        match = Match.new(players, rules, decks=[deck], dealer=dealer, seed=seed)
        plays = round_events(match)
        if wanted(match, plays):
            return deck
    raise AssertionError("no deck found")
