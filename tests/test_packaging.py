"""What the package says of itself: its license, its version (written once, in
``bots.__version__``), and that ``basra --version`` and the changelog agree with it."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest

from bots import __version__
from bots.terminal import __main__ as terminal

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_license_is_an_spdx_expression_and_its_text_is_shipped() -> None:
    project = PROJECT["project"]
    assert project["license"] == "MIT"  # a string (PEP 639), not the deprecated table
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Permission is hereby granted, free of charge" in text


def test_the_version_is_written_once() -> None:
    assert "version" not in PROJECT["project"] and "version" in PROJECT["project"]["dynamic"]
    assert PROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "bots.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def test_the_installed_metadata_has_that_version() -> None:
    try:
        installed = importlib.metadata.version("basra")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("basra is not installed here (the tests run from the sources)")
    assert installed == __version__, "installed from an older version: pip install -e . again"


def test_basra_version_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        terminal.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"basra {__version__}\n"


def test_the_changelog_names_this_version_as_the_latest_release() -> None:
    releases = re.findall(r"^## (\d+\.\d+\.\d+) - \d{4}-\d\d-\d\d", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert releases and releases[0] == __version__


def test_the_message_template_names_this_version() -> None:
    from bots.i18n.maintenance import REPO_ROOT, extract_template

    assert extract_template(REPO_ROOT).version == __version__
