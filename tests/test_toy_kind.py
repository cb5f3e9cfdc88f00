"""A kind registered in the tests only goes through every stage with no core change:
archive, verify, summary, stats, a bilingual site (alone, and beside Estigmas), the leak
guard, a review sample and its own review part (sample and export through the CLI); and
it is one folder (tests/support/toykind/) that no other file names but its registration
line (issue 20, point 7; docs/adding-a-kind.md)."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.build import build_site
from reportgen.cli import main
from reportgen.errors import ReportgenError
from reportgen.guard import LeakError
from reportgen.kinds import Kind, get_kind, register_kind, unregister_kind
from reportgen.kinds.rounds import read_round, write_round
from reportgen.model import Manifest, Model
from review_app.rounds import admin
from review_app.rounds.sampling import create_batch
from review_app.tasks import reviewing
from tests.factories import CONFIG, THEME, make_round
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

        def site(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
            return super(ToyKind, self).site(*args, **kwargs)  # type: ignore[arg-type]

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
