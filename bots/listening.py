"""An aiohttp application served on a host and port, for the bots' own listeners (the
health and metrics endpoint, the web table)."""

from __future__ import annotations

import os

from aiohttp import web


async def serve(
    app: web.Application, host: str, port: int, refused: type[Exception], what: str
) -> web.AppRunner:
    """Serve ``app`` on ``host``:``port`` (0: any free port) with no access log, waiting at
    most a second for requests in flight when stopped; the runner, to clean up. A port
    that cannot be bound raises ``refused`` saying ``what`` could not be served, in the
    system's few words rather than asyncio's long ones."""
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as error:
        await runner.cleanup()
        number = error.errno or 0
        why = os.strerror(number) if number > 0 else error.strerror or str(error)
        raise refused(f"cannot serve {what} on {host}:{port} ({why})") from None
    return runner
