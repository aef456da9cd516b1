"""A match told play by play, in English or Arabic, from its record's events.

``python -m core replay FILE --plays`` prints it. The engine knows no
catalogs (it imports nothing of the bots), so the few sentences it says are
kept here, in both languages; the game words are RULES.md §9's. Seats are
numbered from 1 as people count them; a 2-v-2 match names its two teams.
In Arabic every run of cards and every score is a left-to-right isolate
(U+2066 … U+2069), so the right-to-left sentence around it cannot reorder it.

>>> from core import Match
>>> match = Match.new(2, decks=[[c.code for c in Card.deck()]])
>>> lines = tell(match.players, match.first_dealer, match.rules.target, match.opening_events(), "en")
>>> lines[:2]
['Basra · 2 players · to 121', 'Round 1 · dealer: Seat 1']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from . import events as ev
from .cards import Card

LANGUAGES: Final = ("en", "ar")
_LRI, _PDI = "\u2066", "\u2069"

WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "header": "Basra · {players} · to {target}",
        "players 2": "2 players",
        "players 4": "4 players",
        "teams": "Team A: seats 1 and 3 · Team B: seats 2 and 4",
        "seat": "Seat {n}",
        "team 0": "Team A",
        "team 1": "Team B",
        "round": "Round {n} · dealer: {seat}",
        "floor": "Floor: {cards}",
        "buried": "(turned up and put under the stock: {cards})",
        "empty": "empty",
        "lays": "{number}. {seat} played {card}; it stays on the floor.",
        "takes": "{number}. {seat} played {card} and took {cards}.",
        "basra": "{number}. {seat} played {card} and took {cards}: basra!",
        "leftovers": "The last cards on the floor, {cards}, go to {side}.",
        "scored": "Round {n} is over: {first} {a} points, {second} {b} (cards {cards}, basras {basras}). "
        "Score: {score}",
        "carry": "26 cards each: nobody takes the majority; {points} points carry to the next round.",
        "won": "{side} won the match, {score}.",
        "unfinished": "The record ends in round {n} at {score}: the match was not played to its end.",
    },
    "ar": {
        "header": "باصرة · {players} · حتى {target}",
        "players 2": "لاعبان",
        "players 4": "4 لاعبين",
        "teams": "الفريق أ: المقعدان 1 و3 · الفريق ب: المقعدان 2 و4",
        "seat": "المقعد {n}",
        "team 0": "الفريق أ",
        "team 1": "الفريق ب",
        "round": "الجولة {n} · الموزّع: {seat}",
        "floor": "الأرض: {cards}",
        "buried": "(ظهرت فوُضعت تحت الكومة: {cards})",
        "empty": "فارغة",
        "lays": "{number}. ورقة {seat}: {card}، وبقيت على الأرض.",
        "takes": "{number}. ورقة {seat}: {card} وأكلت {cards}.",
        "basra": "{number}. ورقة {seat}: {card} وأكلت {cards}: باصرة!",
        "leftovers": "آخر ورق الأرض، {cards}، إلى {side}.",
        "scored": "انتهت الجولة {n}: {first} {a} نقطة، {second} {b} (الورق {cards}، الباصرات {basras}). "
        "النتيجة: {score}",
        "carry": "26 ورقة لكلٍّ منهما: لا أحد يأخذ الأكثرية؛ وتُرحَّل {points} نقطة إلى الجولة التالية.",
        "won": "فاز {side} بالمباراة، {score}.",
        "unfinished": "ينتهي السجلّ في الجولة {n} والنتيجة {score}: لم تُلعب المباراة حتى نهايتها.",
    },
}


class _Teller:
    """Says one match's events in one language."""

    def __init__(self, players: int, lang: str) -> None:
        self.players = players
        self.lang = lang
        self.words = WORDS[lang]

    def say(self, key: str, **fields: object) -> str:
        return self.words[key].format(**fields)

    def ltr(self, text: str) -> str:
        """A run that must read left to right (cards, scores): isolated in Arabic."""
        return f"{_LRI}{text}{_PDI}" if self.lang == "ar" else text

    def cards(self, codes: Sequence[str]) -> str:
        if not codes:
            return self.say("empty")
        return self.ltr(" ".join(Card.parse(code).symbol for code in codes))

    def pair(self, pair: Sequence[int]) -> str:
        return self.ltr(f"{pair[0]}–{pair[1]}")

    def seat(self, seat: int) -> str:
        return self.say("seat", n=seat + 1)

    def side(self, side: int) -> str:
        return self.seat(side) if self.players == 2 else self.say(f"team {side}")


def tell(players: int, dealer: int, target: int, events: Iterable[ev.Event], lang: str = "en") -> list[str]:
    """The lines of a match's play by play: ``events`` are the opening ones and then
    each play's, as ``record.replay_events`` gives them. ``lang`` is "en" or "ar"."""
    if lang not in WORDS:
        raise ValueError(f"no words for language {lang!r}")
    teller = _Teller(players, lang)
    lines = [teller.say("header", players=teller.say(f"players {players}"), target=target)]
    if players == 4:
        lines.append(teller.say("teams"))
    number = 0
    round_no, scores = 1, (0, 0)
    pending: ev.CardPlayed | None = None
    taken: tuple[str, ...] = ()
    basra = False

    def flush() -> None:
        nonlocal pending, taken, basra
        if pending is not None:
            key = "basra" if basra else "takes" if taken else "lays"
            card = teller.cards([pending.card])
            seat = teller.seat(pending.seat)
            said = teller.say(key, number=number, seat=seat, card=card, cards=teller.cards(taken))
            lines.append("  " + said)
        pending, taken, basra = None, (), False

    for event in events:
        if isinstance(event, ev.CardPlayed):
            flush()
            pending, number = event, number + 1
        elif isinstance(event, ev.CardsTaken) and not event.last:
            taken = event.cards
        elif isinstance(event, ev.Basra):
            basra = True
        else:
            flush()
            if isinstance(event, ev.RoundStarted):
                round_no, number = event.round_no, 0
                lines.append(teller.say("round", n=event.round_no, seat=teller.seat(event.dealer)))
            elif isinstance(event, ev.Dealt) and event.deal_no == 1:
                floor = teller.say("floor", cards=teller.cards(event.floor))
                if event.buried:
                    floor += " " + teller.say("buried", cards=teller.cards(event.buried))
                lines.append("  " + floor)
            elif isinstance(event, ev.CardsTaken):
                cards, side = teller.cards(event.cards), teller.side(event.side)
                lines.append("  " + teller.say("leftovers", cards=cards, side=side))
            elif isinstance(event, ev.RoundScored):
                scores = event.scores
                lines.append(_scored(teller, event))
                if event.carry_out:
                    lines.append("  " + teller.say("carry", points=event.carry_out))
            elif isinstance(event, ev.MatchWon):
                side, score = teller.side(event.side), teller.pair(event.scores)
                lines.append(teller.say("won", side=side, score=score))
                return lines
    flush()
    lines.append(teller.say("unfinished", n=round_no, score=teller.pair(scores)))
    return lines


def _scored(teller: _Teller, event: ev.RoundScored) -> str:
    return teller.say(
        "scored",
        n=event.round_no,
        first=teller.side(0),
        a=event.points[0],
        second=teller.side(1),
        b=event.points[1],
        cards=teller.pair(event.cards),
        basras=teller.pair(event.basras),
        score=teller.pair(event.scores),
    )
