"""Who sits where: joining, leaving, teams and computers in a lobby, and the seating at the start.

Pure functions over ``storage.Seat`` tuples; each raises the refusal the
person sees. In a 2-v-2 lobby ``team`` is the side a person chose (0 = A,
1 = B); at the start team A takes seats 0 and 2, team B seats 1 and 3, so
partners face each other.
"""

from __future__ import annotations

from storage import Seat

from .errors import AlreadySeated, LobbyFull, NotReady, NotSeated, TeamFull

TEAM_SIZE = 2


def team_counts(seats: tuple[Seat, ...]) -> tuple[int, int]:
    return (sum(1 for s in seats if s.team == 0), sum(1 for s in seats if s.team == 1))


def place(seats: tuple[Seat, ...], capacity: int, team: int | None) -> int:
    """The team a newcomer sits on: the one asked for, else the smaller (A on a tie)."""
    if len(seats) >= capacity:
        raise LobbyFull()
    if capacity == 2:
        taken = {s.team for s in seats}
        return 0 if 0 not in taken else 1
    counts = team_counts(seats)
    if team is None:
        return 0 if counts[0] <= counts[1] else 1
    if counts[team] >= TEAM_SIZE:
        raise TeamFull()
    return team


def join(
    seats: tuple[Seat, ...], capacity: int, player_id: str, name: str, team: int | None
) -> tuple[Seat, ...]:
    if any(s.player_id == player_id for s in seats):
        raise AlreadySeated()
    return (*seats, Seat(player_id=player_id, name=name, team=place(seats, capacity, team)))


def numbered(seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """With two computers or more at a table each gets its number, in seat order, as its
    name ("1", "2", "3"), so that tables, logs and results tell them apart; a lone
    computer has none."""
    computers = [i for i, s in enumerate(seats) if s.computer is not None]
    names = {i: str(n) for n, i in enumerate(computers, 1)} if len(computers) > 1 else {}
    return tuple(
        s.model_copy(update={"name": names.get(i)}) if s.computer is not None else s
        for i, s in enumerate(seats)
    )


def add_computer(seats: tuple[Seat, ...], capacity: int, level: str, team: int | None) -> tuple[Seat, ...]:
    return numbered((*seats, Seat(computer=level, team=place(seats, capacity, team))))


def leave(seats: tuple[Seat, ...], player_id: str) -> tuple[Seat, ...]:
    if not any(s.player_id == player_id for s in seats):
        raise NotSeated()
    return tuple(s for s in seats if s.player_id != player_id)


def remove_computer(seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
    for index in range(len(seats) - 1, -1, -1):
        if seats[index].computer is not None:
            return numbered(seats[:index] + seats[index + 1 :])
    raise NotReady("no computer to remove")


def choose_team(seats: tuple[Seat, ...], capacity: int, player_id: str, team: int) -> tuple[Seat, ...]:
    """Move a seated person to ``team`` (2-v-2 only)."""
    index = next((i for i, s in enumerate(seats) if s.player_id == player_id), None)
    if index is None:
        raise NotSeated()
    if capacity == 2 or seats[index].team == team:
        return seats
    if team_counts(seats)[team] >= TEAM_SIZE:
        raise TeamFull()
    moved = seats[index].model_copy(update={"team": team})
    return (*seats[:index], moved, *seats[index + 1 :])


def seating(seats: tuple[Seat, ...], capacity: int, fill_level: str | None) -> tuple[Seat, ...]:
    """Seats in engine order, computers of ``fill_level`` in any empty place (practice).

    NotReady if a place is empty and nothing fills it, or the teams are uneven.
    """
    if capacity == 2:
        ordered = list(seats)
        while fill_level is not None and len(ordered) < 2:
            ordered.append(Seat(computer=fill_level, team=len(ordered)))
        if len(ordered) != 2:
            raise NotReady()
        return numbered(tuple(s.model_copy(update={"team": i}) for i, s in enumerate(ordered)))
    teams: list[list[Seat]] = [[s for s in seats if s.team == t] for t in (0, 1)]
    for team, members in enumerate(teams):
        while fill_level is not None and len(members) < TEAM_SIZE:
            members.append(Seat(computer=fill_level, team=team))
        if len(members) != TEAM_SIZE:
            raise NotReady()
    return numbered((teams[0][0], teams[1][0], teams[0][1], teams[1][1]))
