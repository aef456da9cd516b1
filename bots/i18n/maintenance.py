"""Keeping the catalogs in step with the code (developer tooling, not used at runtime).

``extract_template`` reads every msgid the code uses, following ``babel.cfg``
at the repository root. ``check_catalogs`` lists what either catalog lacks;
``update_catalogs`` rewrites ``basra.pot`` and merges it into both ``.po``
files, as ``pybabel extract`` + ``pybabel update`` would. Locations are kept
without line numbers so that moving code does not touch the catalogs.

Babel does the work, through its public API: its extractor
(``babel.messages.extract.extract_from_dir``, with ``babel.cfg`` read by
``frontend.parse_mapping_cfg``), its catalog merge (``Catalog.update``, the one
``pybabel update`` calls) and its reader and writer (``pofile``). What is here is
what the ``pybabel`` commands have no option for: the English catalog says its
msgids rather than staying empty, a file whose only change would be its dates is
not rewritten, the Plural-Forms header is ours, and ``check`` verifies what a
``str.format`` catalog needs (the same named fields, every plural form), which
Babel's checkers (``%``-formats) do not. There is no compile step, so no
``pybabel compile``: the catalogs are read as ``.po`` at run time (``catalog``).
"""

from __future__ import annotations

import ast
import io
import re
import string
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import PoFileError, read_po, write_po

from .catalog import DOMAIN, LOCALES_DIR, PLURAL_FORMS, is_usable, po_path, pot_path
from .lang import SOURCE_LANGUAGE, SUPPORTED

REPO_ROOT: Final = Path(__file__).resolve().parents[2]
_DATE_HEADER: Final = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date): .*\n', re.MULTILINE)
_LANGUAGE_NAMES: Final = {"ar": "Arabic", "en": "English"}
_HEADER_COMMENT: Final = (
    "# {what} for basra, the Egyptian card game.\n"
    "# Maintained with `python -m bots.i18n update` and `python -m bots.i18n check`.\n"
    "# This file is distributed under the same license as the basra project (MIT).\n"
    "#"
)


@dataclass(frozen=True)
class Problem:
    """One thing a catalog lacks for a msgid the code uses."""

    lang: str
    msgid: str
    context: str | None
    reason: str
    locations: tuple[tuple[str, int | None], ...] = ()

    def __str__(self) -> str:
        context = f" (context {self.context!r})" if self.context else ""
        where = ", ".join(f"{path}:{line}" if line else path for path, line in self.locations)
        return f"{self.lang}: {self.reason}: {self.msgid!r}{context}" + (
            f" at {where}" if where else ""
        )


def _project_version(root: Path) -> str | None:
    """The project's version under ``root``: pyproject.toml's, or the ``attr`` its dynamic
    version names (``bots.__version__``), read from the source as setuptools reads it."""
    try:
        with (root / "pyproject.toml").open("rb") as fileobj:
            pyproject = tomllib.load(fileobj)
        if "version" in pyproject["project"]:
            return str(pyproject["project"]["version"])
        module, _, name = pyproject["tool"]["setuptools"]["dynamic"]["version"]["attr"].rpartition(".")
        package = root.joinpath(*module.split("."))
        source = package / "__init__.py" if package.is_dir() else package.with_suffix(".py")
        for statement in ast.parse(source.read_text(encoding="utf-8")).body:
            if (isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Constant)
                    and any(isinstance(t, ast.Name) and t.id == name for t in statement.targets)):
                return str(statement.value.value)
    except (OSError, KeyError, SyntaxError, tomllib.TOMLDecodeError):
        pass
    return None


def extract_template(root: Path = REPO_ROOT) -> Catalog:
    """Every msgid in the source tree under ``root``, as a template catalog."""
    with (root / "babel.cfg").open(encoding="utf-8") as fileobj:
        method_map, options_map = parse_mapping_cfg(fileobj, "babel.cfg")  # type: ignore[no-untyped-call]
    template = Catalog(
        project=DOMAIN,
        version=_project_version(root),
        header_comment=_HEADER_COMMENT.format(what="Message template"),
        fuzzy=False,
    )
    for filename, lineno, message, comments, context in extract_from_dir(
        root, method_map, options_map, strip_comment_tags=True
    ):
        template.add(
            message,
            None,
            [(Path(filename).as_posix(), lineno)],
            auto_comments=comments,
            context=context,
        )
    return template


def _fields(text: str) -> set[str]:
    """The named fields of a str.format template; ValueError if it is not one."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _strings(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def _field_problem(source: Message, entry: Message) -> str | None:
    try:
        wanted = set().union(*(_fields(text) for text in _strings(source.id)))
        for text in _strings(entry.string):
            got = _fields(text)
            if got - wanted:
                return f"unknown fields {sorted(got - wanted)} in {text!r}"
            if not source.pluralizable and got != wanted:
                return f"fields {sorted(wanted - got)} dropped in {text!r}"
    except ValueError as error:
        return f"not a format template ({error})"
    return None


def _entry_problems(source: Message, entry: Message | None, nplurals: int) -> list[str]:
    if entry is None:
        return ["missing msgid"]
    if source.pluralizable != entry.pluralizable:
        return ["plural entry expected" if source.pluralizable else "singular entry expected"]
    problems = []
    if source.pluralizable:
        forms = len(_strings(entry.string))
        if forms != nplurals:
            problems.append(f"{forms} plural forms, expected {nplurals}")
        if _strings(entry.id) != _strings(source.id):
            problems.append(f"msgid_plural differs from the code's {source.id[1]!r}")
    strings = _strings(entry.string)
    empty_forms = [index for index, text in enumerate(strings) if not text]
    if entry.fuzzy:
        problems.append("fuzzy translation (review it, then remove the fuzzy flag)")
    elif not any(strings):
        problems.append("empty translation")
    elif empty_forms:
        problems.append(f"empty plural forms {empty_forms} of {len(strings)}")
    field_problem = _field_problem(source, entry)
    if field_problem:
        problems.append(field_problem)
    return problems


def check_catalogs(
    root: Path = REPO_ROOT,
    locales_dir: Path = LOCALES_DIR,
    languages: tuple[str, ...] = SUPPORTED,
) -> list[Problem]:
    """Every msgid used under ``root`` that a catalog misses or translates badly.

    An empty list means every string the code can show exists, complete, in
    every language.
    """
    template = extract_template(root)
    problems: list[Problem] = []
    for lang in languages:
        path = po_path(lang, locales_dir)
        if not path.exists():
            problems.append(Problem(lang, str(path), None, "no catalog"))
            continue
        try:
            with path.open("rb") as fileobj:
                # abort_invalid: more msgstr[i] than the header allows is an error,
                # not a silently dropped form
                catalog = read_po(fileobj, locale=lang, domain=DOMAIN, abort_invalid=True)
        except PoFileError as error:
            problems.append(Problem(lang, str(path), None, f"invalid catalog ({error})"))
            continue
        expected = PLURAL_FORMS[lang]
        if _squeeze(catalog.plural_forms) != _squeeze(expected):
            reason = f"Plural-Forms header, expected {expected!r}"
            problems.append(Problem(lang, catalog.plural_forms, None, reason))
        for message in list(template)[1:]:
            entry = catalog.get(message.id, context=message.context)
            for reason in _entry_problems(message, entry, catalog.num_plurals):
                msgid = _strings(message.id)[0]
                locations = tuple(message.locations)
                problems.append(Problem(lang, msgid, message.context, reason, locations))
    return problems


def _squeeze(text: str) -> str:
    return "".join(text.split()).rstrip(";")


def _render(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, include_lineno=False, ignore_obsolete=True)
    return buffer.getvalue()


def _write_if_changed(path: Path, content: bytes) -> bool:
    """Write unless only the date headers would change (keeps diffs to real changes)."""
    if path.exists() and _DATE_HEADER.sub(b"", path.read_bytes()) == _DATE_HEADER.sub(b"", content):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return True


def _fill_from_msgid(catalog: Catalog) -> None:
    """Source language: an entry with no wording of its own says its msgid."""
    for message in list(catalog)[1:]:
        if message.fuzzy or not is_usable(message.string):
            message.string = tuple(message.id) if message.pluralizable else message.id
            message.flags.discard("fuzzy")


def _new_catalog(lang: str, template: Catalog) -> Catalog:
    name = _LANGUAGE_NAMES.get(lang, lang)
    return Catalog(
        locale=lang,
        domain=DOMAIN,
        project=DOMAIN,
        version=template.version,
        header_comment=_HEADER_COMMENT.format(what=f"{name} messages"),
        language_team=name,
    )


def update_catalogs(root: Path = REPO_ROOT, locales_dir: Path = LOCALES_DIR) -> list[Path]:
    """Re-extract the template and merge it into every catalog; returns the files written.

    New msgids arrive empty in Arabic (or with a fuzzy guess from a similar old
    msgid) and with their own text in English; msgids gone from the code leave.
    """
    template = extract_template(root)
    written = []
    if _write_if_changed(pot_path(locales_dir), _render(template)):
        written.append(pot_path(locales_dir))
    for lang in SUPPORTED:
        path = po_path(lang, locales_dir)
        if path.exists():
            with path.open("rb") as fileobj:
                catalog = read_po(fileobj, locale=lang, domain=DOMAIN)
        else:
            catalog = _new_catalog(lang, template)
        catalog.fuzzy = False
        catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[lang])]
        catalog.update(template, no_fuzzy_matching=lang == SOURCE_LANGUAGE)
        if lang == SOURCE_LANGUAGE:
            _fill_from_msgid(catalog)
        if _write_if_changed(path, _render(catalog)):
            written.append(path)
    return written
