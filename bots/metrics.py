"""Health and metrics of a running bot, over HTTP: ``/healthz`` and ``/metrics`` (Prometheus).

Served by both bots when ``BASRA_METRICS_PORT`` is set (on ``BASRA_METRICS_HOST``,
``127.0.0.1`` unless told otherwise), in the bot's own event loop; ``basra play``
serves nothing.

Counting stays off the hot paths. The service and the dispatcher keep the
plain counters they keep anyway (``TableService.plays``, ``Dispatcher.counts``),
the adapters add errors by kind and the time a press took to be answered, and
a scrape reads the rest (open tables, waiting writes) when it comes.

``/healthz`` answers 200 ``ok`` while the table service runs and its store
answers a read within ``HEALTH_TIMEOUT`` seconds; 200 ``standby`` while the process waits
to lead its bot (another process of it on the database leads); 503 ``not running`` while the
bot starts (tables are being restored) and once it stops, 503 ``store
unreachable`` when the database cannot be read. A store refusing writes (a
full disk) still answers reads: that shows as ``basra_errors_total{kind="storage"}``.

``/metrics``:

- ``basra_tables{status="lobby"|"running"}``: open tables now;
- ``basra_plays_total{by="person"|"computer"|"clock"}``: cards played;
- ``basra_computer_processes``: worker processes the computer seats think in,
  alive now (``BASRA_COMPUTER_PROCESSES``; 0 before the first match with a computer
  starts, or when they think in a thread);
- ``basra_press_answer_seconds``: a histogram of the time from a button press
  reaching the bot to its answer;
- ``basra_deliveries_pending``: writes to chats waiting for their turn;
  ``basra_deliveries_total{outcome}``: how writes ended (``sent``,
  ``skipped``, ``failed``, ``gave_up``, ``replaced``, ``stale``,
  ``cancelled``); ``basra_delivery_retries_total``; ``basra_rate_limited_total``
  (429s);
- ``basra_errors_total{kind}``: ``storage``, ``unhandled``, ``network``,
  ``answer``, ``delivery`` (``ERROR_KINDS``);
- ``process_*``: the process's CPU, memory and open files.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from aiohttp import web
from prometheus_client import CollectorRegistry, Histogram, ProcessCollector
from prometheus_client.aiohttp import make_aiohttp_handler
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from storage import StorageError

from .listening import serve

if TYPE_CHECKING:
    from .outbound import Dispatcher
    from .service import TableService

log = logging.getLogger(__name__)

#: Seconds the store has to answer a health check's read.
HEALTH_TIMEOUT: Final = 2.0
#: Press-to-answer buckets, in seconds: Telegram shows a spinner until the answer.
ANSWER_BUCKETS: Final = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: What each error kind counts (``Metrics.error``; ``delivery`` is read from the dispatcher).
ERROR_KINDS: Final = {
    "storage": "a press or command the store did not save",
    "unhandled": "an error that reached the one error handler",
    "network": "the chat platform did not answer a handler's call",
    "answer": "a press or command whose answer the platform refused or lost",
    "delivery": "a write to a chat given up (refused, or failing after every retry)",
}
#: The dispatcher's outcomes, as metric labels.
OUTCOMES: Final = {
    "sent": "sent",
    "skipped": "skipped",
    "failed": "failed",
    "gave up": "gave_up",
    "replaced": "replaced",
    "stale": "stale",
    "cancelled": "cancelled",
}
PLAYERS: Final = ("person", "computer", "clock")


class MetricsUnavailable(Exception):
    """The metrics server could not listen (the port is taken, the address is not this host's)."""


class Metrics:
    """What one bot counts, and what a scrape reads from its service and dispatcher.

    The adapter calls ``error(kind)`` and ``answered(seconds)``; ``service`` is set
    once the table service exists.
    """

    def __init__(self, dispatcher: Dispatcher | None = None) -> None:
        self.registry = CollectorRegistry()
        self.dispatcher = dispatcher
        self.service: TableService | None = None
        #: Waiting to lead the bot while another process of it leads (``Store.leadership``).
        self.standby = False
        self.errors: Counter[str] = Counter()
        self.answer_seconds = Histogram(
            "basra_press_answer_seconds",
            "Seconds from a button press reaching the bot to its answer",
            buckets=ANSWER_BUCKETS,
            registry=self.registry,
        )
        self.registry.register(_Readings(self))
        ProcessCollector(registry=self.registry)

    def error(self, kind: str) -> None:
        self.errors[kind] += 1

    def answered(self, seconds: float) -> None:
        self.answer_seconds.observe(seconds)

    async def health(self) -> tuple[bool, str]:
        """Whether the bot is serving, and one word on why not."""
        service = self.service
        if self.standby:
            return True, "standby"
        if service is None or not service.running:
            return False, "not running"
        try:
            await asyncio.wait_for(service.reach_store(), HEALTH_TIMEOUT)
        except (StorageError, TimeoutError):
            return False, "store unreachable"
        return True, "ok"


class _Readings:
    """The metrics read when a scrape comes (a ``prometheus_client`` collector)."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        service, dispatcher = self.metrics.service, self.metrics.dispatcher
        tables = GaugeMetricFamily("basra_tables", "Open tables served, by status", labels=["status"])
        counts = service.table_counts() if service is not None else {}
        for status in ("lobby", "running"):
            tables.add_metric([status], counts.get(status, 0))
        yield tables
        plays = CounterMetricFamily(
            "basra_plays", "Cards played since the start, by who played them (clock: a turn timed out)",
            labels=["by"],
        )
        for by in PLAYERS:
            plays.add_metric([by], service.plays[by] if service is not None else 0)
        yield plays
        yield GaugeMetricFamily(
            "basra_computer_processes", "Worker processes the computer seats think in, alive now",
            value=service.thinking_processes() if service is not None else 0,
        )
        done: Counter[str] = dispatcher.counts if dispatcher is not None else Counter()
        yield GaugeMetricFamily(
            "basra_deliveries_pending", "Writes to chats waiting for their turn",
            value=dispatcher.pending() if dispatcher is not None else 0,
        )
        outcomes = CounterMetricFamily(
            "basra_deliveries", "Writes to chats by how they ended", labels=["outcome"]
        )
        for key, label in OUTCOMES.items():
            outcomes.add_metric([label], done[key])
        yield outcomes
        yield CounterMetricFamily(
            "basra_delivery_retries", "Writes tried again (the platform was busy or the network failed)",
            value=done["retried"],
        )
        yield CounterMetricFamily(
            "basra_rate_limited", "429 answers: the chat platform asked the bot to wait",
            value=done["told to wait"],
        )
        errors = CounterMetricFamily(
            "basra_errors", "Errors by kind: " + "; ".join(f"{k}: {v}" for k, v in ERROR_KINDS.items()),
            labels=["kind"],
        )
        counted = self.metrics.errors
        for kind in ERROR_KINDS:
            value = done["failed"] + done["gave up"] if kind == "delivery" else counted[kind]
            errors.add_metric([kind], value)
        yield errors


class MetricsServer:
    """``/metrics`` and ``/healthz`` on ``host:port`` (0: any free port, see ``port``)."""

    def __init__(self, metrics: Metrics, host: str = "127.0.0.1", port: int = 0) -> None:
        self.metrics = metrics
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", make_aiohttp_handler(self.metrics.registry))
        app.router.add_get("/healthz", self._health)
        # No access log (a scrape every few seconds is no news); a stopping bot waits for no scrape.
        runner = await serve(app, self.host, self.port, MetricsUnavailable, "metrics")
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        log.info("health and metrics at http://%s:%d/healthz and /metrics", self.host, self.port)

    async def close(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def _health(self, request: web.Request) -> web.Response:
        healthy, word = await self.metrics.health()
        return web.Response(text=word + "\n", status=200 if healthy else 503)
