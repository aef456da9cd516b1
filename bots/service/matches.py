"""Matches: the table, a seat's hand, previews and hints, plays and resignations."""

from __future__ import annotations

import logging

import core
from core import Card
from core import events as ev
from core.ai import player
from core.ai.explain import sweepers_of
from core.ai.reasons import CARD_FIELDS
from storage import (
    DamagedTable,
)

from . import viewing
from .errors import (
    BadInput,
    CardNotInHand,
    MatchOver,
    MustCapture,
    NoHint,
    NoOpenTable,
    NoSuchPlan,
    NotYourTurn,
    RematchStarting,
    StaleView,
)
from .live import LiveTable, header, seat_of
from .tables import Acknowledge, Decision
from .usecase import UseCase
from .views import (
    HandView,
    HintView,
    MatchResultView,
    RoundResultView,
    TableView,
)

log = logging.getLogger(__name__)

#: Who gives hints: one-move judgement, quick and deterministic, better than the beginner.
HINT_LEVEL = "strong"
#: Hint reasons that warn of a card left alone on the floor (its field ``left``).
LONE_REASONS = frozenset({"take_lone", "take_lone_plain"})


class Matches(UseCase):
    """The match half of the table service."""

    async def table(self, table_id: str) -> TableView:
        """The public table of a running or finished match."""
        return await self._t.public_table(table_id)

    async def last_results(self, table_id: str) -> list[RoundResultView | MatchResultView]:
        """The last finished round's result, and the match's once it is over (what the
        ``RoundEnded`` and ``MatchEnded`` notices said, for a page whose process did not
        score them); empty before the first round ends."""
        live = await self._t.find(table_id)
        if live is not None and live.match is not None:
            async with live.writing:
                return [*viewing.round_views(live.record, live.match, self._t.table_view(live).seats)[-1:]]
        record, match = await self._t.closed_table(table_id)
        if match is None:
            return []
        seats = self._t.table_view(LiveTable(record, match)).seats
        last_round = viewing.round_views(record, match, seats)[-1:]
        return [*last_round, viewing.match_result_view(record, match, seats)]

    async def hand(self, table_id: str, player_id: str) -> HandView:
        """``player_id``'s hand at this match. NotSeated for anyone else."""
        live, seat = await self._t.seated(table_id, player_id)
        async with live.writing:
            return self._t.hand_view(live, seat)

    async def hands_of(self, player_id: str) -> list[HandView]:
        """Every running match's hand of ``player_id`` (several chats at once), oldest first."""
        hands = []
        owners = sorted(self._t.owners.values())
        for record in await self._store.open_rows(owners=owners, player=player_id):
            if isinstance(record, DamagedTable) or record.status != "running":
                continue
            live = await self._t.find(record.table_id)
            if live is None or live.match is None or live.record.status != "running":
                continue
            seat = seat_of(live.record, player_id)
            if seat is not None:
                async with live.writing:
                    hands.append((live.record.created_at, self._t.hand_view(live, seat)))
        return [hand for _, hand in sorted(hands, key=lambda pair: pair[0])]

    async def preview(self, table_id: str, player_id: str, card: str, plan: int | None = None) -> HandView:
        """The hand with ``card`` selected: its numbered plans, what each takes,
        basra, or that it takes nothing. Changes nothing; works off turn too.
        ``plan`` selects which plan a confirm would play (0: lay it, when allowed).
        Reads committed state without waiting for deliveries: an adapter may call it
        from ``deliver``."""
        chosen = _parse_card(card)
        live, seat = await self._t.seated(table_id, player_id)
        async with live.writing:
            match = live.match
            assert match is not None
            if chosen not in match.hand(seat):
                raise CardNotInHand(card=chosen.code, fresh=self._t.hand_view(live, seat))
            return self._t.hand_view(live, seat, chosen=viewing.preview(match, live.rules, chosen, plan))

    async def hint(self, table_id: str, player_id: str) -> HintView:
        """What the computer would play in ``player_id``'s place now, and why.

        Practice matches only (NoHint otherwise), on the player's turn
        (NotYourTurn). The computer sees exactly what the seat sees
        (``Match.view``: its hand and the whole public history, nothing else).
        Changes nothing; like ``preview`` it reads committed state without
        waiting for deliveries.
        """
        live, seat = await self._t.seated(table_id, player_id)
        async with live.writing:
            match, record = live.match, live.record
            assert match is not None
            if not viewing.is_practice(record):
                raise NoHint(fresh=self._t.hand_view(live, seat))
            if record.status != "running" or match.to_move is None:
                raise MatchOver(fresh=self._t.hand_view(live, seat))
            if match.to_move != seat:
                mover = record.seats[match.to_move].name
                raise NotYourTurn(name=mover or "?", fresh=self._t.hand_view(live, seat))
            computer = player(HINT_LEVEL, seed=f"{table_id}:{record.version}")
            view = match.view(seat)
            suggestion = computer.suggest(view)
            chosen = viewing.preview(match, live.rules, suggestion.card, suggestion.plan)
            hand = self._t.hand_view(live, seat, chosen=chosen)
        reason = suggestion.reason
        args: dict[str, int | tuple[str, ...]] = {}
        for name, value in reason.args.items():
            if name in CARD_FIELDS:
                cards = (value,) if isinstance(value, Card) else tuple(value)  # type: ignore[arg-type]
                args[name] = tuple(c.code for c in cards)
            elif isinstance(value, int):
                args[name] = value
        left = reason.args.get("left")
        lone = reason.key in LONE_REASONS and isinstance(left, Card)
        if lone and isinstance(left, Card) and not sweepers_of((left,), view.unknown(), view):
            # A card left alone is a warning only if some card still out could take it for a
            # basra; when every such card is seen, the hint names what it takes and no more.
            del args["left"]
        return HintView(hand, suggestion.card.code, suggestion.plan, reason.key, args)

    async def play(
        self,
        table_id: str,
        player_id: str,
        version: int,
        card: str,
        plan: int | None = None,
        *,
        committed: Acknowledge | None = None,
    ) -> HandView:
        """Play ``card`` (with plan number ``plan``; None = plan 1, or lay when it takes
        nothing) from the view at ``version``. Committed, then delivered; returns the
        player's fresh hand (the same as its HandUpdated notice). StaleView (with a fresh
        hand) if the match moved on, NotYourTurn, CardNotInHand, NoSuchPlan,
        MustCapture, MatchOver, NotSeated. ``committed`` (the adapter's
        acknowledgement of the press) runs once the play is committed, beside its
        delivery; not at all if the play is refused."""
        chosen = _parse_card(card)
        if plan is not None and (not isinstance(plan, int) or isinstance(plan, bool) or plan < 0):
            raise BadInput(f"bad plan {plan!r}")
        live, seat = await self._t.seated(table_id, player_id, decided_under_hold=True)

        async def decide() -> Decision[HandView]:
            match, record = live.match, live.record
            if record.status != "running" or match is None or self._t.live.get(table_id) is not live:
                raise MatchOver(fresh=self._t.hand_view(live, seat) if match is not None else None)
            if version != record.version:
                raise StaleView(fresh=self._t.hand_view(live, seat))
            async with live.writing:
                try:  # the engine judges the play; its refusal changes nothing
                    played = match.play(seat, chosen, plan)
                except core.NotTheirTurn as refused:
                    mover = record.seats[refused.to_move].name
                    raise NotYourTurn(name=mover or "?", fresh=self._t.hand_view(live, seat)) from None
                except core.NotInHand as refused:
                    raise CardNotInHand(card=refused.card, fresh=self._t.hand_view(live, seat)) from None
                except core.MustTake as refused:
                    raise MustCapture(card=refused.card, fresh=self._t.hand_view(live, seat)) from None
                except core.NoSuchPlan as refused:
                    raise NoSuchPlan(
                        card=refused.card, plan=refused.plan, fresh=self._t.hand_view(live, seat)
                    ) from None
                except core.MatchIsOver:
                    raise MatchOver(fresh=self._t.hand_view(live, seat)) from None
                await self._t.commit_match(live, [ev.to_dict(e) for e in played])
            self._t.plays["person"] += 1
            notices = self._t.match_notices(live, played)
            return self._t.hand_view(live, seat), notices

        return await self._t.run(live, decide, committed)

    async def resign(self, table_id: str, player_id: str) -> TableView:
        """Resign the match: the resigning side loses (both partners in 2-v-2)."""
        live, seat = await self._t.seated(table_id, player_id)

        async def decide() -> Decision[TableView]:
            if live.record.status != "running" or self._t.live.get(table_id) is not live:
                raise MatchOver()
            notices = await self._t.end(live, "resigned", seat)
            return self._t.table_view(live), notices

        return await self._t.run(live, decide)

    async def resign_in_chat(self, chat_id: str, player_id: str) -> TableView:
        """``/resign`` typed in a chat: resign its running match. NoOpenTable if none;
        RematchStarting while its rematch gathers or is dealt (a lobby for a moment, even a
        practice one): said so, rather than that the match has not started as its cards
        arrive. A match that has begun is resigned, however new (the answer shows it)."""
        live = await self._t.find_chat(chat_id)
        if live is None:
            raise NoOpenTable()
        if live.record.status == "lobby" and header(live.record, "rematch_of", None) is not None:
            raise RematchStarting(fresh=self._t.lobby_view(live))
        return await self.resign(live.table_id, player_id)


def _parse_card(text: str) -> Card:
    try:
        return Card.parse(text)
    except ValueError:
        raise BadInput(f"not a card: {text!r}") from None
