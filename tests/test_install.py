"""Installing where the engine cannot be compiled: the install goes on with
the engine uncompiled, pip's output and each program's start say so in one
line, and the game plays a whole match.

The project's installable files are copied (without what a build left among
them) and installed, as the README says, into a new virtual environment
whose C compiler is ``/bin/false``: without setup.py's fallback that install
fails (``Failed building editable for basra``). The new environment sees this
one's packages through a ``.pth`` file, so nothing the game needs is
downloaded; setup.py's own requirements are taken from here when this
environment has them, else pip fetches them as it does for any install.
"""

from __future__ import annotations

import importlib.metadata
import os
import select
import shutil
import subprocess
import sys
import sysconfig
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from bots.i18n import translator
from bots.terminal.texts import CONTINUE, PROMPT
from core import compiled
from tests.terminal.players import CHOICE, choose

ROOT = Path(__file__).resolve().parents[1]
INSTALLED = ("core", "bots", "storage", "setup.py", "pyproject.toml", "README.md", "LICENSE")
LEFT_BY_A_BUILD = shutil.ignore_patterns("*.so", "__pycache__", compiled.DIGESTS_FILE)
NO_COMPILER = {"CC": "/bin/false", "CXX": "/bin/false"}


def environment(**settings: str) -> dict[str, str]:
    """This process's environment without what would change the install or the game."""
    left_out = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "CC", "CXX")
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("BASRA_") and name not in left_out}
    return env | settings


def build_requirements_here() -> bool:
    """Whether this environment has setup.py's requirements (pyproject's
    build-system), so that the install can build with them and fetch nothing."""
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    for text in requires:
        requirement = Requirement(text)
        try:
            version = importlib.metadata.version(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            return False
        if not requirement.specifier.contains(version, prereleases=True):
            return False
    return True


@dataclass(frozen=True)
class Install:
    project: Path  # the copy installed (editable)
    venv: Path
    pip_output: str

    def run(self, program: str, *args: str, stdin: str = "",
            **settings: str) -> subprocess.CompletedProcess[str]:
        """A program of the new environment, started as an operator would (not from the project)."""
        bin_dir = self.venv / "bin"
        env = environment(**settings)
        env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
        return subprocess.run([str(bin_dir / program), *args], cwd=self.venv.parent, env=env, input=stdin,
                              capture_output=True, text=True, timeout=120, check=False)


    def play(self, *args: str, **settings: str) -> tuple[int, str, str]:
        """``basra play`` through pipes, answered as a person reading it would: confirm
        when offered, else the first choice, and go on after each round's points.
        Its exit status, what it printed and its standard error."""
        bin_dir = self.venv / "bin"
        env = environment(**settings) | {"PYTHONUNBUFFERED": "1"}
        env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
        t = translator("en")
        prompt, go_on = t.gettext(PROMPT), t.gettext(CONTINUE)
        errors = self.venv.parent / "play.stderr"
        with errors.open("w") as stderr, subprocess.Popen(
            [str(bin_dir / "basra"), "play", *args], cwd=self.venv.parent, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
        ) as program:
            assert program.stdin is not None and program.stdout is not None
            out, answered, deadline = b"", 0, time.monotonic() + 120
            while time.monotonic() < deadline:
                ready, _, _ = select.select([program.stdout], [], [], 1)
                if not ready:
                    continue
                data = os.read(program.stdout.fileno(), 65536)
                if not data:
                    break
                out += data
                screen = out.decode("utf-8", "replace")
                if len(screen) > answered and screen.rstrip().endswith((prompt, go_on)):
                    answered = len(screen)
                    choices = CHOICE.findall(screen[screen.rfind("\n[") :])
                    answer = choose(choices) if choices and screen.rstrip().endswith(prompt) else ""
                    program.stdin.write(answer.encode() + b"\n")
                    program.stdin.flush()
            else:
                program.kill()
            program.stdin.close()
            code = program.wait(timeout=30)
        return code, out.decode(), errors.read_text()


@pytest.fixture(scope="module")
def uncompiled(tmp_path_factory: pytest.TempPathFactory) -> Install:
    if not os.access("/bin/false", os.X_OK):
        pytest.skip("no /bin/false to stand in for a C compiler that does not work")
    base = tmp_path_factory.mktemp("install")
    project = base / "basra"
    project.mkdir()
    for name in INSTALLED:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, project / name, ignore=LEFT_BY_A_BUILD)
        else:
            shutil.copy2(ROOT / name, project / name)

    venv = base / "venv"
    made = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)],
                          capture_output=True, text=True, timeout=60, check=False)
    if made.returncode:
        pytest.skip(f"cannot make a virtual environment: {made.stderr.strip()}")
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, timeout=60, check=True).stdout.strip()
    ours = dict.fromkeys([sysconfig.get_path("purelib"), sysconfig.get_path("platlib")])
    Path(site, "basra-test-dependencies.pth").write_text("".join(f"{path}\n" for path in ours))

    command = [str(python), "-m", "pip", "install", "-v", "--no-deps", "-e", str(project)]
    if build_requirements_here():
        command[4:4] = ["--no-build-isolation", "--no-index"]
    done = subprocess.run(command, cwd=base, env=environment(**NO_COMPILER),
                          capture_output=True, text=True, timeout=300, check=False)
    output = done.stdout + done.stderr
    if done.returncode and "No module named pip" in output:
        pytest.skip("this environment has no pip to install with")
    if done.returncode and "install build dependencies did not run successfully" in output:
        pytest.skip("pip could not fetch setup.py's requirements (setuptools, wheel, mypy): no index?")
    assert done.returncode == 0, output[-4000:]
    return Install(project, venv, output)


def test_pip_says_in_one_line_why_the_engine_is_installed_uncompiled(uncompiled: Install) -> None:
    said = {line.strip() for line in uncompiled.pip_output.splitlines() if "WARNING: basra:" in line}
    assert len(said) == 1, said  # the same line each time pip runs setup.py
    line = said.pop()
    assert line.startswith("WARNING: basra: cannot compile the engine (no working C compiler: ")
    assert "/bin/false" in line and line.endswith("it runs from its sources, about half as fast.")


def test_nothing_compiled_is_installed_and_the_install_records_why(uncompiled: Install) -> None:
    core = uncompiled.project / "core"
    assert compiled.compiled_files(core) == [] and list(uncompiled.project.glob("core__mypyc.*")) == []
    reason = compiled.not_compiled_reason(core)
    assert reason is not None and reason.startswith("no working C compiler: ") and "/bin/false" in reason


ENGINE = "import core.match; from core.compiled import is_compiled; print(is_compiled(), core.match.__file__)"


def test_the_installed_engine_runs_from_its_sources(uncompiled: Install) -> None:
    done = uncompiled.run("python", "-c", ENGINE)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"False {uncompiled.project / 'core' / 'match.py'}\n"


def test_a_whole_match_plays_and_the_program_says_in_one_line_that_the_engine_is_not_compiled(
    uncompiled: Install,
) -> None:
    database = uncompiled.venv.parent / "basra.sqlite3"
    code, screen, errors = uncompiled.play("--lang", "en", BASRA_DATABASE=str(database),
                                           BASRA_COMPUTER_DELAY="0")
    assert code == 0, errors
    assert "The match is over" in screen, screen[-2000:]
    [line] = errors.splitlines()
    assert line.startswith("basra: the engine is not compiled (no working C compiler: ")
    assert "/bin/false" in line and "install basra again to compile it" in line


def test_an_operator_who_wants_the_sources_is_not_told_again(uncompiled: Install) -> None:
    done = uncompiled.run("python", "-c", ENGINE, BASRA_PURE_PYTHON="1")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("False ")
