"""The repository's scripts (`scripts/*.py`) loaded as modules, for the tests that call
their functions: they are not a package, so they are loaded from their files."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def load_script(name: str) -> ModuleType:
    """`scripts/<name>.py`, executed as a module named `name`."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # dataclasses and typing look a class's module up in sys.modules while it executes.
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module
