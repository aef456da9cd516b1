"""``python -m core replay FILE``: replay a match record and print where it stands."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .errors import BasraError
from .match import Match
from .record import replay_record


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m core", description="Basra rules engine tools")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay a basra-record/1 file and print the result as JSON")
    replay.add_argument("file", help="the record, or - for standard input")
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        print(f"error: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"error: {args.file} is not JSON: {exc}", file=sys.stderr)
        return 2
    try:
        match = replay_record(record)
    except BasraError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary(match)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
