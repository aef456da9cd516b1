"""Build hook: compile the rules engine's hot modules to C with mypyc.

Everything else (metadata, packages, dependencies) is in pyproject.toml.
The modules are those of ``core.compiled.COMPILED_MODULES``, built from the
same sources as C extensions beside them; random play runs about twice
as fast. The digests of the sources compiled go to
``core/compiled-sources.json``, which the engine checks at import (see
``core/compiled.py``).

Set ``BASRA_PURE_PYTHON=1`` when installing to skip compiling (no C compiler
needed): the engine then runs from its sources, with the same results, and
what an earlier build compiled beside them is removed.
"""

from __future__ import annotations

import json
import os
import runpy
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
CORE = HERE / "core"
compiled = runpy.run_path(str(CORE / "compiled.py"))
digests_file = CORE / compiled["DIGESTS_FILE"]

if compiled["pure_python_asked"]():
    # No compiled engine is left beside the sources from an earlier build.
    digests_file.unlink(missing_ok=True)
    for built in [*compiled["compiled_files"](CORE), *HERE.glob("core__mypyc.*")]:
        built.unlink()
    setup()
else:
    from mypyc.build import mypycify

    digests_file.write_text(json.dumps(compiled["source_digests"](CORE), indent=1) + "\n")
    os.chdir(HERE)  # mypyc names modules by their paths from here
    modules = [str(compiled["source_path"](name, Path("core"))) for name in compiled["COMPILED_MODULES"]]
    # group_name: the runtime they share is one more module, core__mypyc.
    setup(ext_modules=mypycify(modules, opt_level="3", group_name="core"))
