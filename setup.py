"""Build hook: compile the rules engine's hot modules to C with mypyc.

Everything else (metadata, packages, dependencies) is in pyproject.toml.
The modules are those of ``core.compiled.COMPILED_MODULES``, built from the
same sources as C extensions beside them; random play runs about twice
as fast. The digests of the sources compiled go to
``core/compiled-sources.json``, which the engine checks at import (see
``core/compiled.py``).

When they cannot be compiled here (no C compiler, no Python headers, mypyc
failing), the engine is installed uncompiled rather than not at all: one
warning says why, ``core/compiled-sources.json`` records it, and the engine
runs from its sources (same results, about half as fast), saying so in one
line when a program starts. A trial extension of one line is built first,
so a missing compiler is found in a second, not after mypyc's work.

Set ``BASRA_PURE_PYTHON=1`` when installing to skip compiling (no C compiler
needed, and nothing said at start): the engine then runs from its sources,
with the same results, and what an earlier build compiled beside them is
removed.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import runpy
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import Distribution, Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import BaseError, CCompilerError

HERE = Path(__file__).resolve().parent
CORE = HERE / "core"
compiled = runpy.run_path(str(CORE / "compiled.py"))
digests_file = CORE / compiled["DIGESTS_FILE"]

# What a C compiler, the Python headers and the linker must manage for any extension.
TRIAL_EXTENSION = "#include <Python.h>\nPyMODINIT_FUNC PyInit_trial(void) { return NULL; }\n"
BUILD_ERRORS = (BaseError, CCompilerError, OSError)


def remove_compiled(core: Path) -> None:
    """Remove what an earlier build compiled beside the sources in ``core``."""
    for built in [*compiled["compiled_files"](core), *core.parent.glob("core__mypyc.*")]:
        built.unlink()


def in_a_line(error: BaseException) -> str:
    """A build error as the program that failed and how, not its whole command line."""
    causes = [error]
    for cause in causes:
        if isinstance(cause, subprocess.CalledProcessError):
            program = cause.cmd[0] if isinstance(cause.cmd, list | tuple) else str(cause.cmd).split()[0]
            return f"{program} exited with status {cause.returncode}"
        if isinstance(cause, OSError) and cause.filename:
            return f"{cause.filename}: {cause.strerror}"
        more = [*cause.args, cause.__cause__]
        causes += [c for c in more if isinstance(c, BaseException) and c not in causes]
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def cannot_compile() -> str | None:
    """Why no C extension can be built here, or None: a trial extension is
    built with the compiler, flags and headers that the engine's would use."""
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch, "trial.c")
        source.write_text(TRIAL_EXTENSION)
        command = Distribution({"ext_modules": [Extension("trial", [str(source)])]}).get_command_obj(
            "build_ext"
        )
        command.build_lib = command.build_temp = scratch
        try:
            command.ensure_finalized()
            command.run()
        except BUILD_ERRORS as error:
            include = [str(d) for d in command.include_dirs or []]  # the Python headers' among them
            if not any(Path(directory, "Python.h").is_file() for directory in include):
                return f"no Python headers: no Python.h in {' or '.join(include) or 'any include directory'}"
            return f"no working C compiler: {in_a_line(error)}"
    return None


def install_uncompiled(reason: str, *cores: Path) -> None:
    """Leave the engine to run from its sources: say why in pip's output
    (shown with -v), and record it for the engine to say when programs start."""
    print(
        f"WARNING: basra: cannot compile the engine ({reason}); "
        "installing it uncompiled: it runs from its sources, about half as fast.",
        file=sys.stderr,
    )
    for core in cores:
        remove_compiled(core)
        (core / compiled["DIGESTS_FILE"]).write_text(json.dumps({compiled["NOT_COMPILED"]: reason}) + "\n")


class BuildOrSkipEngine(build_ext):
    """build_ext that installs the engine uncompiled when its C fails to build
    (the trial extension built, but mypyc's C did not)."""

    def run(self) -> None:
        try:
            super().run()
        except BUILD_ERRORS as error:
            self.extensions = []  # nothing built to copy beside the sources or to install
            built = Path(self.build_lib, "core")  # where build_py may have copied the digests already
            cores = [CORE, *([built] if built.is_dir() else [])]
            install_uncompiled(f"its C failed to build: {in_a_line(error)}", *cores)


def mypyc_extensions() -> list[Extension] | str:
    """The engine's modules as C extensions, or why mypyc could not make them."""
    try:
        from mypyc.build import mypycify
    except ImportError as error:
        return f"mypyc cannot be imported: {error}"
    os.chdir(HERE)  # mypyc names modules by their paths from here
    modules = [str(compiled["source_path"](name, Path("core"))) for name in compiled["COMPILED_MODULES"]]
    said = io.StringIO()  # what mypyc prints, shown as ever but kept to name its first error
    try:
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            # group_name: the runtime they share is one more module, core__mypyc.
            extensions: list[Extension] = mypycify(modules, opt_level="3", group_name="core")
    except SystemExit as stop:  # mypyc's way of failing, after printing its errors
        errors = [line for line in said.getvalue().splitlines() if ": error:" in line]
        return f"mypyc failed: {errors[0] if errors else stop.code}"
    except Exception as error:
        return f"mypyc failed: {type(error).__name__}: {in_a_line(error)}"
    finally:
        sys.stdout.write(said.getvalue())
    return extensions


if compiled["pure_python_asked"]():
    # No compiled engine is left beside the sources from an earlier build.
    digests_file.unlink(missing_ok=True)
    remove_compiled(CORE)
    setup()
elif isinstance(extensions := cannot_compile() or mypyc_extensions(), str):  # why not, then
    install_uncompiled(extensions, CORE)
    setup()
else:
    digests_file.write_text(json.dumps(compiled["source_digests"](CORE), indent=1) + "\n")
    setup(ext_modules=extensions, cmdclass={"build_ext": BuildOrSkipEngine})
