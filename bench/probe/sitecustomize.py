"""Loaded by a bot process that ``bench/soak.py --probe`` starts (this folder first on its
``PYTHONPATH``); inert unless ``BASRA_SOAK_PROBE`` names a folder.

On SIGUSR1 the process appends one JSON line to ``<folder>/stats.jsonl``: Python's objects
by type (``gc.get_objects()``: what was made after start-up's ``gc.freeze()``), what
tracemalloc traces now (when it runs, e.g. under ``PYTHONTRACEMALLOC=25``), glibc's
``mallinfo2`` (the heap's bytes in use and free), SQLite's own ``sqlite3_memory_used``,
and the resident KB (with ``BASRA_SOAK_PROBE_TRIM`` set, again after ``malloc_trim(0)``
gave the heap's free pages back). On SIGUSR2 it also dumps a tracemalloc snapshot to
``<folder>/snapshot-<n>.pickle``, for ``bench/soak.py`` to compare. The handlers run on
the main thread between two bytecodes, as the event loop's own code does.
"""

from __future__ import annotations

import os

_FOLDER = os.environ.get("BASRA_SOAK_PROBE")


def _install(folder: str) -> None:
    import collections
    import ctypes
    import gc
    import json
    import signal
    import time
    import tracemalloc
    from pathlib import Path
    from types import FrameType

    where = Path(folder)
    libc = ctypes.CDLL("libc.so.6")

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
            "uordblks", "fordblks", "keepcost")]

    libc.mallinfo2.restype = MallInfo2

    def sqlite_used() -> int:
        try:
            lib = ctypes.CDLL("libsqlite3.so.0")
        except OSError:
            return -1
        lib.sqlite3_memory_used.restype = ctypes.c_int64
        return int(lib.sqlite3_memory_used())

    def rss_kb() -> int:
        for text in Path("/proc/self/status").read_text().splitlines():
            if text.startswith("VmRSS:"):
                return int(text.split()[1])
        return -1

    def caches() -> dict[str, int]:
        """Entries in the engine's module-level caches (the bot's own are in ``types``)."""
        import sys

        plans = sys.modules.get("core.plans")
        if plans is None:
            return {}
        found = {"plans.by_layout": sum(len(d) for d in plans._BY_LAYOUT),
                 "plans.relevant": sum(len(d) for d in plans._RELEVANT)}
        takings = getattr(plans, "_takings", None)
        if takings is not None and hasattr(takings, "cache_info"):
            found["plans.takings"] = takings.cache_info().currsize
        return found

    def maps_kb() -> dict[str, int]:
        """Resident KB by kind of mapping: the brk heap, other anonymous memory (pymalloc's
        arenas, the threads' malloc arenas and stacks, big blocks), the database's files, the rest."""
        kinds: dict[str, int] = collections.Counter()
        kind = "anon"
        with open("/proc/self/smaps") as lines:  # line by line: no block as big as the file
            for text in lines:
                first = text.split(maxsplit=6)
                if first and "-" in first[0] and len(first) >= 5 and ":" in first[3]:
                    name = first[5].strip() if len(first) > 5 else ""
                    kind = ("heap" if name == "[heap]" else "stack" if name.startswith("[stack")
                            else "anon" if not name or name.startswith("[anon") else
                            "database" if name.endswith((".sqlite3", "-shm", "-wal")) else "files")
                elif text.startswith("Rss:"):
                    kinds[kind] += int(text.split()[1])
        return dict(kinds)

    def pymalloc() -> dict[str, int]:
        """From ``sys._debugmallocstats()`` (written to the C stderr, caught in a file)."""
        import sys
        import tempfile

        with tempfile.TemporaryFile("w+") as caught:
            sys.stderr.flush()
            saved = os.dup(2)
            os.dup2(caught.fileno(), 2)
            try:
                sys._debugmallocstats()
            finally:
                os.dup2(saved, 2)
                os.close(saved)
            caught.seek(0)
            text = caught.read()
        found = {}
        for line in text.splitlines():
            name, _, value = line.rpartition("=")
            name = " ".join(name.split()).lstrip("# ")
            if name in ("arenas allocated current", "bytes in allocated blocks",
                        "bytes in available blocks", "unused pools * 16384 bytes",
                        "bytes lost to pool headers", "bytes lost to quantization",
                        "bytes lost to arena alignment", "Total") and name not in found:
                found[name] = int(value.replace(",", "").strip())
        return found

    snapshots = 0

    def stats(snapshot: bool) -> None:
        nonlocal snapshots
        gc.collect()
        counts = collections.Counter(type(o).__qualname__ if type(o).__module__ == "builtins"
                                     else f"{type(o).__module__}.{type(o).__qualname__}"
                                     for o in gc.get_objects())
        info = libc.mallinfo2()
        line = {
            "at": time.time(),
            "objects": len(gc.get_objects()),
            "types": dict(counts.most_common(80)),
            "heap_arena": info.arena, "heap_mmap": info.hblkhd,
            "heap_used": info.uordblks, "heap_free": info.fordblks,
            "sqlite_used": sqlite_used(),
            "traced": tracemalloc.get_traced_memory()[0] if tracemalloc.is_tracing() else None,
            "rss": rss_kb(),
            "caches": caches(),
            "maps": maps_kb(),
            "pymalloc": pymalloc(),
        }
        if os.environ.get("BASRA_SOAK_PROBE_TRIM"):
            libc.malloc_trim(0)
            line["rss_trimmed"] = rss_kb()
        if snapshot:
            line["mark"] = True
        if snapshot and tracemalloc.is_tracing():
            snapshots += 1
            tracemalloc.take_snapshot().dump(str(where / f"snapshot-{snapshots}.pickle"))
            line["snapshot"] = snapshots
        with (where / "stats.jsonl").open("a") as out:
            out.write(json.dumps(line) + "\n")

    def on_usr1(signum: int, frame: FrameType | None) -> None:
        stats(snapshot=False)

    def on_usr2(signum: int, frame: FrameType | None) -> None:
        stats(snapshot=True)

    signal.signal(signal.SIGUSR1, on_usr1)
    signal.signal(signal.SIGUSR2, on_usr2)


if _FOLDER:
    _install(_FOLDER)
