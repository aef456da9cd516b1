"""Where the data lives: a PostgreSQL URL or an SQLite file, and how to name it in a log.

A URL may carry a password; ``redact`` is what any message says instead.

>>> is_postgres_url("postgresql://basra:secret@db:5432/basra")
True
>>> is_postgres_url("basra.sqlite3")
False
>>> redact("postgres://basra:secret@db/basra?sslmode=require")
'postgres://basra:***@db/basra?sslmode=require'
>>> redact("postgresql://db/basra?password=secret&sslmode=require")
'postgresql://db/basra?password=***&sslmode=require'
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

SCHEMES: Final = ("postgresql", "postgres")
_USERINFO_PASSWORD: Final = re.compile(r"^(?P<scheme>[a-z]+://[^:@/?#]*):[^@/?#]*@", re.IGNORECASE)
_QUERY_PASSWORD: Final = re.compile(r"(?P<key>[?&]password=)[^&#]*", re.IGNORECASE)


def is_postgres_url(database: str | Path) -> bool:
    """Whether ``database`` names a PostgreSQL server (``postgresql://`` or ``postgres://``)."""
    if isinstance(database, Path):
        return False
    return urlsplit(database.strip()).scheme.lower() in SCHEMES and "://" in database


def redact(url: str) -> str:
    """The URL with any password it holds (``user:password@``, ``?password=``) as ``***``."""
    url = _USERINFO_PASSWORD.sub(r"\g<scheme>:***@", url.strip())
    return _QUERY_PASSWORD.sub(r"\g<key>***", url)


def redact_text(text: str, url: str) -> str:
    """``text`` (a driver's error message) with the password of ``url`` hidden, if it appears."""
    parts = urlsplit(url)
    secrets = [parts.password] if parts.password else []
    secrets += [m.group(0).partition("=")[2] for m in _QUERY_PASSWORD.finditer(url)]
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text.replace(url, redact(url))
