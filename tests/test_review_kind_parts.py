"""A kind's review part (issue 20, point 3): the review app reaches what a kind does of
its own (its tasks' samples, exports, freeze-export, contestation dates, commands) only
through the registry (`reportgen.kinds.review_part`), and its generic modules name no kind."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import click
import pytest

from reportgen.kinds import (
    ExportRequest,
    KindPage,
    KindReview,
    SampleRequest,
    kind_names,
    register_review_part,
    review_kind_names,
    review_part,
    unregister_review_part,
)
from reportgen.kinds._review import NO_REVIEW_PART, load_target

REPO = Path(__file__).resolve().parents[1]
# The review app's modules that may name a kind: the demonstration's audit of the
# Estigmas round, and the words a password may not be made of (the project's names).
NAMING_A_KIND = ("review_app/demo_audit.py", "review_app/core/password_strength.py")
# Every other module of the review app (its entry point, core, tasks, round work, CLI,
# pages): none may name a kind; each reaches one through the registry.
GENERIC = tuple(
    path.relative_to(REPO).as_posix()
    for path in sorted((REPO / "review_app").rglob("*.py"))
    if path.relative_to(REPO).as_posix() not in NAMING_A_KIND
)


def kind_names_in(path: Path) -> list[str]:
    """The string constants of `path`'s code (not its docstrings' prose) that are a
    built-in kind's name, or a module path into one."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            words = node.value.replace(".", " ").split()
            if 0 < len(words) <= 4 and any(word in kind_names() for word in words):
                found.append(node.value)
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module is not None
            and any(part in kind_names() for part in node.module.split("."))
        ):
            found.append(node.module)
    return found


def test_the_walk_covers_the_apps_entry_point_and_dispatchers() -> None:
    assert {
        "review_app/app.py",
        "review_app/pages/navigation.py",
        "review_app/pages/reviewer.py",
        "review_app/tasks/shapes.py",
        "review_app/cli/kinds.py",
        "review_app/rounds/contest.py",
    } <= set(GENERIC)


@pytest.mark.parametrize("module", GENERIC)
def test_the_review_apps_generic_modules_name_no_kind(module: str) -> None:
    assert kind_names_in(REPO / module) == []


def test_the_check_sees_a_kind_named(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        'from reportgen.kinds.multidomain.review.round import read_md_round\nK = "multidomain"\n',
        encoding="utf-8",
    )
    assert kind_names_in(source) == ["reportgen.kinds.multidomain.review.round", "multidomain"]


def test_each_kind_gives_its_review_part() -> None:
    multidomain = review_part("multidomain")
    assert multidomain.sample is not None
    assert multidomain.export is not None
    assert multidomain.freeze_export is not None
    assert multidomain.contest is not None
    counterfactual = review_part("counterfactual")
    assert counterfactual.sample is not None
    assert counterfactual.export is not None
    assert counterfactual.freeze_export is None
    assert counterfactual.contest is None
    assert counterfactual.commands is not None
    made = counterfactual.commands(lambda f: f, lambda url: None)  # type: ignore[arg-type,return-value]
    assert [command.name for command in made] == ["mask-audit"]
    assert review_part("estigmas") is NO_REVIEW_PART
    assert review_kind_names() == ("multidomain", "counterfactual")


def test_the_cli_dispatches_to_a_registered_part(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from reportgen.kinds import rounds
    from review_app.cli.kinds import export_of_kind, sample_of_kind

    calls: list[str] = []

    def sample(request: SampleRequest) -> str:
        calls.append(f"sample {request.task_type}")
        return "sampled"

    def export(request: ExportRequest) -> str:
        calls.append("export")
        return "exported"

    monkeypatch.setattr(rounds, "kind_of_round", lambda _: SimpleNamespace(name="plug"))
    part = KindReview(sample=sample, tasks=("t",), export=export)
    register_review_part("plug", part)
    try:
        assert sample_of_kind(tmp_path, "t", 1, (), False, lambda: None)  # type: ignore[arg-type,return-value]
        # Its one task is the default; any other is refused before the part is called.
        assert sample_of_kind(tmp_path, None, 1, (), False, lambda: None)  # type: ignore[arg-type,return-value]
        with pytest.raises(click.BadParameter, match=r"a plug round needs t$"):
            sample_of_kind(tmp_path, "u", 1, (), False, lambda: None)  # type: ignore[arg-type,return-value]
        assert export_of_kind(tmp_path, None, None, False, lambda: None) == "exported"  # type: ignore[arg-type,return-value]
    finally:
        unregister_review_part("plug")
    assert calls == ["sample t", "sample t", "export"]
    with pytest.raises(click.BadParameter, match="plug rounds have no task; the kinds with"):
        sample_of_kind(tmp_path, "t", 1, (), False, lambda: None)  # type: ignore[arg-type,return-value]


def test_the_app_mounts_each_kinds_pages_from_its_review_part() -> None:
    from review_app.pages.navigation import pages_of

    assert list(pages_of("admin")) == [
        "page_calibration",
        "page_disagreements",
        "page_contestations",
        "page_batches",
        "md_page_audit",  # multidomain's part
        "md_page_calibration",
        "md_page_contamination",
        "cf_page_calibration",  # counterfactual's
        "page_accounts",
    ]
    assert list(pages_of("reviewer")) == ["page_review", "page_contest", "page_guidelines"]
    assert list(pages_of("participant")) == ["page_contest", "page_guidelines"]
    for kind in review_kind_names():
        for page in review_part(kind).pages:
            assert callable(load_target(page.target)), page  # each names a page function


def test_a_registered_kinds_page_is_mounted_for_its_role(monkeypatch: pytest.MonkeyPatch) -> None:
    from review_app.pages.navigation import pages_of

    shown: list[str] = []
    monkeypatch.setattr(
        "tests.test_review_kind_parts.plug_page", lambda: shown.append("plug"), raising=False
    )
    page = KindPage("plug_page", "tests.test_review_kind_parts:plug_page", role="reviewer")
    register_review_part("plug", KindReview(pages=(page,)))
    try:
        pages = pages_of("reviewer")
        assert "plug_page" not in pages_of("admin")
    finally:
        unregister_review_part("plug")
    assert list(pages)[-1] == "plug_page"
    pages["plug_page"]()  # imported by name when shown
    assert shown == ["plug"]
    assert "plug_page" not in pages_of("reviewer")


def test_a_part_that_samples_names_its_tasks() -> None:
    """The CLI checks `--task` against `tasks`: a part's own sample without them (or tasks
    without a sample) is refused when the part is made."""
    with pytest.raises(ValueError, match="sample and its tasks go together"):
        KindReview(sample=lambda *args: None)
    with pytest.raises(ValueError, match="sample and its tasks go together"):
        KindReview(tasks=("t",))
    assert review_part("multidomain").tasks == ("audit", "calibration")
    assert review_part("counterfactual").tasks == ("calibration", "extraction")


def test_the_kinds_tables_are_theirs_and_the_schema_holds_them(tmp_path: Path) -> None:
    """Each kind's own review tables live in its review package, named by its part
    (`KindReview.tables`); the app's storage creates them through the registry (in a
    fresh interpreter, where nothing else has imported them), and no module of the app's
    core declares one."""
    assert review_part("multidomain").tables == "reportgen.kinds.multidomain.review.tables"
    assert review_part("counterfactual").tables == "reportgen.kinds.counterfactual.review.tables"
    probe = (
        "import sys\n"
        "from sqlalchemy import inspect\n"
        "from review_app.core.storage import open_database\n"
        "engine = open_database(sys.argv[1])\n"
        "print(' '.join(sorted(inspect(engine).get_table_names())))\n"
    )
    url = f"sqlite:///{tmp_path / 'review.db'}"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", probe, url], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    assert {"md_contamination_reviews", "cf_mask_flags", "cf_mask_decisions"} <= set(
        done.stdout.split()
    )
    declaring = [
        path.name
        for path in sorted((REPO / "review_app" / "core").glob("*.py"))
        if any(
            f'Table(\n    "{prefix}' in path.read_text(encoding="utf-8")
            for prefix in ("md_", "cf_")
        )
    ]
    assert declaring == []
