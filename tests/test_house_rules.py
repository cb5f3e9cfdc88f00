"""The size rules of docs/design.md: modules of at most 400 lines, functions of at most
60 lines unless a one-line reason stands beside them (scripts/check_sizes.py); and the
tests' own rule: no test module imports another (shared code lives in tests/factories)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from types import ModuleType

from tests.support.scripts import load_script

REPO = Path(__file__).resolve().parents[1]


def _checker() -> ModuleType:
    return load_script("check_sizes")


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


def _test_module_imports(path: Path) -> list[str]:
    """Each import in `path` of a test module (`tests.test_*`, `from tests import test_*`,
    or a relative `.test_*`): a test module is run by pytest, never used as a library."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            modules = [base] + [f"{base.rstrip('.')}.{alias.name}" for alias in node.names]
        else:
            continue
        for module in modules:
            parts = module.split(".")
            in_tests = module.startswith(".") or parts[0] == "tests"
            if in_tests and any(part.startswith("test_") for part in parts):
                found.append(f"{path}:{node.lineno}: imports {module}")
                break
    return found


def test_no_test_module_imports_another() -> None:
    offenders = [
        line
        for path in sorted((REPO / "tests").rglob("*.py"))
        for line in _test_module_imports(path)
    ]
    assert offenders == [], "shared test code belongs in tests/factories or tests/support"


def test_the_import_rule_finds_each_form(tmp_path: Path) -> None:
    forms = {
        "absolute.py": "from tests.test_site_build import CONFIG\n",
        "plain.py": "import tests.test_score_golden\n",
        "package.py": "from tests import test_site_build\n",
        "relative.py": "from .test_site_build import THEME\n",
        "fine.py": "from tests.factories import CONFIG\nfrom tests import support\n"
        "from _pytest.monkeypatch import MonkeyPatch\n",
    }
    for name, text in forms.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    flagged = {path.name for path in tmp_path.iterdir() if _test_module_imports(path)}
    assert flagged == {"absolute.py", "plain.py", "package.py", "relative.py"}


# Where this project's own requirement texts live on the machines it was built on; a reader
# of the repository has none of them, so no doc and no module text may send them there.
_OUTSIDE_FOLDERS = re.compile(r"\.\./shared/|\bshared/(?:spec|sources|reviews)\b")


def _outside_references(paths: list[Path], root: Path = REPO) -> list[str]:
    found: list[str] = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _OUTSIDE_FOLDERS.search(line):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


def test_docs_and_code_point_to_files_in_the_repository() -> None:
    paths = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    for package in ("reportgen", "review_app"):
        paths += sorted(
            path
            for path in (REPO / package).rglob("*")
            if path.suffix in {".py", ".md", ".json", ".html", ".txt"} and path.is_file()
        )
    assert _outside_references(paths) == []


def test_the_outside_reference_rule_finds_both_forms(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("See `../shared/spec/metrics.md`.\nAnd shared/sources/000.txt.\nshared core\n")
    found = _outside_references([page], tmp_path)
    assert [line.split(":")[1] for line in found] == ["1", "2"]
