"""The REG-BC-2026-001 profile (multidomain-round.md, "Profile"; refusal 3).

A round of this profile holds the profile's value at each path below or lists the
path (or a path above it) in `deviations`. Numbers and thresholds compare as exact
rationals, so "3/5", "0.6" and 0.6 are one value.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction

from reportgen.archive import FileProblems
from reportgen.kinds.multidomain.model import PROFILE, PROFILE_VERSION
from reportgen.kinds.multidomain.terms import read_threshold

_DOMAIN_IDS = ["juridica", "medica", "proptech", "compliance", "bank", "energia", "negocios"]
# REG-BC-2026-001 1.0: path in round.json -> the value the profile sets (JSON as written).
PROFILE_VALUES: dict[str, object] = {
    "languages": ["pt-BR", "en", "zh"],
    "generation.temperature": 0.2,
    "generation.max_tokens": 2048,
    "generation.timeout_s": 120,
    "generation.tools": [],
    "bootstrap.replicates": 1000,
    "multidomain.cast_size": 15,
    "multidomain.domains": _DOMAIN_IDS,  # compared on the ids
    "multidomain.weights": {"mcq": 2, "open": 5, "calc": 3},
    "multidomain.composition": {
        domain: {
            "language": {"pt-BR": 34, "en": 33, "zh": 33},
            "type": {"mcq": 60, "open": 25, "calc": 15},
        }
        for domain in _DOMAIN_IDS
    },
    "multidomain.grade_counts": {"1": 21, "2": 287, "3": 329, "4": 49, "5": 14},
    "multidomain.grade_rules": {"min_distinct": 3, "high_grade": 4, "high_min_share": "1/20"},
    "multidomain.max_points": 2030,
    "multidomain.runs": 3,
    "multidomain.jury.size": 3,
    "multidomain.jury.scale": [0, 5],
    "multidomain.jury.adjudicate_above": "3/2",
    "multidomain.audit.fraction": "1/10",
    "multidomain.audit.min_per_stratum": 3,
    "multidomain.audit.invalidate_above": "1",
    "multidomain.calibration": {"jurors": 3, "reviewers": 2, "hit_rate_band": ["1/5", "19/20"]},
    "multidomain.contamination": {"ngram": 8, "flag_above": "3/5", "canary_partial_min_chars": 8},
    "multidomain.technical_tie": "half_mean_width",
    "multidomain.pairwise": {
        "elo_initial": 1500,
        "k": 16,
        "scale": 400,
        "base": 10,
        "bt_mean": 1500,
    },
    "multidomain.embargo_days": 90,
    "multidomain.contest_window_days": 10,
    "multidomain.reply_days": 10,
    "multidomain.retention_months": 24,
}


_ABSENT = "(absent)"


def check_profile(
    data: Mapping[str, object], deviation_keys: list[str], found: FileProblems
) -> None:
    """One problem per profile path whose value differs where no deviation names it."""
    for path, expected in PROFILE_VALUES.items():
        actual = _value_at(data, path)
        if path == "multidomain.domains" and isinstance(actual, list):
            actual = [entry.get("id") if isinstance(entry, dict) else entry for entry in actual]
        differing = [
            (leaf, want, got)
            for leaf, want, got in _leaves(path, expected, actual)
            if _normal(want) != _normal(got) and not _covered(leaf, deviation_keys)
        ]
        if not differing:
            continue
        leaf, want, got = differing[0]
        more = f" (and {len(differing) - 1} more differing value(s))" if len(differing) > 1 else ""
        found.add(
            leaf,
            f"profile {PROFILE} {PROFILE_VERSION} sets {_shown(want)}, the round has "
            f"{_shown(got)}{more}: use the profile's value or list a deviation for {leaf}",
        )


def _value_at(data: object, path: str) -> object:
    for part in path.split("."):
        if not isinstance(data, dict) or part not in data:
            return _ABSENT
        data = data[part]
    return data


def _leaves(path: str, expected: object, actual: object) -> list[tuple[str, object, object]]:
    if isinstance(expected, dict) and isinstance(actual, dict):
        keys = list(dict.fromkeys([*expected, *actual]))
        return [
            leaf
            for key in keys
            for leaf in _leaves(
                f"{path}.{key}", expected.get(key, _ABSENT), actual.get(key, _ABSENT)
            )
        ]
    return [(path, expected, actual)]


def _covered(leaf: str, deviation_keys: list[str]) -> bool:
    return any(leaf == key or leaf.startswith(key + ".") for key in deviation_keys)


def _normal(value: object) -> object:
    """Numbers and thresholds as exact rationals, so that "0.6", "3/5" and 0.6 agree."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, float):
        return Fraction(repr(value))
    if isinstance(value, int | str):
        parsed = read_threshold(value)
        return value if parsed is None else parsed
    if isinstance(value, list):
        return [_normal(v) for v in value]
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items()}
    return value


def _shown(value: object) -> str:
    return _ABSENT if value == _ABSENT else json.dumps(value, ensure_ascii=False)
