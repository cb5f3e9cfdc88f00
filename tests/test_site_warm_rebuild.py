"""A rebuild after `reportgen add-model`, with the caches of the build before it (drawings,
guard verdicts, results), gives the same site, byte for byte, as a cold build of the
grown round with empty caches (issue 19, the site at scale)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from reportgen.build import build_site
from reportgen.cli import main
from reportgen.render import shell_convert
from tests.factories import CONFIG, THEME
from tests.support.continuous_round import ScaleRound

pytestmark = pytest.mark.slow

MODELS = 4


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def test_a_warm_rebuild_after_add_model_equals_a_cold_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scale = ScaleRound()
    (tmp_path / "rounds").mkdir()
    archive = scale.write(tmp_path / "rounds", MODELS, replicates=1000)
    warm_site, warm_cache = tmp_path / "warm", tmp_path / "warm-cache"
    build_site([archive], warm_site, config_path=CONFIG, theme_dir=THEME, cache_dir=warm_cache)
    before = _files(warm_site)

    model = scale.write_responses(MODELS, tmp_path / "new.parquet")
    added = CliRunner().invoke(
        main,
        [
            "add-model", str(archive), str(tmp_path / "new.parquet"),
            "--model-id", model.model_id, "--display-name", model.display_name,
            "--provider", model.provider, "--api-identifier", model.api_identifier,
            "--evaluated-on", "2026-07-02",
        ],
    )  # fmt: skip
    assert added.exit_code == 0, added.output
    converted: list[str] = []
    convert = shell_convert._convert

    def counted(converters: Any, conversion: shell_convert.Conversion) -> Any:
        converted.append(conversion.url)
        return convert(converters, conversion)

    monkeypatch.setattr(shell_convert, "_convert", counted)
    build_site([archive], warm_site, config_path=CONFIG, theme_dir=THEME, cache_dir=warm_cache)
    monkeypatch.undo()
    cold_site = tmp_path / "cold"
    build_site([archive], cold_site, config_path=CONFIG, theme_dir=THEME, cache_dir=tmp_path / "c")

    warm, cold = _files(warm_site), _files(cold_site)
    assert sorted(warm) == sorted(cold)
    assert [name for name in warm if warm[name] != cold[name]] == []
    # The rebuild did show the new model (the caches did not answer for the old round).
    assert f"models/{model.model_id}.html" in warm
    assert f"models/{model.model_id}.html" not in before
    # Its kept guard verdicts and drawings were used: the caches hold entries.
    assert any((warm_cache / "guard").iterdir())
    assert any((warm_cache / "svg").iterdir())
    # The model pages kept from the build before were not converted again: their ranks
    # and paired comparisons, which the new model changed, are deferred blocks. Only the
    # new model's pages and its neighbours' (whose compare link names it) were.
    models = [name for name in warm if "/models/" in f"/{name}" and name.endswith(".html")]
    assert len(models) == 2 * (MODELS + 1)
    assert f"models/{model.model_id}.html" in converted
    assert f"en/models/{model.model_id}.html" in converted
    assert len(converted) <= 2 * 3, converted
