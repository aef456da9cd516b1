"""The Docker image's health check asks ``/healthz`` as the bots serve it, and the image
installs from requirements.lock (which its build context must then hold). Docker need not
run here: the check's own command is run, against a server answering as ``/healthz`` does."""

from __future__ import annotations

import asyncio
import fnmatch
import json
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

ROOT = Path(__file__).resolve().parents[1]


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined, as (keyword, arguments)."""
    text = re.sub(r"\\\n", "", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    found = []
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            keyword, _, arguments = line.strip().partition(" ")
            found.append((keyword.upper(), arguments.strip()))
    return found


def health_check() -> list[str]:
    [arguments] = [arguments for keyword, arguments in instructions() if keyword == "HEALTHCHECK"]
    command = arguments[arguments.index("CMD ") + len("CMD ") :]
    parsed = json.loads(command)  # the exec form: no shell in the way
    assert isinstance(parsed, list) and parsed[0] == "python"
    return [sys.executable, *parsed[1:]]


def image_environment() -> dict[str, str]:
    [arguments] = [arguments for keyword, arguments in instructions() if keyword == "ENV"][-1:]
    return dict(re.findall(r"(\w+)=(\S+)", arguments))


@pytest.fixture
async def healthz() -> AsyncIterator[tuple[int, dict[str, int]]]:
    """A server answering ``/healthz`` with the status in ``answer["status"]``, and its port."""
    answer = {"status": 200}

    async def health(request: web.Request) -> web.Response:
        return web.Response(status=answer["status"], text="ok" if answer["status"] == 200 else "not running")

    app = web.Application()
    app.router.add_get("/healthz", health)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield port, answer
    finally:
        await runner.cleanup()


def checked(**settings: str) -> int:
    env = {name: value for name, value in os.environ.items() if not name.startswith("BASRA_METRICS")}
    done = subprocess.run(health_check(), env=env | settings, capture_output=True, timeout=30, check=False)
    return done.returncode


async def test_the_health_check_passes_on_200_and_fails_on_503_or_no_answer(
    healthz: tuple[int, dict[str, int]],
) -> None:
    port, answer = healthz
    assert await asyncio.to_thread(checked, BASRA_METRICS_PORT=str(port)) == 0
    assert await asyncio.to_thread(checked, BASRA_METRICS_PORT=str(port), BASRA_METRICS_HOST="0.0.0.0") == 0
    answer["status"] = 503
    assert await asyncio.to_thread(checked, BASRA_METRICS_PORT=str(port)) != 0
    answer["status"] = 200
    assert await asyncio.to_thread(checked, BASRA_METRICS_PORT="1") != 0  # nothing listens there
    assert await asyncio.to_thread(checked, BASRA_METRICS_PORT="") == 0  # no /healthz served: nothing to ask


def test_the_image_serves_health_and_keeps_its_data_on_a_volume() -> None:
    env = image_environment()
    assert env["BASRA_METRICS_PORT"].isdigit() and env["BASRA_DATABASE"].startswith("/data/")
    volumes = [arguments for keyword, arguments in instructions() if keyword == "VOLUME"]
    assert volumes == ["/data"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "VOLUME /data" in readme and f"BASRA_METRICS_PORT={env['BASRA_METRICS_PORT']}" in readme


def test_the_build_context_holds_what_the_image_installs_from() -> None:
    ignored = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    copied = [name for keyword, arguments in instructions() if keyword == "COPY" and "--from" not in arguments
              for name in arguments.split()[:-1]]
    assert "requirements.lock" in copied and "LICENSE" in copied
    for name in copied:
        assert (ROOT / name).exists(), name
        assert not any(fnmatch.fnmatch(name, pattern) for pattern in ignored), f"{name} is in .dockerignore"
    installs = [arguments for keyword, arguments in instructions()
                if keyword == "RUN" and "pip install" in arguments]
    assert len(installs) == 1 and "-r requirements.lock" in installs[0]
