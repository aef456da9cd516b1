"""requirements.lock, what a deployment installs: each runtime dependency at one version its range allows."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def locked() -> dict[NormalizedName, Version]:
    """The lock's versions by package, each line checked to be one exact ``name==version``."""
    versions: dict[NormalizedName, Version] = {}
    for number, line in enumerate((ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines(), 1):
        text = line.partition("#")[0].strip()
        if not text:
            continue
        pin = Requirement(text)
        specifiers = list(pin.specifier)
        exact = len(specifiers) == 1 and specifiers[0].operator == "=="
        assert exact and not pin.extras and not pin.marker, (
            f"requirements.lock line {number}: {line!r} is not name==version"
        )
        name = canonicalize_name(pin.name)
        assert name not in versions, f"requirements.lock line {number}: {pin.name} a second time"
        versions[name] = Version(specifiers[0].version)
    return versions


def runtime_dependencies() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [Requirement(line) for line in project["dependencies"]]


def test_every_runtime_dependency_is_locked_at_a_version_inside_its_range() -> None:
    versions = locked()
    for dependency in runtime_dependencies():
        name = canonicalize_name(dependency.name)
        assert name in versions, f"{dependency.name} is missing from requirements.lock"
        assert dependency.specifier.contains(versions[name], prereleases=True), (
            f"requirements.lock has {dependency.name} {versions[name]}, outside {dependency.specifier}"
        )
