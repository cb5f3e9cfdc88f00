"""The size rules of docs/design.md: modules of at most 400 lines, functions of at most
60 lines unless a one-line reason stands beside them (scripts/check_sizes.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]


def _checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_sizes", REPO / "scripts/check_sizes.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("check_sizes", module)
    spec.loader.exec_module(module)
    return module


def test_no_module_or_function_is_too_long() -> None:
    checker = _checker()
    assert checker.offenders([REPO / "reportgen", REPO / "review_app"]) == []


def test_the_checker_finds_a_long_function_without_a_reason(tmp_path: Path) -> None:
    checker = _checker()
    body = "\n".join(f"    x{i} = {i}" for i in range(70))
    (tmp_path / "long.py").write_text(f"def long():\n{body}\n", encoding="utf-8")
    (tmp_path / "reasoned.py").write_text(
        f"def reasoned():  # one table of constants\n{body}\n", encoding="utf-8"
    )
    (tmp_path / "big.py").write_text("x = 1\n" * 401, encoding="utf-8")
    found = checker.offenders([tmp_path])
    assert len(found) == 2
    assert any("long.py:1: function long has 71 lines" in line for line in found)
    assert any("big.py: 401 lines" in line for line in found)
