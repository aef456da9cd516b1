"""Basra's chat bots, web table and terminal game, around the engine (``core``) and the store (``storage``).

``__version__`` is the release's version, written here alone: pyproject.toml reads it
(``[tool.setuptools.dynamic]``) and ``basra --version`` prints it.
"""

__version__ = "0.1.0"
