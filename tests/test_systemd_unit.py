"""deploy/basra-telegram.service hides nothing the Prometheus client's process collector reads,
so ``/metrics`` keeps its ``process_*`` figures under the unit's hardening.

``ProcSubset=pid`` mounts the service's ``/proc`` with only the processes' folders, and the
collector reads ``/proc/stat`` (the boot time) before anything else: without it every
``process_*`` metric is gone. systemd does not run here, so the unit's settings are read
from the file; where this test runs as root, ``/proc`` is also mounted as those settings
would mount it (``subset=pid``, ``hidepid=``) in a namespace of its own, and the collector
run there.
"""

from __future__ import annotations

import builtins
import os
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.process_collector import ProcessCollector

UNIT = Path(__file__).resolve().parents[1] / "deploy" / "basra-telegram.service"
METRICS = {"process_virtual_memory_bytes", "process_resident_memory_bytes", "process_start_time_seconds",
           "process_cpu_seconds", "process_open_fds", "process_max_fds"}
COLLECT = ("from prometheus_client.process_collector import ProcessCollector; "
           "print(' '.join(sorted(m.name for m in ProcessCollector(registry=None).collect())))")


def service_settings() -> dict[str, list[str]]:
    """The ``[Service]`` section's settings, each with every value it is given (in order)."""
    settings: dict[str, list[str]] = defaultdict(list)
    section = ""
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line
        elif section == "[Service]":
            key, _, value = line.partition("=")
            settings[key.strip()].append(value.strip())
    return settings


def last(settings: dict[str, list[str]], key: str, default: str) -> str:
    return settings[key][-1] if settings.get(key) else default


def read_by_the_collector() -> list[str]:
    """The paths the installed prometheus_client's process collector opens or lists."""
    paths: list[str] = []
    real_open, real_listdir = builtins.open, os.listdir

    def recording_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        paths.append(os.fspath(file))
        return real_open(file, *args, **kwargs)

    def recording_listdir(path: Any = ".") -> list[str]:
        paths.append(os.fspath(path))
        return real_listdir(path)

    builtins.open, os.listdir = recording_open, recording_listdir  # type: ignore[assignment]
    try:
        names = {metric.name for metric in ProcessCollector(registry=None).collect()}
    finally:
        builtins.open, os.listdir = real_open, real_listdir
    assert names == METRICS  # here, unhardened, it reads everything it needs
    return paths


def hidden_by(settings: dict[str, list[str]], path: str) -> str | None:
    """Which of the unit's settings hides ``path`` from the service, if one does."""
    parts = Path(path).parts
    if parts[:2] == ("/", "proc") and len(parts) > 2:
        per_process = parts[2].isdigit() or parts[2] in ("self", "thread-self")
        if last(settings, "ProcSubset", "all") == "pid" and not per_process:
            return "ProcSubset=pid"
    for key in ("InaccessiblePaths", "TemporaryFileSystem"):
        for value in settings.get(key, []):
            for hidden in value.split():
                hidden = hidden.lstrip("-+").split(":")[0]
                if hidden and (path == hidden or path.startswith(hidden.rstrip("/") + "/")):
                    return f"{key}={hidden}"
    return None


def test_the_unit_hides_nothing_the_process_collector_reads() -> None:
    settings = service_settings()
    assert settings["ExecStart"], "not the [Service] section read"
    hidden = {path: why for path in read_by_the_collector() if (why := hidden_by(settings, path))}
    assert hidden == {}, f"the unit hides what /metrics' process_* figures are read from: {hidden}"


def test_the_collector_reads_everything_from_a_proc_mounted_as_the_unit_mounts_it() -> None:
    settings = service_settings()
    options = []
    if last(settings, "ProcSubset", "all") == "pid":
        options.append("subset=pid")
    protect = last(settings, "ProtectProc", "default")
    if protect in ("invisible", "noaccess", "ptraceable"):
        options.append(f"hidepid={protect}")
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("mounting /proc as the unit would needs root and unshare")
    mount = "mount -t proc " + (f"-o {','.join(options)} " if options else "") + "proc /proc"
    done = subprocess.run(
        ["unshare", "--mount", "--pid", "--fork", "--propagation", "private",
         "sh", "-c", f'{mount} && exec "$0" -c "$1"', sys.executable, COLLECT],
        capture_output=True, text=True, timeout=60, check=False,
    )
    if done.returncode and "mount" in done.stderr:
        pytest.skip(f"cannot mount /proc in a namespace here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert set(done.stdout.split()) == METRICS, f"with /proc mounted -o {','.join(options)}: {done.stdout!r}"
