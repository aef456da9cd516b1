"""The engine's compiled modules, and the guard that keeps them honest.

``setup.py`` compiles the modules named in ``COMPILED_MODULES`` (the
engine's hot path and the computer players' searches) to C with mypyc: the
same sources, type-checked and built as extension modules beside them
(``core/match.cpython-311-x86_64-linux-gnu.so``). It also writes
``core/compiled-sources.json``, the SHA-256 of each source it compiled.

Python imports an extension module in preference to its source, even after
the source has changed: an editable install that was not built again would
run the old engine. So before anything in ``core`` is imported,
``run_from_sources_if_needed`` compares the sources with the recorded
digests; when one differs (or ``BASRA_PURE_PYTHON`` is set to anything but
``0``), all of these modules are imported from their sources, never a mix,
and a warning says how to build them again. The engine behaves the same
either way; compiled, random play runs about twice as fast and the expert
decides in less than half the time.

When setup.py could not compile them (no C compiler, say), it installs the
engine uncompiled and records why in ``core/compiled-sources.json`` instead
of digests; pip shows its warning only with ``-v``, so the engine says it in
one line on stderr (through the ``core`` logger) each time a program starts,
until the engine is compiled or ``BASRA_PURE_PYTHON`` says the sources are
wanted. An install asked for with ``BASRA_PURE_PYTHON=1`` records nothing and
says nothing.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import logging
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

# Modules of ``core``, by their names below it.
COMPILED_MODULES = (
    "cards",
    "events",
    "match",
    "plans",
    "scoring",
    # The computer players' searches.
    "ai.answer",
    "ai.expert",
    "ai.inference",
    "ai.judge",
    "ai.knowledge",
    "ai.moves",
    "ai.odds",
    "ai.playout",
    "ai.strong",
    "ai.values",
)
DIGESTS_FILE = "compiled-sources.json"
# DIGESTS_FILE's one key, instead of the digests, when setup.py could not compile the modules.
NOT_COMPILED = "not compiled"

_HERE = Path(__file__).resolve().parent


def source_path(name: str, directory: Path = _HERE) -> Path:
    """The source of a compiled module: ``ai.odds`` is ``core/ai/odds.py``."""
    return directory.joinpath(*name.split(".")).with_suffix(".py")


def source_digests(directory: Path = _HERE) -> dict[str, str]:
    """SHA-256 of each compiled module's source, as setup.py records them."""
    return {
        name: hashlib.sha256(source_path(name, directory).read_bytes()).hexdigest()
        for name in COMPILED_MODULES
    }


def pure_python_asked() -> bool:
    """Whether ``BASRA_PURE_PYTHON`` asks for the sources (set, and not ``0``)."""
    return os.environ.get("BASRA_PURE_PYTHON", "") not in ("", "0")


def compiled_files(directory: Path = _HERE) -> list[Path]:
    """The extension modules a build left beside these sources."""
    found = []
    for name in COMPILED_MODULES:
        source = source_path(name, directory)
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            extension = source.with_name(source.stem + suffix)
            if extension.exists():
                found.append(extension)
    return found


def stale_reason(directory: Path = _HERE) -> str | None:
    """Why the compiled modules beside these sources must not be used, or None
    when they may be (or when there are none)."""
    if not compiled_files(directory):
        return None
    if pure_python_asked():
        return "BASRA_PURE_PYTHON is set"
    try:
        recorded = json.loads((directory / DIGESTS_FILE).read_text())
    except (OSError, ValueError):
        recorded = None
    if not isinstance(recorded, dict):
        return f"{DIGESTS_FILE} is missing"
    changed = [name for name, digest in source_digests(directory).items() if recorded.get(name) != digest]
    if changed:
        files = ", ".join(str(source_path(name, Path("core"))) for name in changed)
        return f"{files} changed since the engine was compiled"
    return None


def not_compiled_reason(directory: Path = _HERE) -> str | None:
    """Why installing left these modules uncompiled, as setup.py recorded it;
    None when it compiled them, or skipped them because it was asked to."""
    if compiled_files(directory):
        return None
    try:
        recorded = json.loads((directory / DIGESTS_FILE).read_text())
    except (OSError, ValueError):
        return None
    reason = recorded.get(NOT_COMPILED) if isinstance(recorded, dict) else None
    return reason if isinstance(reason, str) else None


class _SourceFinder:
    """Finds ``core.<name>`` for the compiled names in its source file."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        top, _, name = fullname.partition(".")
        if top != __package__ or name not in COMPILED_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(name, self.directory))


def helper_process() -> bool:
    """Whether this process was started by ``multiprocessing`` to help a program (a worker
    of the computers' thinking processes, or the server those are forked from, which runs
    ``python -c`` with ``multiprocessing.forkserver`` loaded): the program itself has
    already said how its engine runs."""
    process = sys.modules.get("multiprocessing.process")
    if process is not None and process.parent_process() is not None:
        return True
    return "multiprocessing.forkserver" in sys.modules and sys.argv[:1] == ["-c"]


def run_from_sources_if_needed() -> None:
    """Import the compiled modules from their sources when the compiled
    copies must not be used. Call before anything imports them. What it finds
    is said once by the program, not again by its helper processes."""
    reason = stale_reason()
    quiet = helper_process()
    if reason is None:
        uncompiled = not_compiled_reason()
        if uncompiled is not None and not pure_python_asked() and not quiet:
            # Not a warning with its source line: the install is sound, only slower.
            logging.getLogger(__package__).warning(
                "basra: the engine is not compiled (%s), so it runs about half as fast; once that "
                "is fixed, install basra again to compile it (pip install -v -e . shows the build), "
                "or set BASRA_PURE_PYTHON=1 to leave out this line",
                uncompiled,
            )
        return
    if any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _SourceFinder(_HERE))
    if "BASRA_PURE_PYTHON" not in reason and not quiet:
        warnings.warn(
            f"core: {reason}; the engine runs from its sources. "
            "Run `pip install -e .` again to compile them.",
            RuntimeWarning,
            stacklevel=2,
        )


def is_compiled() -> bool:
    """Whether the engine in use is the compiled one."""
    from . import match

    return not (match.__file__ or "").endswith(".py")
