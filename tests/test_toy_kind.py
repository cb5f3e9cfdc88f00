"""A kind registered in the tests only goes through every stage with no core change:
archive, verify, summary, stats, a bilingual site (alone, and beside Estigmas), the leak
guard, a review sample and its own review part (sample and export through the CLI); and
it is one folder (tests/support/toykind/) that no other file names but its registration
line (issue 20, point 7; docs/adding-a-kind.md)."""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.build import build_site
from reportgen.cli import main
from reportgen.errors import ReportgenError
from reportgen.guard import LeakError
from reportgen.kinds import (
    ExportRequest,
    Kind,
    get_kind,
    register_kind,
    review_part,
    unregister_kind,
)
from reportgen.kinds.rounds import read_round, write_round
from reportgen.model import Manifest, Model
from review_app.rounds import admin
from review_app.rounds.sampling import create_batch
from review_app.tasks import reviewing
from tests.factories import CONFIG, THEME, make_round
from tests.review.export_bytes import same_bytes
from tests.review.helpers import add_and_login, new_database, released
from tests.support.toykind import (
    NAME,
    SCORES_FILE,
    ToyItem,
    ToyKind,
    ToyResponse,
    ToyRound,
    ToyScore,
)

REPO = Path(__file__).resolve().parents[1]
# How code and prose name the kind: its name and package (`toykind`), its classes
# (`ToyKind`), its helpers (`toy_kind`), "the toy kind".
NAMED = re.compile(rb"toy[\s_-]?kind", re.IGNORECASE)
# What may name it: its folder, this test, the walk-through that uses it as the example.
# tests/module_costs.json records every test module's CPU seconds, this test's file too.
EXEMPT = (
    "tests/support/toykind/",
    "tests/test_toy_kind.py",
    "docs/adding-a-kind.md",
    "tests/module_costs.json",
)
# Not the repository's files: git's, caches, build outputs, the review database.
SKIPPED = re.compile(
    r"\.|__pycache__$|.*\.egg-info$|build$|site(-.*)?$|review\.db|test_under_load\."
)
DAY = date(2026, 7, 1)
SECRET = "Esta pergunta ainda não publicada fala de um caso que ninguém deve ler no site."
MODELS = (
    Model("alfa", "Alfa Um", "Casa Alfa", "alfa-1", "", DAY),
    Model("beta", "Beta Dois", "Casa Beta", "beta-2", "", DAY),
)


@pytest.fixture
def toy(plugin_kind: Kind) -> ToyKind:
    """The kind, registered by tests/conftest.py's fixture (its one registration line)."""
    assert isinstance(plugin_kind, ToyKind)
    return plugin_kind


def write_toy_round(root: Path, round_id: str = "toy-round") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    items = [
        ToyItem("t-1", "pt-BR", "Uma pergunta publicada sobre o atendimento.", "CANARY-T1", True),
        ToyItem("t-2", "pt-BR", SECRET, "CANARY-T2", False),
        ToyItem("t-3", "en", "A published question about the service.", None, True),
    ]
    points = {("alfa", "t-1"): 8, ("alfa", "t-2"): 6, ("alfa", "t-3"): 10}
    points |= {("beta", "t-1"): 2, ("beta", "t-2"): 4, ("beta", "t-3"): 3}
    responses = {
        m.model_id: [ToyResponse(i.item_id, m.model_id, f"Resposta {i.item_id}.") for i in items]
        for m in MODELS
    }
    scores = [ToyScore(i, m, p) for (m, i), p in sorted(points.items())]
    manifest = Manifest(
        round_id=round_id,
        kind=NAME,
        title={"pt-BR": "Rodada de brinquedo", "en": "Toy round"},
        synthetic=True,
        collected_on=DAY,
        protocol_frozen_on=DAY,
        ended_on=DAY,
        generation={"temperature": 0},
        bootstrap_replicates=1000,
        bootstrap_seed=1,
    )
    write_round(
        root / round_id,
        manifest=manifest,
        models=MODELS,
        items=items,
        responses=responses,
        tables={SCORES_FILE: scores},
    )
    return root / round_id


def plain(path: Path) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8")))


def test_archive_verify_summary_and_stats(toy: ToyKind, tmp_path: Path) -> None:
    round_dir = write_toy_round(tmp_path)
    round_ = read_round(round_dir)
    assert isinstance(round_, ToyRound)
    assert round_.mean_scores() == {"alfa": 8.0, "beta": 3.0}
    runner = CliRunner()
    assert runner.invoke(main, ["verify", str(round_dir)]).exit_code == 0
    table = runner.invoke(main, ["summary", str(round_dir)])
    assert table.exit_code == 0, table.output
    assert "alfa: mean score 8.00" in table.output
    document = json.loads(runner.invoke(main, ["summary", "--json", str(round_dir)]).output)
    assert document == {"round_id": "toy-round", "mean_score": {"alfa": 8.0, "beta": 3.0}}
    stats = runner.invoke(main, ["stats", str(round_dir)])
    assert json.loads(stats.output)["schema"] == "toy-results/1"


def test_a_toy_score_out_of_range_is_one_clear_problem(toy: ToyKind, tmp_path: Path) -> None:
    round_dir = write_toy_round(tmp_path)
    scores = round_dir / SCORES_FILE
    scores.write_text(scores.read_text("utf-8").replace(",8\n", ",80\n"), encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(round_dir)])
    assert result.exit_code == 1
    assert f"{SCORES_FILE}: row 1: score '80' is not an integer from 0 to 10" in result.output
    assert "Traceback" not in result.output


def test_a_kind_without_pages_says_so(tmp_path: Path) -> None:
    class Bare(ToyKind):
        name = "bare"
        stages = replace(ToyKind.stages, site=None)

    register_kind(Bare())
    try:
        with pytest.raises(ReportgenError, match="kind 'bare' does not provide pages"):
            get_kind("bare").site([], None, cache_dir=None)  # type: ignore[arg-type]
    finally:
        unregister_kind("bare")


def test_a_site_of_the_toy_kind_alone(toy: ToyKind, tmp_path: Path) -> None:
    site = tmp_path / "site"
    build_site([write_toy_round(tmp_path / "rounds")], site, config_path=CONFIG, theme_dir=THEME)
    assert "alfa 8.00" in plain(site / "index.html")
    assert "Pontuações médias" in plain(site / "index.html")
    assert "Mean scores" in plain(site / "en" / "index.html")
    assert (
        (site / "data" / "toy-round" / "mean_scores.csv")
        .read_text("utf-8")
        .startswith("model_id,mean_score")
    )


def test_a_site_of_two_kinds_lists_every_round_and_gives_each_kind_a_section(
    toy: ToyKind, tmp_path: Path
) -> None:
    rounds = tmp_path / "rounds"
    rounds.mkdir()
    estigmas = make_round(rounds)
    site = tmp_path / "site"
    build_site(
        [estigmas, write_toy_round(rounds)],
        site,
        config_path=CONFIG,
        theme_dir=THEME,
        cache_dir=tmp_path / "cache",
    )
    for home, kinds in ((site / "index.html", "Brinquedo"), (site / "en" / "index.html", "Toy")):
        text = plain(home)
        assert "toy-round" in text
        assert "tiny-round" in text
        assert kinds in text
    assert "Rodada de brinquedo" in plain(site / "index.html")
    assert "Toy round" in plain(site / "en" / "index.html")
    for language_root in (site, site / "en"):
        assert "alfa 8.00" in plain(language_root / NAME / "index.html")
        assert (language_root / "estigmas" / "ranking.html").is_file()
    # Each section's links still lead to files that exist: the Estigmas data page's
    # downloads sit at the site root.
    for data_page in (site / "estigmas" / "data.html", site / "en" / "estigmas" / "data.html"):
        links = re.findall(r'href="([^"#]+\.csv)"', data_page.read_text("utf-8"))
        assert links
        for link in links:
            assert (data_page.parent / link).resolve().is_file(), link


def test_the_guard_keeps_the_toy_kinds_secrets(
    toy: ToyKind, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def leaky(self: object, pages_dir: Path, language: str) -> list[Path]:
        pages_dir.mkdir(parents=True, exist_ok=True)
        (pages_dir / "index.md").write_text(f"# Vazou\n\n{SECRET}\n", encoding="utf-8")
        return [pages_dir / "index.md"]

    monkeypatch.setattr("tests.support.toykind.pages.ToySite.write_sources", leaky)
    site = tmp_path / "site"
    with pytest.raises(LeakError, match="toy-round/t-2"):
        build_site(
            [write_toy_round(tmp_path / "rounds")], site, config_path=CONFIG, theme_dir=THEME
        )
    assert not site.exists()


def test_a_review_sample_of_the_toy_kind(toy: ToyKind, tmp_path: Path) -> None:
    engine = new_database(f"sqlite:///{tmp_path / 'review.db'}")
    reviewer = add_and_login(engine, "ana")
    admin_token = add_and_login(engine, "admin", "admin")
    create_batch(
        engine,
        read_round(write_toy_round(tmp_path)),
        fraction=1.0,
        min_per_stratum=1,
        overlap=1,
        seed=7,
    )
    released(engine, 1, admin_token)
    queue = reviewing.my_queue(engine, reviewer)
    assert len(queue) == 6  # 3 items x 2 models
    sample = reviewing.load_sample(engine, reviewer, queue[0].code)
    assert sample.task.choices == ("good", "bad")
    assert sample.task.label("pt-BR", "good") == "Boa"
    with pytest.raises(ReportgenError):
        reviewing.submit_judgment(engine, reviewer, sample.code, "yes")
    for entry in queue:
        assert reviewing.submit_judgment(engine, reviewer, entry.code, "good")
    judged = admin.judged_samples(engine, admin_token)
    calibration = admin.calibrate(judged, judged[0].task)
    # The automatic verdicts are good for alfa's 3 and beta's none: 3 of 6 agree.
    assert sum(map(sum, calibration.confusion)) == 6
    assert calibration.confusion == [[3, 3], [0, 0]]
    assert {s.stratum for s in judged} == {("pt-BR",), ("en",)}


def cli(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result.output


def test_the_toy_kinds_review_part_samples_and_exports_through_the_cli(
    toy: ToyKind, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    tokens = {name: add_and_login(engine, name) for name in ("ana", "bia")}
    round_dir = write_toy_round(tmp_path / "rounds")
    drawn = cli("review", "sample", str(round_dir), "--seed", "7", "--dry-run", "--db", url)
    # Its own task by name: the option takes any task a kind's review part brings.
    named = ("--task", "verdict", "--dry-run", "--db", url)
    assert cli("review", "sample", str(round_dir), "--seed", "7", *named) == drawn
    # The kind's own rule: one output per model and language (2 x 2), not the app's draw.
    assert drawn.splitlines()[0] == "item_id,model_id"
    units = [tuple(line.split(",")) for line in drawn.splitlines()[1:]]
    assert sorted(model for _, model in units) == ["alfa", "alfa", "beta", "beta"]
    assert sum(1 for item, _ in units if item == "t-3") == 2  # the one English item
    said = cli("review", "sample", str(round_dir), "--seed", "7", "--db", url)
    assert said == "Batch 1 (verdict) of round toy-round: 4 samples drawn.\n"
    released(engine, 1)
    for name, token in tokens.items():
        queue = reviewing.my_queue(engine, token)
        assert len(queue) == 4  # every reviewer of the batch judges every sample
        assert reviewing.load_sample(engine, token, queue[0].code).task.task_type == "verdict"
        for entry in queue:
            reviewing.submit_judgment(engine, token, entry.code, "good" if name == "ana" else "bad")
    out = tmp_path / "export"
    said = cli("review", "export", str(round_dir), "--output", str(out), "--db", url)
    assert said.startswith("Round toy-round: 8 verdicts, 4 agree with the scores;")
    rows = (out / "verdicts.csv").read_text("utf-8").splitlines()
    assert rows[0] == "item_id,model_id,automatic,reviewer,verdict,agrees"
    # alfa's scores are all >= 5 (automatic "good"), beta's all below: ana agrees on
    # alfa's two samples, bia on beta's two.
    agreeing = sorted(tuple(row.split(",")[1:]) for row in rows[1:] if row.endswith(",yes"))
    assert agreeing == [
        ("alfa", "good", "R1", "good", "yes"),
        ("alfa", "good", "R1", "good", "yes"),
        ("beta", "bad", "R2", "bad", "yes"),
        ("beta", "bad", "R2", "bad", "yes"),
    ]
    refused = cli("review", "export", str(round_dir), "--output", str(out), "--db", url, code=1)
    assert "verdicts.csv: already exists (use --force to replace it)" in refused
    other = cli("review", "sample", str(round_dir), "--seed", "8", "--task", "audit", code=2)
    assert f"--task: a {toy.name} round needs verdict" in other


def test_the_toy_kinds_export_refuses_a_round_without_verdicts(
    toy: ToyKind, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    add_and_login(new_database(url), "ana")
    round_dir = write_toy_round(tmp_path / "rounds")
    target = tmp_path / "x"
    export = ("review", "export", str(round_dir), "--output", str(target), "--db", url)
    assert "Round toy-round is not in the review database." in cli(*export, code=1)
    cli("review", "sample", str(round_dir), "--seed", "7", "--db", url)
    assert "round toy-round: no verdict has been given yet" in cli(*export, code=1)
    assert not target.exists()


def mentions(root: Path, exempt: tuple[str, ...]) -> list[tuple[str, str]]:
    """(path, line) of every line of a file under `root` that names the kind, except in
    the `exempt` paths (a folder ends in "/"); caches and build outputs are not read."""
    found: list[tuple[str, str]] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not SKIPPED.match(d))
        for name in sorted(files):
            path = Path(folder, name)
            relative = path.relative_to(root).as_posix()
            if SKIPPED.match(name) or relative.startswith(exempt):
                continue
            for line in path.read_bytes().splitlines():
                if NAMED.search(line):
                    found.append((relative, line.decode("utf-8", "replace").strip()))
    return found


def test_no_file_outside_the_kinds_folder_names_it() -> None:
    for spelling in (NAME, ToyKind.__name__, ToyKind.__module__, "the toy kind", "toy_kind"):
        assert NAMED.search(spelling.encode()), spelling
    # The one registration line (tests/conftest.py: the fixture `plugin_kind` reads it).
    registration = ("tests/conftest.py", 'PLUGIN_KIND = "tests.support.toykind"')
    assert mentions(REPO, EXEMPT) == [registration]


def test_the_walk_finds_the_kind_named_anywhere_but_where_it_may_be(tmp_path: Path) -> None:
    files = {
        "reportgen/x.py": "from tests.support.toykind import ToyKind\n",
        "docs/x.md": "Like the\ntoy kind.\n",
        "review_app/y.py": "K = 'TOYKIND'\n",
        "tests/support/toykind/z.py": "NAME = 'toykind'\n",
        "tests/__pycache__/c.pyc": "toykind",
        ".mypy_cache/m.json": "toykind",
        "tests/other.py": "toy = 'a toy, not a kind'\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert mentions(tmp_path, ("tests/support/toykind/",)) == [
        ("docs/x.md", "toy kind."),
        ("reportgen/x.py", "from tests.support.toykind import ToyKind"),
        ("review_app/y.py", "K = 'TOYKIND'"),
    ]


def test_the_toy_kinds_verdicts_csv_is_the_same_bytes_for_the_same_database(
    toy: ToyKind, tmp_path: Path
) -> None:
    """Issue 20, point 8: verdicts.csv written twice from one database, and from a copy
    whose rows went in last first, is byte-identical."""
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    tokens = [add_and_login(engine, name) for name in ("ana", "bia")]
    round_dir = write_toy_round(tmp_path / "rounds")
    cli("review", "sample", str(round_dir), "--seed", "7", "--db", url)
    released(engine, 1)
    for verdict, token in zip(("good", "bad"), tokens, strict=True):
        for entry in reviewing.my_queue(engine, token):
            reviewing.submit_judgment(engine, token, entry.code, verdict)
    export = review_part(toy.name).export
    assert export is not None
    written = same_bytes(
        engine,
        lambda db, folder: export(ExportRequest(round_dir, folder, None, False, lambda: db)),
        tmp_path,
    )
    assert set(written) == {"verdicts.csv"}
    engine.dispose()
