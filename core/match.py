"""A match of Basra: dealing, turns, captures, rounds and the match result.

``Match`` is the single source of truth for a game in progress. It is
synchronous and pure: randomness comes in as a seed or as decks, and every
accepted play returns the events it produced (see ``core.events``).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, Final

from . import events as ev
from .cards import Card, parse_cards
from .errors import (
    BadArgument,
    BasraError,
    IllegalPlay,
    MatchIsOver,
    MustTake,
    NoSuchPlan,
    NotInHand,
    NotTheirTurn,
    shown,
)
from .plans import Plan, is_basra, plan_positions_for, plans_on
from .record import fold_events, replay_record
from .rules import Rules
from .scoring import RoundSummary, score_round
from .view import PublicPlay, SeatView

HAND_SIZE: Final = 4
FLOOR_SIZE: Final = 4

# Final: compiled, these are read as C statics rather than looked up by name.
_new: Final = tuple.__new__
_MAKE: Final = object()  # Match.new's pass to the constructor
_DEFAULT_RULES: Final = Rules.preset("default")  # frozen: one instance serves every match
_INDEX_BYTES: Final = tuple(bytes([i]) for i in range(52))
_SEED_BOUND: Final = 10**100  # a seed's digits go into the shuffle as text


def _shuffled_order(seed: object, round_no: int, size: int = 96) -> list[int]:
    """The deck indexes of a seeded round's deck, top card first: the same
    seed and round, the same deck.

    A Fisher-Yates shuffle whose draws are bytes of SHAKE-128 of the seed and
    round. A byte in the uneven top of 0..255 for the span it picks from is
    skipped for the next one, so every order is equally likely; SHAKE gives
    as many bytes as are needed, a longer digest starting with the shorter.
    """
    stream = hashlib.shake_128(f"basra:{seed}:{round_no}".encode())
    # About 55 of the first ``size`` bytes are used on average.
    draws = stream.digest(size)
    at = 0
    order = list(range(52))
    for top in range(51, 0, -1):
        span = top + 1
        limit = 256 - 256 % span
        while True:
            if at == size:
                size *= 2
                draws = stream.digest(size)
            draw = draws[at]
            at += 1
            if draw < limit:
                break
        pick = draw % span
        order[top], order[pick] = order[pick], order[top]
    return order


_DECK: Final = Card.deck()
_CODES: Final = tuple(c.code for c in _DECK)


class Match:
    """One match, 2 players or 2-v-2. Seats 0 and 2 are side 0; 1 and 3 side 1.

    Arguments the methods check themselves (seats, cards, plan numbers) are
    typed ``object``: compiled, an annotation is enforced at the call with a
    bare TypeError, before the check could say what is wrong with the play.
    """

    def __init__(self, token: object = None) -> None:  # use Match.new or Match.from_record
        if token is not _MAKE:
            raise TypeError("use Match.new(...)")

    # -- creation -----------------------------------------------------------

    @classmethod
    def new(
        cls,
        players: object = 2,
        rules: object = None,
        *,
        seed: object = None,
        decks: object = None,
        dealer: object = 0,
    ) -> Match:
        """Start a match and deal its first round.

        ``rules`` is a Rules (the defaults when None). ``decks`` gives each
        round's deck, top card first, as a list of 52 Cards or card texts;
        rounds beyond it are shuffled from ``seed``: a string, a float or a
        whole number of up to 100 digits (a fresh random one when None).
        Anything else is a BadArgument.
        """
        if type(players) is not int or players not in (2, 4):
            raise BadArgument(f"a match has 2 or 4 players, not {shown(players)}")
        if type(dealer) is not int or not 0 <= dealer < players:
            raise BadArgument(f"dealer must be a seat from 0 to {players - 1}, not {shown(dealer)}")
        if rules is None:
            rules = _DEFAULT_RULES
        elif not isinstance(rules, Rules):
            raise BadArgument(f"rules must be a Rules, not {shown(rules)}")
        if seed is None:
            seed = secrets.randbits(64)
        elif not (type(seed) in (str, float) or (type(seed) is int and -_SEED_BOUND < seed < _SEED_BOUND)):
            raise BadArgument(f"seed must be a string or a number of up to 100 digits, not {shown(seed)}")
        if decks is None:
            decks = ()
        elif isinstance(decks, (str, bytes)) or not isinstance(decks, Sequence):
            raise BadArgument(f"decks must be a list of decks of 52 cards, not {shown(decks)}")
        given = [_checked_deck(d, i) for i, d in enumerate(decks)]
        match = cls(_MAKE)
        match.players = players
        match.rules = rules
        match.first_dealer = dealer
        match.seed = seed
        match._given_decks = given
        match.decks_used = []
        match.scores = (0, 0)
        match.carry = 0
        match.rounds = []
        match.winner = None
        match._plays_seen = []
        match._history = []
        match.round_no = 0
        match._start_round()
        return match

    # Attributes, typed for readers and mypy.
    players: int
    rules: Rules
    first_dealer: int
    seed: object
    _given_decks: list[list[Card]]
    decks_used: list[list[Card]]
    scores: tuple[int, int]
    carry: int
    rounds: list[RoundSummary]
    winner: int | None
    # Every play as (round_no, seat, card, taken, basra, plan as recorded):
    # the history and the record's plays, named and written out when read.
    _plays_seen: list[tuple[int, int, Card, tuple[Card, ...], bool, int]]
    _history: list[PublicPlay]
    round_no: int
    dealer: int
    to_move: int | None
    _hands: list[list[Card]]
    _floor: list[Card]
    _floor_indexes: bytes  # the floor's card indexes, for the plan search
    _stock: list[Card]  # top card last
    _piles: list[list[Card]]
    _basras: list[int]
    _last_capture: int | None
    _deal_no: int
    _buried: list[Card]
    _opening: list[ev.Event]

    def _start_round(self) -> list[ev.Event]:
        self.round_no += 1
        self.dealer = (self.first_dealer + self.round_no - 1) % self.players
        index = self.round_no - 1
        if index < len(self._given_decks):
            deck = self._given_decks[index]
            codes = tuple([c.code for c in deck])
        else:
            pick = itemgetter(*_shuffled_order(self.seed, self.round_no))
            deck = list(pick(_DECK))
            codes = pick(_CODES)
        self.decks_used.append(deck)
        self._stock = deck[::-1]
        self._hands = [[] for _ in range(self.players)]
        self._floor = []
        self._floor_indexes = b""
        self._piles = [[], []]
        self._basras = [0, 0]
        self._last_capture = None
        self._deal_no = 0
        self._buried = []
        started: list[ev.Event] = [
            ev.RoundStarted(self.round_no, self.dealer, codes)
        ]
        started.append(self._deal())
        self.to_move = (self.dealer + 1) % self.players
        if self.round_no == 1:
            self._opening = [ev.MatchStarted(self.players, self.first_dealer, self.rules.to_dict())]
            self._opening.extend(started)
        return started

    def _deal(self) -> ev.Dealt:
        """Four cards to each hand one at a time from the seat after the dealer;
        on the first deal, four to the floor, burying jacks and the 7D."""
        deal_no = self._deal_no = self._deal_no + 1
        stock = self._stock
        players = self.players
        count = HAND_SIZE * players
        dealt = stock[: -count - 1 : -1]  # the top cards, top first
        del stock[-count:]
        hands = self._hands
        first = self.dealer + 1
        for i in range(players):
            hands[(first + i) % players] += dealt[i::players]
        codes = tuple([tuple([c.code for c in hand]) for hand in hands])
        if deal_no > 1:
            return ev.Dealt(self.round_no, deal_no, codes, (), ())
        floor = self._floor = [stock.pop() for _ in range(FLOOR_SIZE)]
        for i in range(FLOOR_SIZE):
            while floor[i].is_sweeper:
                self._buried.append(floor[i])
                stock.insert(0, floor[i])
                floor[i] = stock.pop()
        self._floor_indexes = bytes([c.index for c in floor])
        return ev.Dealt(
            self.round_no,
            deal_no,
            codes,
            tuple([c.code for c in floor]),
            tuple([c.code for c in self._buried]),
        )

    # -- reading ------------------------------------------------------------

    def hand(self, seat: object) -> tuple[Card, ...]:
        if type(seat) is int and 0 <= seat < self.players:
            return tuple(self._hands[seat])
        return tuple(self._hands[self._check_seat(seat)])

    @property
    def floor(self) -> tuple[Card, ...]:
        return tuple(self._floor)

    @property
    def stock_count(self) -> int:
        return len(self._stock)

    @property
    def piles(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """Cards each side has taken this round."""
        return (tuple(self._piles[0]), tuple(self._piles[1]))

    @property
    def over(self) -> bool:
        return self.winner is not None

    def plans(self, card: object) -> tuple[Plan, ...]:
        """The plans ``card`` has on the floor now, numbered from 1 in this order."""
        return plans_on(_card(card), self._floor, self.rules)

    @property
    def history(self) -> list[PublicPlay]:
        """Every play of the match as the whole table saw it, oldest first."""
        named = self._history
        if len(named) < len(self._plays_seen):
            named += [_new(PublicPlay, play[:5]) for play in self._plays_seen[len(named) :]]
        return named

    @property
    def plays(self) -> list[str]:
        """The plays in record notation. A record names the plan unless it is
        the default: plan 1, or laying a card that takes nothing."""
        return [
            card.code if plan == 1 else f"{card.code}/{plan}"
            for _, _, card, _, _, plan in self._plays_seen
        ]

    def opening_events(self) -> list[ev.Event]:
        """The events of the match's creation: MatchStarted and the first deal."""
        return list(self._opening)

    def view(self, seat: object) -> SeatView:
        """Everything ``seat`` may know, and nothing more."""
        seat = self._check_seat(seat)
        return SeatView(
            seat=seat,
            players=self.players,
            rules=self.rules,
            hand=tuple(self._hands[seat]),
            floor=tuple(self._floor),
            hand_sizes=tuple(len(h) for h in self._hands),
            stock_count=len(self._stock),
            scores=self.scores,
            carry=self.carry,
            round_no=self.round_no,
            dealer=self.dealer,
            to_move=self.to_move,
            winner=self.winner,
            captured=(len(self._piles[0]), len(self._piles[1])),
            round_basras=(self._basras[0], self._basras[1]),
            last_capture_side=self._last_capture,
            buried=tuple(self._buried),
            history=tuple(self.history),
            rounds=tuple(self.rounds),
        )

    def _check_seat(self, seat: object) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise IllegalPlay(f"no seat {shown(seat)} in a {self.players}-player match")
        return seat

    # -- playing ------------------------------------------------------------

    def play(self, seat: object, card: object, plan: object = None) -> list[ev.Event]:
        """Play ``card`` from ``seat``'s hand.

        ``plan`` is a number from ``plans(card)``: None takes plan 1 (or lays
        the card when it takes nothing); 0 lays it without taking, allowed only
        with optional capture or when the card has no plan. Returns the events;
        raises IllegalPlay, changing nothing, when the play is refused.
        """
        if type(seat) is int and type(card) is Card and seat == self.to_move:
            turn: int = seat
            played: Card = card
        else:
            turn, played = self._turn_checked(seat, card)
        hand = self._hands[turn]
        if played not in hand:
            raise NotInHand(f"illegal play '{played}': not in hand", played.code)
        floor = self._floor
        options = plan_positions_for(played, floor, self._floor_indexes)
        if plan is None:
            number = 1 if options else 0
        elif type(plan) is not int:
            raise IllegalPlay(f"illegal play '{played}': plan must be a number, not {shown(plan)}")
        elif plan == 0:
            if options and not self.rules.optional_capture:
                raise MustTake(
                    f"illegal play '{played}': it must take one of its {len(options)} plans", played.code
                )
            number = 0
        elif 1 <= plan <= len(options):
            number = plan
        else:
            message = f"illegal play '{played}/{shown(plan)}': no such plan (it has {len(options)})"
            raise NoSuchPlan(message, played.code, plan)

        # Accepted: from here on nothing raises. The history is kept as plain
        # tuples, named only when it is read: this is the path every search
        # and replay runs through.
        hand.remove(played)
        rno = self.round_no
        code = played.code
        out: list[ev.Event] = [ev.CardPlayed(rno, turn, code, number)]
        if number:
            positions = options[number - 1]
            side = turn & 1
            if len(positions) == len(floor):
                taken = tuple(floor)
                basra = is_basra(played, floor, self.rules)
                floor.clear()
                self._floor_indexes = b""
            else:
                taken = tuple([floor[i] for i in positions])
                basra = False
                for i in reversed(positions):
                    del floor[i]
                self._floor_indexes = bytes([c.index for c in floor])
            pile = self._piles[side]
            pile += taken
            pile.append(played)
            self._last_capture = side
            codes = tuple([c.code for c in taken])
            out.append(ev.CardsTaken(rno, turn, side, codes, False))
            if basra:
                self._basras[side] += 1
                out.append(ev.Basra(rno, turn, side, code))
            self._plays_seen.append((rno, turn, played, taken, basra, number))
        else:
            floor.append(played)
            self._floor_indexes += _INDEX_BYTES[played.index]
            # A capturing card laid is recorded as plan 0; one that takes nothing as plan 1.
            self._plays_seen.append((rno, turn, played, (), False, 0 if options else 1))
        self.to_move = (turn + 1) % self.players
        if not hand and not any(self._hands):
            if self._stock:
                out.append(self._deal())
            else:
                out.extend(self._end_round())
        return out

    def _turn_checked(self, seat: object, card: object) -> tuple[int, Card]:
        """The seat and card of a play that is not plainly its seat's turn with
        a Card, or IllegalPlay."""
        if self.to_move is None:
            raise MatchIsOver(f"illegal play {_named(card)}: the match is over")
        turn = self._check_seat(seat)
        played = _card(card)
        if turn != self.to_move:
            raise NotTheirTurn(
                f"illegal play '{played}': not seat {turn}'s turn (seat {self.to_move} to move)", self.to_move
            )
        return turn, played

    def _end_round(self) -> list[ev.Event]:
        out: list[ev.Event] = []
        rno = self.round_no
        if self._floor:
            # Leftovers go to the last side to capture; when nobody captured
            # all round (possible only with optional capture), to the dealer's.
            side = self._last_capture if self._last_capture is not None else self.dealer % 2
            out.append(ev.CardsTaken(rno, -1, side, tuple([c.code for c in self._floor]), True))
            self._piles[side].extend(self._floor)
            self._floor = []
            self._floor_indexes = b""
        summary = score_round(rno, self.dealer, self._piles, self._basras, self.carry, self.rules)
        self.rounds.append(summary)
        self.scores = (self.scores[0] + summary.points[0], self.scores[1] + summary.points[1])
        self.carry = summary.carry_out
        out.append(
            ev.RoundScored(
                rno,
                summary.cards,
                summary.basras,
                summary.points,
                (summary.breakdown[0].to_dict(), summary.breakdown[1].to_dict()),
                summary.carry_in,
                summary.carry_out,
                self.scores,
            )
        )
        a, b = self.scores
        target = self.rules.target
        if (a >= target or b >= target) and a != b:
            self.winner = 0 if a > b else 1
            self.to_move = None
            out.append(ev.MatchWon(self.winner, self.scores))
        else:
            out.extend(self._start_round())
        return out

    # -- records ------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """The match as a ``basra-record/1`` document (the game's PGN)."""
        record: dict[str, Any] = {
            "format": "basra-record/1",
            "players": self.players,
            "dealer": self.first_dealer,
        }
        rules = self.rules.to_dict()
        if rules:
            record["rules"] = rules
        record["decks"] = [[c.code for c in deck] for deck in self.decks_used]
        record["plays"] = list(self.plays)
        return record

    @classmethod
    def from_record(cls, record: object) -> Match:
        """The match a ``basra-record/1`` document describes; RecordError if none."""
        return replay_record(record, cls.new)

    @classmethod
    def from_events(cls, events: object) -> Match:
        """The match its events fold back into (Events or their dicts); RecordError if none."""
        return fold_events(events, cls.new)


def _card(card: object) -> Card:
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        try:
            return Card.parse(card)
        except ValueError:
            pass
    raise IllegalPlay(f"illegal play {shown(card)}: not a card")


def _named(card: object) -> str:
    """A card as a refusal names it: its code, or what was given instead."""
    return card.code if isinstance(card, Card) else shown(card)


def _checked_deck(deck: object, index: int) -> list[Card]:
    if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence):
        raise BadArgument(f"deck {index + 1}: must be a list of 52 cards, not {shown(deck)}")
    if len(deck) != 52:
        raise BadArgument(f"deck {index + 1}: must hold each of the 52 cards once (it holds {len(deck)})")
    try:
        cards = parse_cards(list(deck))
    except BasraError as exc:
        raise BadArgument(f"deck {index + 1}: {exc}") from None
    if len(set(cards)) != 52:
        raise BadArgument(f"deck {index + 1}: must hold each of the 52 cards once")
    return cards
