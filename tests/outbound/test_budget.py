"""``Budget``: the sliding window of a chat's (or the bot's) writes, its reserve for urgent
writes, the spacing of paced ones, refunds and pauses; explicit times, no clock."""

from __future__ import annotations

import math

import pytest

from bots.outbound import Budget, Limit

# -- Budget: explicit times, no clock ---------------------------------------------------


def test_at_most_calls_writes_fit_in_any_period() -> None:
    budget = Budget(Limit(3, 1.0))
    for at in (0.0, 0.25, 0.5):
        assert budget.free_at(at, urgent=False) == at
        budget.spend(at, urgent=False)
    # The fourth fits exactly when the first leaves the window, not before.
    assert budget.free_at(0.75, urgent=False) == 1.0
    assert budget.free_at(0.75, urgent=True) == 1.0
    assert budget.used(0.75) == 3
    assert budget.free_at(1.0, urgent=False) == 1.0
    budget.spend(1.0, urgent=False)
    # The window slides: the next one waits for the second write, not for a fresh window.
    assert budget.free_at(1.0, urgent=False) == 1.25
    assert budget.used(1.0) == 3


def test_the_reserve_is_only_for_urgent_writes() -> None:
    budget = Budget(Limit(3, 1.0, reserve=1))
    budget.spend(0.0, urgent=False)
    budget.spend(0.25, urgent=False)
    assert budget.free_at(0.5, urgent=False) == 1.0
    assert budget.free_at(0.5, urgent=True) == 0.5
    budget.spend(0.5, urgent=True)
    # The reserve is spent: urgent writes now wait for the window too. The paced writes
    # wait for their own share only: the urgent write took the reserve, not their slot.
    assert budget.free_at(0.5, urgent=True) == 1.0
    assert budget.free_at(0.5, urgent=False) == 1.0


def test_urgent_writes_beyond_the_reserve_take_from_the_paced_share() -> None:
    budget = Budget(Limit(4, 1.0, reserve=1))
    budget.spend(0.0, urgent=False)
    budget.spend(0.1, urgent=True)  # the reserve
    budget.spend(0.2, urgent=True)  # one more: it counts against the paced share
    assert budget.free_at(0.3, urgent=False) == 0.3  # 1 paced + 1 beyond the reserve < 3
    budget.spend(0.3, urgent=False)
    assert budget.free_at(0.4, urgent=False) == 1.0  # 2 + 1 = 3: until the first leaves
    assert budget.free_at(0.4, urgent=True) == 1.0  # and the window is full for all


def test_a_reply_within_the_reserve_leaves_a_groups_refreshes_their_pace() -> None:
    """A group's 20 writes a minute: 18 refreshes 3.4 s apart, and a reply in between
    takes one of the 2 kept for it, never a refresh's."""
    budget = Budget(Limit(20, 60.0, reserve=2, spacing=60.0 / 18))
    at = 0.0
    for n in range(18):
        at = budget.free_at(at, urgent=False)
        assert at == pytest.approx(n * 60.0 / 18)
        budget.spend(at, urgent=False)
        if n == 5:
            assert budget.free_at(at, urgent=True) == at
            budget.spend(at + 0.1, urgent=True)
    assert budget.free_at(at, urgent=True) == at  # the reserve's second write is still free


def test_spacing_keeps_paced_writes_apart_but_not_urgent_ones() -> None:
    budget = Budget(Limit(10, 1.0, spacing=0.25))
    budget.spend(0.0, urgent=False)
    assert budget.free_at(0.125, urgent=False) == 0.25
    assert budget.free_at(0.125, urgent=True) == 0.125
    # An urgent write does not restart the paced writes' spacing.
    budget.spend(0.125, urgent=True)
    assert budget.free_at(0.125, urgent=False) == 0.25
    budget.spend(0.25, urgent=False)
    assert budget.free_at(0.25, urgent=False) == 0.5


def test_a_quiet_chat_has_its_burst_of_paced_writes_then_their_even_pace() -> None:
    """A group quiet for a while refreshes at once, ``burst`` times; a fast game then keeps
    the spacing, and the credit comes back one a ``spacing`` while it is quiet."""
    budget = Budget(Limit(20, 60.0, reserve=2, spacing=4.0, burst=3))
    # A new budget has one credit: a process just started may not know another's writes.
    budget.spend(0.0, urgent=False)
    assert budget.free_at(0.0, urgent=False) == pytest.approx(4.0)
    for at in (12.0, 13.0, 14.0):  # quiet for 12 s: the burst is back
        assert budget.free_at(at, urgent=False) == at
        budget.spend(at, urgent=False)
    # The credit used, the next waits for one to come back: 3 writes' worth took 2 s.
    assert budget.free_at(14.0, urgent=False) == pytest.approx(16.0)
    budget.spend(16.0, urgent=False)
    assert budget.free_at(16.0, urgent=False) == pytest.approx(20.0)
    # A person's pace, a play every 5 s, never waits: each refresh goes as its play comes.
    for at in (32.0, 37.0, 42.0, 47.0, 52.0):
        assert budget.free_at(at, urgent=False) == at
        budget.spend(at, urgent=False)
    # However fast, the window's count holds: never more than 18 paced writes a minute.
    fast = Budget(Limit(20, 60.0, reserve=2, spacing=60.0 / 18, burst=3))
    at, spent = 0.0, []
    while at < 120.0:
        at = fast.free_at(at, urgent=False)
        fast.spend(at, urgent=False)
        spent.append(at)
    assert max(sum(1 for t in spent if start <= t < start + 60.0) for start in spent) <= 18


def test_with_urgent_spaced_paced_writes_keep_their_distance_from_urgent_ones_too() -> None:
    """A private chat: an urgent write goes at once, and the paced one after it keeps the
    spacing from it, so three writes never bunch up in the window and then leave a gap."""
    budget = Budget(Limit(3, 3.0, spacing=1.0, urgent_spaced=True))
    assert budget.free_at(0.0, urgent=True) == 0.0
    budget.spend(0.0, urgent=True)
    assert budget.free_at(0.1, urgent=False) == pytest.approx(1.0)
    assert budget.free_at(0.1, urgent=True) == 0.1  # urgent ones still go while there is room
    budget.spend(1.0, urgent=False)
    assert budget.free_at(1.0, urgent=False) == pytest.approx(2.0)
    # Without it (a group), an urgent reply leaves the refreshes their own pace.
    group = Budget(Limit(3, 3.0, spacing=1.0))
    group.spend(0.0, urgent=True)
    assert group.free_at(0.1, urgent=False) == 0.1


def test_a_refund_gives_the_slot_back() -> None:
    budget = Budget(Limit(2, 1.0, spacing=0.25))
    budget.spend(0.0, urgent=False)
    previous = budget.spend(0.25, urgent=False)
    assert budget.free_at(0.25, urgent=False) == 1.0
    budget.refund(0.25, previous)
    assert budget.used(0.25) == 1
    # Both the window slot and the spacing go back to what the first write left.
    assert budget.free_at(0.25, urgent=False) == 0.25
    # A refund after the write left the window changes nothing.
    late = Budget(Limit(1, 1.0))
    late.spend(0.0, urgent=False)
    late.free_at(2.0, urgent=False)
    late.refund(0.0, -math.inf)
    assert late.used(2.0) == 0


def test_a_block_delays_every_write_until_it_ends() -> None:
    budget = Budget(Limit(10, 1.0, reserve=2))
    budget.block(2.0)
    assert budget.free_at(0.5, urgent=False) == 2.0
    assert budget.free_at(0.5, urgent=True) == 2.0
    # A shorter pause asked later does not shorten the first.
    budget.block(1.0)
    assert budget.free_at(0.5, urgent=True) == 2.0
    assert budget.free_at(2.5, urgent=True) == 2.5


@pytest.mark.parametrize("limit", [Limit(0, 1.0), Limit(3, 0.0), Limit(3, 1.0, reserve=3), Limit(3, 1.0, -1)])
def test_an_unusable_limit_is_refused(limit: Limit) -> None:
    with pytest.raises(ValueError):
        Budget(limit)


def test_refunding_one_of_two_writes_at_the_same_instant_keeps_the_others_spacing() -> None:
    budget = Budget(Limit(10, 1.0, spacing=0.25))
    first = budget.spend(0.0, urgent=True)  # e.g. the overall budget, two chats at one clock tick
    budget.spend(0.0, urgent=False)
    budget.refund(0.0, first)
    # The paced write at 0.0 still stands: the next paced one must keep 0.25 away.
    assert budget.free_at(0.0, urgent=False) == 0.25


def test_a_write_counts_from_when_it_was_answered() -> None:
    """The server counts a call when it arrives: one slow on its way must not let the next
    ones arrive closer together than the limit allows."""
    budget = Budget(Limit(3, 3.0))
    for at in (0.0, 0.1, 0.2):
        budget.spend(at, urgent=True)
    budget.answered(0.0, 0.8, urgent=True)  # the first call took 0.8 s to answer
    assert budget.free_at(3.05, urgent=True) == 3.1  # the second leaves the window first
    budget.spend(3.1, urgent=True)
    assert budget.free_at(3.15, urgent=True) == 3.2
    budget.spend(3.2, urgent=True)
    assert budget.free_at(3.25, urgent=True) == pytest.approx(3.8)  # then the slow one
