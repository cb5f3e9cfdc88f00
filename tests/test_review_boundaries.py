"""The blinding boundary and the review CLI's mount (issue 20, point 5), in the source.

import-linter keeps reviewer-facing modules from `review_app.core.unblinding` and `reportgen`
(but a kind's review modules) from `review_app` (pyproject.toml); these tests check what
an import graph cannot see: the one name by which `reportgen` mounts the review group,
and that no module but `review_app.core.unblinding` names the `sample_keys` table in its code.
"""

from __future__ import annotations

import ast
from pathlib import Path

from reportgen.cli import COMMANDS

REPO = Path(__file__).resolve().parents[1]
# Only these modules name the table: it is defined and read in the first; the second
# registers it on the schema before creating it (and marks it as archive data).
KEY_MODULES = frozenset({"review_app/core/unblinding.py", "review_app/core/storage.py"})


def _modules(root: Path, package: str) -> list[tuple[str, ast.Module]]:
    return [
        (path.relative_to(root).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted((root / package).rglob("*.py"))
    ]


def _imported(tree: ast.Module) -> list[str]:
    """Every module an import statement of `tree` names, at any depth."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found.append(node.module)
    return found


def kind_review_module(path: str) -> bool:
    """A module of a kind's review part (reportgen/kinds/<kind>/review/<module>.py, or
    deeper: its pages, review/pages/<module>.py; not the review package's __init__, which
    a kind's render may read): written on the review app's database and storage, or a
    page of the app, it may import review_app."""
    parts = path.split("/")
    return (
        len(parts) >= 5
        and parts[:2] == ["reportgen", "kinds"]
        and parts[3] == "review"
        and parts[4:] != ["__init__.py"]
    )


def reportgen_mentions_of_review_app(root: Path = REPO) -> list[str]:
    """Where reportgen's code, but a kind's review modules, names review_app: an import,
    or a string naming a module."""
    found: list[str] = []
    for path, tree in _modules(root, "reportgen"):
        if kind_review_module(path):
            continue
        for module in _imported(tree):
            if module.split(".")[0] == "review_app":
                found.append(f"{path}: import {module}")
        for node in ast.walk(tree):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and text.split(".")[0].split(":")[0] == "review_app":
                found.append(f"{path}: {text!r}")
    return found


def test_reportgen_reaches_the_review_app_only_through_the_review_mount() -> None:
    assert reportgen_mentions_of_review_app() == [
        "reportgen/cli/__init__.py: 'review_app.cli:review'"
    ]
    assert COMMANDS["review"] == "review_app.cli:review"


def test_only_a_kinds_review_modules_are_exempt() -> None:
    assert kind_review_module("reportgen/kinds/multidomain/review/audit.py")
    assert kind_review_module("reportgen/kinds/counterfactual/review/pages/scale.py")
    assert not kind_review_module("reportgen/kinds/multidomain/review/__init__.py")
    assert not kind_review_module("reportgen/kinds/multidomain/review_audit.py")
    assert not kind_review_module("reportgen/kinds/multidomain/render/review/audit.py")


def key_table_users(root: Path = REPO) -> list[str]:
    """The modules of review_app and reportgen whose code (not their prose) names
    `sample_keys`: a variable, an attribute or an imported name."""
    found: set[str] = set()
    for package in ("review_app", "reportgen"):
        for path, tree in _modules(root, package):
            for node in ast.walk(tree):
                named = (
                    (isinstance(node, ast.Name) and node.id == "sample_keys")
                    or (isinstance(node, ast.Attribute) and node.attr == "sample_keys")
                    or (isinstance(node, ast.alias) and "sample_keys" in (node.name, node.asname))
                )
                if named:
                    found.add(path)
    return sorted(found)


def test_only_the_unblinding_module_reads_the_sample_keys() -> None:
    assert set(key_table_users()) == KEY_MODULES


def test_the_checks_see_a_violation(tmp_path: Path) -> None:
    """The scans flag what they are meant to: an import of review_app, a string naming
    one of its modules, a reviewer module naming the keys."""
    (tmp_path / "reportgen" / "cli").mkdir(parents=True)
    (tmp_path / "reportgen" / "cli" / "x.py").write_text(
        "def f():\n    from review_app.core.db import samples\n\n"
        "TARGET = 'review_app.rounds.admin:x'\n",
        encoding="utf-8",
    )
    (tmp_path / "review_app").mkdir()
    (tmp_path / "review_app" / "ui_x.py").write_text(
        "from review_app import unblinding\n\nROWS = unblinding.sample_keys.c\n",
        encoding="utf-8",
    )
    assert reportgen_mentions_of_review_app(tmp_path) == [
        "reportgen/cli/x.py: import review_app.core.db",
        "reportgen/cli/x.py: 'review_app.rounds.admin:x'",
    ]
    assert key_table_users(tmp_path) == ["review_app/ui_x.py"]
