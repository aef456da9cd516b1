"""The service's knobs, with the defaults of RULES.md and issue 3."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    """How the table service keeps time and speaks.

    turn_seconds: a turn's clock when the chat chose none (RULES.md §7: 2 minutes).
    warning_seconds: the warning comes when this much of a turn is left.
    computer_delay: pause before a computer seat plays, so people can follow.
    lobby_idle_seconds: an untouched lobby closes after this long.
    practice_idle_seconds: a practice match nobody plays expires after this long.
    heartbeat_seconds: how often the service notes it is alive, so that after
        a restart (or a crash) each clock resumes with the time it had left, to
        within this much (never more than it had).
    language: the language when neither person, chat nor platform names one.
    redeliver_seconds: at start-up, the tables changed this long before the service
        was last alive are drawn afresh (their last messages may not have gone out);
        the others are loaded when first touched.
    poll_seconds: on a store shared by several processes, how often each looks for
        timed work that is overdue (its process died, or is stuck).
    takeover_seconds: how long overdue timed work waits for the process that armed
        it before another process claims it.
    claim_seconds: how long a claim on a table's timed work keeps other processes off.
    computer_processes: how many worker processes computer seats think in; 0 thinks in
        one thread of this process instead, None one fewer than its cores (at least one;
        see ``thinking``).
    keep_finished_days: finished (and cancelled, expired) tables are deleted this many days
        after they closed, with their results (``erasure.Erasure.prune``); 0 keeps them.
    pool_wait_seconds: someone the pairing pool finds nobody for this long is offered the
        computer (``pool``), and may keep waiting.
    pool_wave_seconds: how often the pool pairs the people waiting.
    pool_turn_seconds: the turn clock of a match the pool seated (strangers wait for
        nobody long).
    pool_apart_seconds: two people the pool paired are not paired again for this long,
        unless both press Rematch.
    """

    turn_seconds: int = 120
    warning_seconds: int = 30
    computer_delay: float = 0.8
    lobby_idle_seconds: float = 15 * 60
    practice_idle_seconds: float = 24 * 60 * 60
    heartbeat_seconds: float = 1.0
    language: str = "ar"
    redeliver_seconds: float = 10 * 60
    poll_seconds: float = 1.0
    takeover_seconds: float = 1.5
    claim_seconds: float = 10.0
    computer_processes: int | None = None
    keep_finished_days: int = 0
    pool_wait_seconds: float = 45.0
    pool_wave_seconds: float = 2.0
    pool_turn_seconds: int = 60
    pool_apart_seconds: float = 10 * 60
