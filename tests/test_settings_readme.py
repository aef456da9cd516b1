"""Every setting the programs read is a row of README's settings table."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

from pydantic_settings import BaseSettings

import bots

README = Path(__file__).resolve().parents[1] / "README.md"
#: A row's first cell: one or more `NAME`s.
ROW = re.compile(r"^\|([^|]*)\|")


def settings_classes() -> list[type[BaseSettings]]:
    """Every pydantic settings class defined in ``bots`` (its modules imported to find them)."""
    for module in pkgutil.walk_packages(bots.__path__, "bots."):
        importlib.import_module(module.name)
    found: list[type[BaseSettings]] = []
    pending = list(BaseSettings.__subclasses__())
    while pending:
        cls = pending.pop()
        pending += cls.__subclasses__()
        if cls.__module__.startswith("bots.") and cls not in found:
            found.append(cls)
    return found


def env_names(cls: type[BaseSettings]) -> set[str]:
    """The environment variables a settings class reads, as pydantic-settings names them."""
    prefix = str(cls.model_config.get("env_prefix", ""))
    names = set()
    for field, info in cls.model_fields.items():
        alias = info.validation_alias or info.alias
        names.add((alias if isinstance(alias, str) else prefix + field).upper())
    return names


def readme_table() -> set[str]:
    """The names in the first column of the table under README's "## Settings"."""
    section = README.read_text(encoding="utf-8").split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    names: set[str] = set()
    for line in section.splitlines():
        if (row := ROW.match(line)) is not None:
            names.update(re.findall(r"`([A-Z][A-Z0-9_]*)`", row[1]))
    return names


def test_the_settings_classes_are_found() -> None:
    names = {cls.__name__ for cls in settings_classes()}
    assert {"BasraSettings", "TelegramSettings", "DiscordSettings"} <= names


def test_every_setting_is_in_the_readme_table() -> None:
    documented = readme_table()
    missing = {
        f"{name} ({cls.__module__}.{cls.__name__})"
        for cls in settings_classes()
        for name in env_names(cls)
        if name not in documented
    }
    assert not missing, f"settings missing from README's settings table: {sorted(missing)}"
