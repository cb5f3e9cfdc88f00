"""round.json: the common keys checked by the core, the kind's block by its kind.

`check_manifest` collects every problem instead of stopping at the first one,
because `reportgen verify` must list them all in one run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from datetime import date
from pathlib import Path
from typing import Any, cast

from reportgen.archive._kind import (
    KT,
    ArchiveKind,
    KindCatalogue,
    Kinds,
    UnknownKindError,
    kind_for_format,
)
from reportgen.archive._layout import (
    FORMAT,
    MANIFEST_FILE,
    SLUG,
    is_int,
    is_number,
    parse_iso_date,
    read_text_file,
)
from reportgen.archive._problems import FileProblems, Problems
from reportgen.model import TEXT_LANGUAGES, Interpretation, Manifest

# The order in which round.json lists its common keys (the writer keeps it).
COMMON_KEYS: tuple[str, ...] = (
    "format",
    "round_id",
    "kind",
    "title",
    "synthetic",
    "collected_on",
    "protocol_frozen_on",
    "ended_on",
    "languages",
    "generation",
    "bootstrap",
    "interpretations",
)
# Bounds of bootstrap.replicates (docs/metrics.md): verify accepts 1 to MAX_BOOTSTRAP_REPLICATES
# (beyond it the replicate arrays outgrow a laptop's memory); `reportgen stats` and `build`
# refuse fewer than MIN_PUBLICATION_REPLICATES without --draft (too few for stable 95% ends).
MAX_BOOTSTRAP_REPLICATES = 100_000
MIN_PUBLICATION_REPLICATES = 1_000
_BCP47 = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*")
_SHA256 = re.compile(r"[0-9a-f]{64}")


def read_manifest_data(round_dir: Path, problems: Problems) -> object:
    """round.json parsed as JSON (None after reporting why it could not be).

    A key given twice in one object is a problem: JSON readers disagree on which wins.
    """
    found = problems.in_file(MANIFEST_FILE)
    text = read_text_file(round_dir / MANIFEST_FILE, found)
    if text is None:
        return None
    doubled: list[str] = []

    def no_doubles(pairs: list[tuple[str, object]]) -> dict[str, object]:
        seen: dict[str, object] = {}
        for key, value in pairs:
            if key in seen:
                doubled.append(key)
            seen[key] = value
        return seen

    try:
        data = json.loads(text, object_pairs_hook=no_doubles)
    except json.JSONDecodeError as error:
        found.add(f"line {error.lineno}", f"not valid JSON: {error.msg}")
        return None
    for key in doubled:
        found.add(key, "duplicate key: a key may appear only once in an object")
    return None if doubled else data


def language_texts(value: object) -> dict[str, str] | None:
    """{"pt-BR": ..., "en": ...} with non-empty strings, or None."""
    if (
        not isinstance(value, dict)
        or set(value) != set(TEXT_LANGUAGES)
        or not all(isinstance(v, str) and v for v in value.values())
    ):
        return None
    return cast(dict[str, str], value)


def check_manifest(
    data: object,
    problems: Problems,
    *,
    kinds: Kinds,
    folder_name: str | None,
    raw: bool = False,
) -> Manifest | None:
    """Check round.json's content; return the kind's manifest when it is valid.

    `folder_name`, when given, is what `round_id` must equal. `raw`: a round before
    freeze (its kind may then leave out what freeze records).
    """
    found = problems.in_file(MANIFEST_FILE)
    if not isinstance(data, dict):
        found.add("", "expected a JSON object")
        return None
    mark = problems.mark()
    format_name = data.get("format")
    if format_name != FORMAT:
        legacy = kind_for_format(kinds, format_name) if isinstance(format_name, str) else None
        if legacy is None:
            _bad_format(data, found, kinds)
            return None
        data, rename = legacy.upgrade_manifest(data)
        found = problems.in_file(MANIFEST_FILE, rename=rename)
    kind = _check_kind(data, found, kinds)
    _check_keys(data, kind, found, kinds)
    core = _check_common(data, found, folder_name=folder_name)
    if kind is None or core is None or not problems.ok_since(mark):
        return None
    block = data[kind.name]
    return kind.parse_manifest(core, cast(Mapping[str, object], block), data, found, raw=raw)


def kind_of_round(round_dir: Path, *, kinds: KindCatalogue[KT]) -> KT:
    """The kind of the round (raw or frozen) at `round_dir`, from its round.json alone;
    ArchiveError when round.json does not name a known kind. Commands that hand a whole
    round to its kind (freeze, add-model) start here."""
    problems = Problems()
    data = read_manifest_data(round_dir, problems)
    found = problems.in_file(MANIFEST_FILE)
    kind: KT | None = None
    if isinstance(data, dict):
        legacy = kind_for_format(kinds, str(data.get("format")))
        kind = legacy if legacy is not None else _check_kind(data, found, kinds)
    elif data is not None:
        found.add("", "expected a JSON object")
    if kind is None and problems.count == 0:  # every path above reports why; a safety net
        found.add("kind", "no kind could be read")
    problems.raise_if_any(str(round_dir))
    assert kind is not None  # raise_if_any raised otherwise
    return kind


def _bad_format(data: Mapping[str, object], found: FileProblems, kinds: Kinds) -> None:
    if "format" not in data:
        found.add("format", "missing key")
        return
    legacy = sorted(f for kind in kinds.registered_kinds() for f in kind.legacy_formats)
    expected = " or ".join(repr(f) for f in (FORMAT, *legacy))
    found.add("format", f"unknown format {data['format']!r}: expected {expected}")


def _check_kind(
    data: Mapping[str, object], found: FileProblems, kinds: KindCatalogue[KT]
) -> KT | None:
    name = data.get("kind")
    if "kind" not in data:
        found.add("kind", "missing key")
        return None
    if not isinstance(name, str):
        found.add("kind", f"expected the name of a kind, got {name!r}")
        return None
    try:
        return kinds.get_kind(name)
    except UnknownKindError as error:
        found.add("kind", str(error))
        return None


def _check_keys(
    data: Mapping[str, object],
    kind: ArchiveKind | None,
    found: FileProblems,
    kinds: Kinds,
) -> None:
    names = kinds.kind_names()
    for key in COMMON_KEYS:
        if key not in data:
            found.add(key, "missing key")
    other_blocks = [key for key in data if key in names and (kind is None or key != kind.name)]
    for key in data:
        if key not in COMMON_KEYS and key not in names:
            expected = ", ".join((*COMMON_KEYS, kind.name if kind else "<kind>"))
            found.add(str(key), f"unknown key (expected only: {expected})")
    if kind is None:
        return
    if kind.name not in data and len(other_blocks) == 1:
        found.add(
            "kind",
            f"kind is {kind.name!r} but the kind block is {other_blocks[0]!r}: "
            f"expected an object named {kind.name!r}",
        )
        return
    if kind.name not in data:
        found.add(kind.name, f"missing kind block: expected an object named {kind.name!r}")
    elif not isinstance(data[kind.name], dict):
        found.add(kind.name, "expected a JSON object (the kind's block)")
    for key in other_blocks:
        found.add(
            key, f"a second kind block: a round has exactly one, named by its kind ({kind.name!r})"
        )


def _check_common(  # one flat check per key, in the spec's order: long but plain
    data: Mapping[str, object], found: FileProblems, *, folder_name: str | None
) -> Manifest | None:
    ok = found.problems.mark()
    round_id = data.get("round_id")
    if "round_id" in data:
        if not isinstance(round_id, str) or not SLUG.fullmatch(round_id):
            found.add("round_id", f"{round_id!r} is not a slug [a-z0-9][a-z0-9-]*")
        elif folder_name is not None and round_id != folder_name:
            found.add("round_id", f"{round_id!r} must equal the folder name {folder_name!r}")
    title = language_texts(data.get("title"))
    if "title" in data and title is None:
        found.add("title", 'expected {"pt-BR": "...", "en": "..."} with non-empty strings')
    synthetic = data.get("synthetic")
    if "synthetic" in data and not isinstance(synthetic, bool):
        found.add("synthetic", f"expected true or false, got {synthetic!r}")
    collected_on = _date(data, "collected_on", found)
    protocol_frozen_on = _date(data, "protocol_frozen_on", found)
    ended_on = _date(data, "ended_on", found) if data.get("ended_on") is not None else None
    if collected_on and protocol_frozen_on and protocol_frozen_on > collected_on:
        found.add("protocol_frozen_on", "expected a date on or before collected_on")
    if collected_on and ended_on and ended_on < collected_on:
        found.add("ended_on", f"expected a date on or after collected_on ({collected_on})")
    languages = data.get("languages")
    if "languages" in data and (
        not isinstance(languages, list)
        or not languages
        or len(set(map(str, languages))) != len(languages)
        or not all(isinstance(x, str) and _BCP47.fullmatch(x) for x in languages)
    ):
        found.add("languages", 'expected a list of distinct BCP-47 tags, e.g. ["pt-BR", "en"]')
    generation = data.get("generation")
    if "generation" in data and not _check_generation(generation):
        found.add(
            "generation",
            "expected an object: temperature a number, seed an integer or null, max_tokens a "
            "positive integer, timeout_s a positive number, system_prompt_sha256 64 hex digits",
        )
    bootstrap = data.get("bootstrap")
    replicates = bootstrap.get("replicates") if isinstance(bootstrap, dict) else None
    seed = bootstrap.get("seed") if isinstance(bootstrap, dict) else None
    if "bootstrap" in data and (
        not isinstance(bootstrap, dict)
        or set(bootstrap) != {"replicates", "seed"}
        or not is_int(replicates)
        or not 1 <= cast(int, replicates) <= MAX_BOOTSTRAP_REPLICATES
        or not is_int(seed)
        or cast(int, seed) < 0
    ):
        found.add(
            "bootstrap",
            f'expected {{"replicates": an integer from 1 to {MAX_BOOTSTRAP_REPLICATES:,},'
            f' "seed": a non-negative integer}}, found {json.dumps(bootstrap)}',
        )
    interpretations = _interpretations(data.get("interpretations", []), found)
    if not found.problems.ok_since(ok) or "format" not in data:
        return None
    return Manifest(
        format=cast(str, data["format"]),
        round_id=cast(str, round_id),
        kind=cast(str, data["kind"]),
        title=cast(dict[str, str], title),
        synthetic=cast(bool, synthetic),
        collected_on=cast(date, collected_on),
        protocol_frozen_on=cast(date, protocol_frozen_on),
        ended_on=ended_on,
        languages=tuple(cast(list[str], languages)),
        generation=cast(Mapping[str, object], generation),
        bootstrap_replicates=cast(int, replicates),
        bootstrap_seed=cast(int, seed),
        interpretations=interpretations or (),
    )


def _date(data: Mapping[str, object], key: str, found: FileProblems) -> date | None:
    value = data.get(key)
    if key not in data:
        return None
    parsed = parse_iso_date(value) if isinstance(value, str) else None
    if parsed is None:
        found.add(key, f"expected an ISO date YYYY-MM-DD, got {value!r}")
    return parsed


def _check_generation(generation: object) -> bool:
    if not isinstance(generation, dict):
        return False
    checks: dict[str, Callable[[Any], object]] = {
        "temperature": is_number,
        "seed": lambda v: v is None or is_int(v),
        "max_tokens": lambda v: is_int(v) and v > 0,
        "timeout_s": lambda v: is_number(v) and v > 0,
        "system_prompt_sha256": lambda v: (
            v is None or (isinstance(v, str) and _SHA256.fullmatch(v))
        ),
    }
    return all(bool(check(generation[key])) for key, check in checks.items() if key in generation)


def _interpretations(value: object, found: FileProblems) -> tuple[Interpretation, ...] | None:
    expected = (
        'expected a list of {"id": "...", "topic": {"pt-BR", "en"}, "reading": {"pt-BR", "en"}}'
        " with distinct ids"
    )
    if not isinstance(value, list):
        found.add("interpretations", expected)
        return None
    parsed: list[Interpretation] = []
    for entry in value:
        topic = language_texts(entry.get("topic")) if isinstance(entry, dict) else None
        reading = language_texts(entry.get("reading")) if isinstance(entry, dict) else None
        ident = entry.get("id") if isinstance(entry, dict) else None
        if (
            not isinstance(entry, dict)
            or set(entry) != {"id", "topic", "reading"}
            or not isinstance(ident, str)
            or not ident
            or topic is None
            or reading is None
        ):
            found.add("interpretations", expected)
            return None
        parsed.append(Interpretation(ident, topic, reading))
    if len({i.id for i in parsed}) != len(parsed):
        found.add("interpretations", expected)
        return None
    return tuple(parsed)


def manifest_to_dict(manifest: Manifest, *, kinds: Kinds) -> dict[str, object]:
    """The content of round.json (version 2) for `manifest`, keys in the spec's order."""
    kind = kinds.get_kind(manifest.kind)
    return {
        "format": FORMAT,
        "round_id": manifest.round_id,
        "kind": manifest.kind,
        "title": {language: manifest.title[language] for language in TEXT_LANGUAGES},
        "synthetic": manifest.synthetic,
        "collected_on": manifest.collected_on.isoformat(),
        "protocol_frozen_on": manifest.protocol_frozen_on.isoformat(),
        "ended_on": manifest.ended_on.isoformat() if manifest.ended_on else None,
        "languages": list(manifest.languages),
        "generation": dict(manifest.generation),
        "bootstrap": {"replicates": manifest.bootstrap_replicates, "seed": manifest.bootstrap_seed},
        "interpretations": [
            {"id": i.id, "topic": dict(i.topic), "reading": dict(i.reading)}
            for i in manifest.interpretations
        ],
        kind.name: kind.manifest_block(manifest),
    }


def manifest_from_dict(data: object, *, kinds: Kinds, folder_name: str | None = None) -> Manifest:
    """The inverse of `manifest_to_dict`; raises ArchiveError listing every problem."""
    problems = Problems()
    manifest = check_manifest(data, problems, kinds=kinds, folder_name=folder_name)
    problems.raise_if_any(MANIFEST_FILE)
    assert manifest is not None  # no problem means a manifest
    return manifest
