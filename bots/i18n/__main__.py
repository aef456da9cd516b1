"""Catalog maintenance from the command line; see ``bots.i18n`` for the commands."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .catalog import LOCALES_DIR
from .maintenance import REPO_ROOT, check_catalogs, extract_template, update_catalogs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bots.i18n", description=__doc__)
    parser.add_argument("command", choices=("check", "update"))
    parser.add_argument("--root", type=Path, default=REPO_ROOT, help="source tree (babel.cfg)")
    parser.add_argument("--locales", type=Path, default=LOCALES_DIR, help="catalog directory")
    args = parser.parse_args(argv)
    if args.command == "update":
        for path in update_catalogs(args.root, args.locales):
            print(f"wrote {path}")
        return 0
    problems = check_catalogs(args.root, args.locales)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s); run `python -m bots.i18n update`, then translate")
        return 1
    count = len(list(extract_template(args.root))) - 1
    print(f"catalogs complete: {count} msgids in every language")
    return 0


if __name__ == "__main__":
    sys.exit(main())
