"""Which local process a connection to the fake Discord comes from.

Every bot process talks to the fake over TCP on 127.0.0.1: its gateway websocket and its
REST calls alike. The peer's port of a connection is the local port of a socket that one
process holds; ``/proc/net/tcp`` names that socket's inode, and ``/proc/<pid>/fd`` says
which of the processes a test started holds it. A connection keeps its owner for its
life, so each is looked up once.
"""

from __future__ import annotations

import os
from pathlib import Path


def _inodes_of_port(port: int, server_port: int) -> set[str]:
    """The inodes of the sockets whose local port is ``port`` and remote port ``server_port``."""
    found: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) < 10:
                continue
            local, remote, inode = fields[1], fields[2], fields[9]
            if int(local.rsplit(":", 1)[1], 16) == port and int(remote.rsplit(":", 1)[1], 16) == server_port:
                found.add(inode)
    return found


def _holds(pid: int, inodes: set[str]) -> bool:
    wanted = {f"socket:[{inode}]" for inode in inodes}
    try:
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for name in names:
        try:
            if os.readlink(f"/proc/{pid}/fd/{name}") in wanted:
                return True
        except OSError:
            continue
    return False


def owner_of(peer_port: int, server_port: int, pids: dict[int, str]) -> str | None:
    """The name (a value of ``pids``) of the process holding the client end of the
    connection from ``peer_port`` to ``server_port``, or None when none of them does."""
    inodes = _inodes_of_port(peer_port, server_port)
    if not inodes:
        return None
    for pid, name in pids.items():
        if _holds(pid, inodes):
            return name
    return None
