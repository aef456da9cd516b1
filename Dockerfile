# The Basra chat bots in a container: the Telegram bot by default, the Discord bot by command.
#
#   docker build -t basra .
#   docker volume create basra-data
#   docker run -d --name basra-telegram --restart on-failure \
#       -e TELEGRAM_BOT_TOKEN=... -v basra-data:/data basra
#   docker run -d --name basra-discord --restart on-failure -e DISCORD_BOT_TOKEN=... \
#       -e BASRA_DATABASE=/data/discord.sqlite3 -v basra-data:/data basra basra-discord
#   docker exec basra-telegram basra backup /data/      # a checked copy, safe while it runs
#   echo q | docker run --rm -i basra basra play --lang en    # the terminal game, on its own volume
#
# The database lives on the volume /data (BASRA_DATABASE=/data/basra.sqlite3): one file per
# bot, so give the second bot on the same volume its own BASRA_DATABASE. See docs/operating.md.
# The health check asks /healthz on BASRA_METRICS_PORT (9100, on the container's loopback
# unless BASRA_METRICS_HOST says otherwise); `docker ps` shows the result.

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# Build: compile the engine with mypyc (needs a C compiler and Python's headers, which the
# python image has) into a virtual environment that the runtime stage copies as it is.
FROM ${PYTHON_IMAGE} AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE requirements.lock ./
COPY core core
COPY storage storage
COPY bots bots
# The dependencies at the versions the tests passed with (requirements.lock), not the newest.
RUN python -m venv /opt/basra && /opt/basra/bin/pip install --no-cache-dir -r requirements.lock .
# Where it cannot compile, pip installs the engine uncompiled (setup.py); an image should not
# ship that quietly. -I: the installed package, not the sources in this folder.
RUN /opt/basra/bin/python -I -c "import sys, core.compiled as c; \
sys.exit(0 if c.is_compiled() else f'the engine did not compile: {c.not_compiled_reason()}')"

# Runtime: no compiler, a user of its own, the data on a volume.
FROM ${PYTHON_IMAGE}
RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin basra \
    && mkdir /data && chown basra:basra /data
COPY --from=build /opt/basra /opt/basra
ENV PATH=/opt/basra/bin:$PATH \
    BASRA_DATABASE=/data/basra.sqlite3 \
    BASRA_METRICS_PORT=9100 \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1
# The databases (and their -wal, -shm, .lock and the copies made before a migration): keep
# this volume, and the bots' data outlives the container.
VOLUME /data
WORKDIR /data
USER basra
# A webhook's port, when TELEGRAM_WEBHOOK_URL is set (publish it behind a TLS proxy).
EXPOSE 8443
# 200 while the bot plays (or stands by to lead it); 503 or no answer within 5 s: unhealthy.
# An empty BASRA_METRICS_PORT serves no /healthz, and the check then passes.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-c", "\
import os, sys, urllib.request; \
port = os.environ.get('BASRA_METRICS_PORT'); \
host = os.environ.get('BASRA_METRICS_HOST') or '127.0.0.1'; \
host = '127.0.0.1' if host in ('0.0.0.0', '::') else host; \
sys.exit(0) if not port else urllib.request.urlopen(f'http://{host}:{port}/healthz', timeout=5)"]
CMD ["basra-telegram"]
