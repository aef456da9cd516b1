"""``python -m core replay FILE``: replay a match record and print where it stands.

A record is read whole, up to ``MAX_RECORD_BYTES`` (1 MiB: a finished match's
record is a few kilobytes); a larger file, or standard input (``-``) that goes
on longer, is refused without reading the rest, so ``/dev/zero`` costs no more
memory than that. The record must be UTF-8 JSON.

On success the match's state is printed as one line of JSON; with ``--plays``
the match is told instead, play by play, in English or (``--lang ar``) Arabic
(``core.playbyplay``). Every failure
(a file that cannot be read, too big, not UTF-8, not JSON, nested too deeply,
a number too long to read, a record the rules refuse) is one line on standard
error, ``error: ...`` of at most ``MAX_MESSAGE`` characters, and status 2.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from typing import Any, BinaryIO, NoReturn

from . import events as ev
from .errors import BasraError
from .match import Match
from .playbyplay import LANGUAGES, tell
from .record import replay_events

MAX_RECORD_BYTES = 1 << 20
MAX_MESSAGE = 200
FAILED = 2


def summary(match: Match) -> dict[str, Any]:
    return {
        "scores": list(match.scores),
        "winner": match.winner,
        "round_no": match.round_no,
        "carry": match.carry,
        "to_move": match.to_move,
        "floor": [c.code for c in match.floor],
        "rounds": [r.to_dict() for r in match.rounds],
    }


class Refused(Exception):
    """A failure, already worded for the one line the command prints."""


class _Parser(argparse.ArgumentParser):
    """Usage errors are one line too (``--help`` still prints the usage)."""

    def error(self, message: str) -> NoReturn:
        self.exit(FAILED, one_line(f"{self.prog}: error: {message}") + "\n")


def one_line(message: str, limit: int = MAX_MESSAGE) -> str:
    """``message`` as one line of at most ``limit`` characters that standard
    error can write as they are: line breaks and other controls become spaces,
    what its encoding lacks is escaped, and a longer line is cut with an ellipsis."""
    line = "".join(c if c.isprintable() else " " for c in message)
    encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
    ellipsis = "…"
    try:
        ellipsis.encode(encoding)
    except (UnicodeError, LookupError):
        ellipsis = "..."
    try:
        line.encode(encoding)
    except (UnicodeError, LookupError):
        line = line.encode("ascii", "backslashreplace").decode("ascii")
    if len(line) > limit:
        line = line[: limit - len(ellipsis)] + ellipsis
    return line


def file_name(name: str) -> str:
    """The file as messages name it: its end when the name is long."""
    if name == "-":
        return "standard input"
    return name if len(name) <= 80 else "…" + name[-79:]


def read_limited(source: BinaryIO, name: str) -> bytes:
    """All of ``source``, or Refused once it goes past ``MAX_RECORD_BYTES``."""
    data = source.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise Refused(f"{name} is over {MAX_RECORD_BYTES:,} bytes (1 MiB), too big for a record")
    return data


def read_record_bytes(path: str) -> bytes:
    name = file_name(path)
    try:
        if path == "-":
            return read_limited(standard_input(), name)
        with open(path, "rb") as handle:
            return read_limited(handle, name)
    except OSError as exc:
        raise Refused(f"cannot read {name}: {exc.strerror or exc}") from None
    except ValueError as exc:  # a name holding a NUL character
        raise Refused(f"cannot read {name}: {exc}") from None


def standard_input() -> BinaryIO:
    """Standard input's bytes (a text stream put in its place is read as UTF-8)."""
    stdin: Any = sys.stdin
    buffer: BinaryIO | None = getattr(stdin, "buffer", None)
    if buffer is not None:
        return buffer
    text: str = stdin.read(MAX_RECORD_BYTES + 1)
    return io.BytesIO(text.encode("utf-8", "surrogateescape"))


def parse_record(data: bytes, name: str) -> object:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = f"byte 0x{data[exc.start]:02x} at offset {exc.start}"
        raise Refused(f"{name} is not UTF-8 text ({where})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise Refused(f"{name} is not JSON: {exc}") from None
    except RecursionError:
        raise Refused(f"{name} is JSON nested too deeply to be a record") from None
    except ValueError as exc:
        if "digits" in str(exc):  # Python reads whole numbers of at most 4,300 digits
            limit = sys.get_int_max_str_digits()
            raise Refused(f"{name} holds a number of more than {limit:,} digits") from None
        raise Refused(f"{name} is not JSON: {exc}") from None


def replay(path: str) -> Match:
    return replay_told(path)[0]


def replay_told(path: str) -> tuple[Match, list[ev.Event]]:
    """The match the record at ``path`` describes, and the events it went through."""
    name = file_name(path)
    record = parse_record(read_record_bytes(path), name)
    try:
        return replay_events(record, Match.new)
    except BasraError as exc:
        raise Refused(f"{exc}") from None
    except RecursionError:
        raise Refused(f"{name} is nested too deeply to be a record") from None


def described(exc: BaseException) -> str:
    try:
        return f"{type(exc).__name__}: {str(exc)[: MAX_MESSAGE * 2]}"
    except Exception:
        return type(exc).__name__


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="python -m core", description="Basra rules engine tools")
    commands = parser.add_subparsers(dest="command", required=True)
    replay_command = commands.add_parser(
        "replay", help="replay a basra-record/1 file and print the result as JSON"
    )
    replay_command.add_argument("file", help="the record (at most 1 MiB), or - for standard input")
    replay_command.add_argument("--plays", action="store_true", help="tell the match play by play instead")
    replay_command.add_argument("--lang", choices=LANGUAGES, default="en", help="the play by play's language")
    args = parser.parse_args(argv)
    try:
        match, events = replay_told(args.file)
    except Refused as exc:
        print(one_line(f"error: {exc}"), file=sys.stderr)
        return FAILED
    except Exception as exc:  # a fault of the engine itself: still one line
        print(one_line(f"error: replaying {file_name(args.file)} failed: {described(exc)}"), file=sys.stderr)
        return FAILED
    try:
        if args.plays:
            print("\n".join(tell(match.players, match.first_dealer, match.rules.target, events, args.lang)))
        else:
            print(json.dumps(summary(match)))
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (``| head``): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
