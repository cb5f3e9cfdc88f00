"""Catalogues: same keys and placeholders in every language; locale number formats."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reportgen.i18n import (
    SITE_LANGUAGES,
    MissingMessageError,
    Translator,
    catalogue_keys,
    load_catalogue,
)

# The page builders and table builders (the templates only lay their text out).
PACKAGE = Path(__file__).resolve().parent.parent / "reportgen"
SOURCES = (PACKAGE / "render", PACKAGE / "kinds" / "estigmas" / "render")
STATIC_KEY = re.compile(r"\b(?:t|tm|tr)\(\s*[\"']([a-z_]+(?:\.[a-z_]+)+)[\"']")


def placeholders(message: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(message) if field}


def test_every_language_has_the_same_keys() -> None:
    keys = catalogue_keys()
    reference = keys[SITE_LANGUAGES[0]]
    for language in SITE_LANGUAGES[1:]:
        assert keys[language] - reference == set(), f"extra keys in {language}"
        assert reference - keys[language] == set(), f"keys missing in {language}"


def test_messages_are_non_empty_with_the_same_placeholders() -> None:
    catalogues = {language: load_catalogue(language) for language in SITE_LANGUAGES}
    for key, message in catalogues["pt-BR"].items():
        for language in SITE_LANGUAGES:
            assert catalogues[language][key].strip(), (language, key)
            assert placeholders(catalogues[language][key]) == placeholders(message), key


# The shared KindText reads the catalogue of the kind it serves (multidomain,
# counterfactual), not the Estigmas one: its keys are checked against those kinds'.
KIND_TEXT = PACKAGE / "render" / "text.py"
KIND_LOCALES = tuple(PACKAGE.glob("kinds/*/render/locales"))


def literal_keys(paths: list[Path]) -> set[str]:
    used: set[str] = set()
    for path in paths:
        used |= set(STATIC_KEY.findall(path.read_text(encoding="utf-8")))
    return used


def test_every_literal_key_used_exists() -> None:
    paths = [path for folder in SOURCES for path in folder.glob("*.py") if path != KIND_TEXT]
    used = literal_keys(paths)
    assert len(used) > 100
    for language, keys in catalogue_keys().items():
        assert used - keys == set(), f"missing in {language}"


def test_the_shared_kind_text_keys_exist_in_every_kind_catalogue() -> None:
    used = literal_keys([KIND_TEXT])
    assert {"word.yes", "number.interval"} <= used  # the scan still sees the calls
    assert len(KIND_LOCALES) >= 2
    for folder in KIND_LOCALES:
        for language in SITE_LANGUAGES:
            keys = flat_keys(json.loads((folder / f"{language}.json").read_text("utf-8")))
            assert used - keys == set(), f"missing in {folder / language}.json"


def flat_keys(catalogue: dict[str, object], prefix: str = "") -> set[str]:
    """The dotted keys of a nested catalogue (a flat one gives its own keys)."""
    keys: set[str] = set()
    for key, value in catalogue.items():
        name = f"{prefix}{key}"
        keys |= flat_keys(value, f"{name}.") if isinstance(value, dict) else {name}
    return keys


def test_missing_key_is_an_error_naming_the_catalogue() -> None:
    with pytest.raises(MissingMessageError, match=r"locales/en\.json: missing message key"):
        Translator("en")("no.such.key")


def test_numbers_follow_the_locale() -> None:
    pt, en = Translator("pt-BR"), Translator("en")
    assert pt.percent(0.013) == "1,3%"
    assert en.percent(0.013) == "1.3%"
    assert pt.integer(7626) == "7.626"
    assert en.integer(7626) == "7,626"
    assert pt.points(-0.178) == "−17,8 p.p."
    assert en.points(0.05) == "+5.0 pp"
    assert pt.percent(None) == "–"


def test_the_shared_half_up_declared_and_significant_formats() -> None:
    """The multidomain and counterfactual kinds write their numbers through these (issue 24,
    point 6): half-up on the exact value, declared values with their own decimals, p-values
    with significant digits and never in e-notation."""
    from decimal import Decimal
    from fractions import Fraction

    pt, en = Translator("pt-BR"), Translator("en")
    assert pt.rounded(Decimal("0.125"), 2) == "0,13"  # half-up; Babel alone gives 0,12
    assert en.rounded(Fraction(5, 6) * 100, 1) == "83.3"
    assert pt.rounded(Fraction(-1, 100), 1) == "0,0"  # never "−0,0"
    assert pt.rounded(Fraction(-1, 10), 1) == "−0,1"
    assert pt.rounded(Decimal("73171"), 0) == "73.171"
    assert pt.as_declared("0.01") == "0,01"
    assert pt.as_declared(0.2) == "0,2"
    assert en.as_declared("280000") == "280,000"
    assert pt.as_declared(Fraction(1, 20)) == "0,05"
    assert en.as_declared(Fraction(1, 3)) == "0.3333"
    assert pt.as_declared(Fraction(5), least=1) == "5,0"
    assert pt.significant(1.713e-05, 4) == "1,713\u00a0×\u00a010⁻⁵"
    assert en.significant(9.99996e-5, 4) == "1.000\u00a0×\u00a010⁻⁴"
    assert pt.significant(0.00418, 4) == "0,004180"
    assert en.significant(2013.5, 4) == "2,014"


@given(st.integers(min_value=0, max_value=10**9))
def test_integer_separators_swap_between_languages(value: int) -> None:
    pt, en = Translator("pt-BR").integer(value), Translator("en").integer(value)
    assert pt.replace(".", ",") == en
    assert int(pt.replace(".", "")) == value


@given(st.floats(min_value=0, max_value=1, allow_nan=False))
def test_percent_formats_agree(rate: float) -> None:
    pt, en = Translator("pt-BR").percent(rate), Translator("en").percent(rate)
    assert pt.endswith("%")
    assert pt.replace(".", "").replace(",", ".") == en.replace(",", "")
    assert abs(float(en.replace(",", "").rstrip("%")) - rate * 100) <= 0.05 + 1e-9


def test_every_computed_key_exists() -> None:
    """Keys built from data values (styles, bands, flags, columns...) exist for every value."""
    from reportgen.kinds.estigmas.model import AXES, GENDERS, ORIGINS, SCORED_STYLES, STYLES
    from reportgen.kinds.estigmas.render.context import INTERVAL_METRICS
    from reportgen.kinds.estigmas.render.reference_tables import (
        AXIS_COLUMNS,
        MODELS_KIND_HEADER,
        STIGMA_COLUMNS,
    )
    from reportgen.kinds.estigmas.render.site import NAV_PAGES
    from reportgen.kinds.estigmas.render.tables import PAGER_LABELS

    keys: set[str] = {f"style.{s}" for s in STYLES}
    keys |= {f"band.{b}" for b in ("low", "medium", "high")}
    keys |= {f"axis.{a}" for a in AXES} | {f"gender.{g}" for g in GENDERS}
    keys |= {f"origin.{o}" for o in ORIGINS}
    keys |= {f"metric.{m}" for m in (*INTERVAL_METRICS, "coverage")}
    keys |= {f"stats.flag.{f}" for f in ("none", "investigate", "serious")}
    keys |= {f"stats.method.{m}" for m in ("exact", "chi2")}
    metrics = ("abstention", "omission", "bias", "bias_among_decisions")
    keys |= {f"language.metric.{m}" for m in metrics}
    keys |= {f"language.regime.{r}" for r in ("abstention", "omission")}
    keys |= {f"language.chart.{r}" for r in ("abstention", "omission")}
    keys |= {f"method.regime.{s}.{p}" for s in SCORED_STYLES for p in ("evidence", "expected")}
    keys |= {f"dict.{c}" for c in (*MODELS_KIND_HEADER, *STIGMA_COLUMNS, *AXIS_COLUMNS)}
    keys |= {key for _, key in NAV_PAGES}
    keys |= {f"table.pager.{name}" for name in PAGER_LABELS}
    audit = ("samples_judged", "judgments", "reviewers", "adjudicated")
    keys |= {f"audit.{k}" for k in (*audit, "kappa_majority_vs_parser", "alpha_reviewers")}
    for language, present in catalogue_keys().items():
        assert keys - present == set(), f"missing in {language}"
