"""The site configuration, theme and rounds the build tests (and the browser tests) share."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from reportgen.build import build_site, find_rounds
from tests.factories._archives import DEFAULT_MODELS, make_round

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "site.yml"  # the repository's own: placeholders left, so a draft site
THEME = REPO / "templates" / "overrides"  # what --templates names: the theme overrides
INJECTED = '<script>alert("x")</script> & <b>bold</b>'
PAGES = (
    "index",
    "ranking",
    "models",
    "compare",
    "bias",
    "language",
    "continuous",
    "methodology",
    "audit",
    "contestations",
    "data",
)


def complete_config(directory: Path) -> Path:
    """The repository's site.yml with every !placeholder tag dropped: complete metadata
    (the example values then count as the article's)."""
    path = directory / "site-complete.yml"
    text = CONFIG.read_text(encoding="utf-8").replace("!placeholder ", "")
    path.write_text(text, encoding="utf-8")
    return path


def tiny_rounds(root: Path) -> list[Path]:
    """A full round (one model with a hostile name) and a continuous round with an annulment."""
    models = (*DEFAULT_MODELS[:2], replace(DEFAULT_MODELS[2], display_name=INJECTED))
    root.mkdir(parents=True, exist_ok=True)
    full = make_round(root, models=models)
    continuous = make_round(root, round_id="tiny-cont", variant="continuous", annul=["i-007"])
    return [full, continuous]


def build_tiny(tmp: Path, out: Path | None = None) -> Path:
    rounds = tiny_rounds(tmp / "rounds") if not (tmp / "rounds").exists() else None
    out = out or tmp / "site"
    build_site(
        rounds or find_rounds(tmp / "rounds"),
        out,
        config_path=CONFIG,
        theme_dir=THEME,
        cache_dir=tmp / "cache",
    )
    return out


DEMO_ROUNDS = REPO / "rounds"


def demonstration_rounds(work: Path) -> list[Path]:
    """The committed demonstration rounds, or freshly generated ones while none are committed."""
    if DEMO_ROUNDS.is_dir() and any(DEMO_ROUNDS.glob("*/round.json")):
        return find_rounds(DEMO_ROUNDS)
    from reportgen.demo.generate import generate_demo_rounds

    generate_demo_rounds(work / "rounds")
    return find_rounds(work / "rounds")
