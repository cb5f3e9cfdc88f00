"""One Catalogue, one plural syntax, one exact-number writer, one missing-value dash, one
Benjamini-Hochberg and one Krippendorff's alpha (issue 20, point 4).

The site, each kind and the review app read their messages through
`reportgen.i18n.Catalogue`; every plural form is `key.one` / `key.other`; numbers are rounded
half-up by `reportgen.i18n` alone; the review app shows a missing value with the site's
dash; the statistics shared by the kinds and the review app are written in `reportgen.stats`.
"""

from __future__ import annotations

import re
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from reportgen.i18n import (
    MISSING,
    Catalogue,
    MissingMessageError,
    exact_text,
    load_catalogue,
    read_catalogue,
)
from reportgen.kinds.counterfactual.render.text import catalogue as cf_catalogue
from reportgen.kinds.multidomain.render.text import catalogue as md_catalogue
from reportgen.kinds.multidomain.review import format as md_format
from reportgen.render.text import DASH
from review_app.i18n import CATALOGUES, translate

REPO = Path(__file__).resolve().parents[1]
SOURCES = sorted((*(REPO / "reportgen").rglob("*.py"), *(REPO / "review_app").rglob("*.py")))


def _source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _relative(path: Path) -> str:
    return str(path.relative_to(REPO))


def _every_catalogue() -> dict[str, Catalogue]:
    found: dict[str, Catalogue] = {}
    for language in ("pt-BR", "en"):
        found[f"site {language}"] = load_catalogue(language)
        found[f"multidomain {language}"] = md_catalogue(language)
        found[f"counterfactual {language}"] = cf_catalogue(language)
        found[f"review app {language}"] = CATALOGUES[language]
    return found


def test_every_catalogue_is_read_by_the_one_loader() -> None:
    assert all(isinstance(c, Catalogue) for c in _every_catalogue().values())
    # No other module opens a locales/ JSON file itself.
    readers = [
        _relative(path)
        for path in SOURCES
        if "locales" in _source(path) and re.search(r"\bjson\.loads?\(", _source(path))
    ]
    assert readers == ["reportgen/i18n.py"]


def test_one_plural_syntax() -> None:
    for name, catalogue in _every_catalogue().items():
        hashed = [key for key in catalogue if "#" in key]
        assert not hashed, f"{name}: plural keys must be key.one / key.other, found {hashed}"
    review = CATALOGUES["en"]
    assert review.has_plural("batch_samples")
    assert translate("en", "batch_samples", count=1) == review["batch_samples.one"].format(count=1)
    assert translate("en", "batch_samples", count=3) == review["batch_samples.other"].format(
        count=3
    )
    assert review.plural_key("batch_samples", 0) == "batch_samples.other"
    assert CATALOGUES["pt-BR"].plural_key("batch_samples", 0) == "batch_samples.one"


def test_a_missing_key_names_its_catalogue() -> None:
    with pytest.raises(MissingMessageError, match=r"multidomain locales/en\.json: missing"):
        md_catalogue("en").message("no.such.key")
    with pytest.raises(MissingMessageError, match=r"review_app locales/pt-BR\.json: missing"):
        CATALOGUES["pt-BR"].message("no_such_key")
    with pytest.raises(KeyError):  # the review app's translate keeps its KeyError
        translate("en", "no_such_key")


def test_a_catalogue_that_is_not_an_object_of_strings_is_refused(tmp_path: Path) -> None:
    package = tmp_path / "badcatalogue"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "en.json").write_text('{"a": 1}', encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        with pytest.raises(MissingMessageError, match=r"badcatalogue/en\.json: expected"):
            read_catalogue("badcatalogue", "en.json", "en")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("badcatalogue", None)


@pytest.mark.parametrize(
    ("value", "places", "language", "plain", "expected"),
    [
        (Fraction(1, 8), 2, "en", False, "0.13"),  # half-up, not half-even
        (0.125, 2, "pt-BR", False, "0,13"),  # a float rounds on its shortest repr
        (2.675, 2, "en", True, "2.68"),  # 2.675 is below 2.675 in binary; its repr is not
        (Decimal("-1234.565"), 2, "en", False, "\u22121,234.57"),
        (Decimal("-1234.565"), 2, "en", True, "-1234.57"),  # plain: the CLI's text
        (Fraction(-1, 1000), 2, "pt-BR", False, "0,00"),  # never a signed zero
        (7, 1, "pt-BR", False, "7,0"),
    ],
)
def test_the_one_exact_number_writer(
    value: Decimal | Fraction | float | int, places: int, language: str, plain: bool, expected: str
) -> None:
    assert exact_text(value, places, language, plain=plain) == expected


def test_half_up_rounding_is_written_once() -> None:
    rounding = re.compile(r"ROUND_HALF_UP|\+ Fraction\(1, 2\)\)|\+ 0\.5\)")
    places = [_relative(p) for p in SOURCES if rounding.search(_source(p))]
    assert places == ["reportgen/i18n.py"]


def test_the_review_app_shows_a_missing_value_with_the_sites_dash() -> None:
    assert MISSING == DASH == md_format.DASH == "\u2013"
    em_dash_values = [
        _relative(p)
        for p in (REPO / "review_app").rglob("*.py")
        if re.search(r"\"\u2014\"", _source(p))
    ]
    assert em_dash_values == []
    own_dashes = [p for p in SOURCES if re.search(r"\"\u2013\"", _source(p))]
    assert [_relative(p) for p in own_dashes] == [], "a missing value is i18n.MISSING"


def test_benjamini_hochberg_and_krippendorffs_alpha_are_written_once() -> None:
    outside = [p for p in SOURCES if "reportgen/stats/" not in _relative(p)]
    step_up = [_relative(p) for p in outside if "minimum.accumulate" in _source(p)]
    assert step_up == [], "Benjamini-Hochberg outside reportgen.stats"
    multitest = [_relative(p) for p in outside if "statsmodels.stats.multitest" in _source(p)]
    assert multitest == [], "Benjamini-Hochberg outside reportgen.stats"
    for path in outside:
        source = _source(path)
        if re.search(r"^def \w*alpha\w*\(", source, re.MULTILINE):
            assert "krippendorff_alpha" in source, f"{_relative(path)}: its own alpha"
