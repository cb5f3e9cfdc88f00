"""round.json: the manifest of a round archive, checked key by key.

`check_manifest` collects every problem instead of stopping at the first one,
because `reportgen verify` must list them all in one run.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from typing import cast

from reportgen.errors import ArchiveError, Problem
from reportgen.model import FORMAT, KINDS, LANGUAGES, Manifest

MANIFEST_FILE = "round.json"
SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")

# The order in which round.json lists its keys (the writer keeps it for stable bytes).
MANIFEST_KEYS: tuple[str, ...] = (
    "format",
    "round_id",
    "kind",
    "title",
    "collected_on",
    "protocol_frozen_on",
    "contract_version",
    "parser_version",
    "generation",
    "instruction",
    "eligibility",
    "peril_bands",
    "bootstrap",
    "synthetic",
    "parent_round",
)
GENERATION_KEYS = ("temperature", "seed", "system_prompt")


def manifest_to_dict(manifest: Manifest) -> dict[str, object]:
    """The content of round.json for `manifest`, keys in the spec's order."""
    return {
        "format": manifest.format,
        "round_id": manifest.round_id,
        "kind": manifest.kind,
        "title": {language: manifest.title[language] for language in LANGUAGES},
        "collected_on": manifest.collected_on.isoformat(),
        "protocol_frozen_on": manifest.protocol_frozen_on.isoformat(),
        "contract_version": manifest.contract_version,
        "parser_version": manifest.parser_version,
        "generation": dict(manifest.generation),
        "instruction": {language: manifest.instruction[language] for language in LANGUAGES},
        "eligibility": {"max_omission": manifest.max_omission},
        "peril_bands": list(manifest.peril_bands),
        "bootstrap": {
            "replicates": manifest.bootstrap_replicates,
            "seed": manifest.bootstrap_seed,
        },
        "synthetic": manifest.synthetic,
        "parent_round": manifest.parent_round,
    }


def manifest_from_dict(data: object, *, folder_name: str | None = None) -> Manifest:
    """The inverse of `manifest_to_dict`; raises ArchiveError listing every problem."""
    problems: list[Problem] = []
    manifest = check_manifest(data, problems, folder_name=folder_name)
    if manifest is None or problems:
        raise ArchiveError(MANIFEST_FILE, problems)
    return manifest


def _is_number(value: object) -> bool:
    # bool is an int subclass in Python, but `true` is not a number in round.json.
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_iso_date(text: str) -> date | None:
    """A strict YYYY-MM-DD date (date.fromisoformat alone also accepts 20240101)."""
    if not _ISO_DATE.fullmatch(text):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def check_manifest(
    data: object,
    problems: list[Problem],
    *,
    folder_name: str | None,
    require_parser_version: bool = True,
) -> Manifest | None:
    """Check round.json's content; append problems; return the Manifest when it is valid.

    `folder_name`, when given, is what `round_id` must equal. A raw round (before
    freeze) may omit `parser_version`: freeze records its own.
    """
    start = len(problems)

    def bad(key: str, message: str) -> None:
        problems.append(Problem(MANIFEST_FILE, key, message))

    if not isinstance(data, dict):
        bad("", "expected a JSON object")
        return None
    optional = set() if require_parser_version else {"parser_version"}
    for key in MANIFEST_KEYS:
        if key not in data and key not in optional:
            bad(key, "missing key")
    for key in data:
        if key not in MANIFEST_KEYS:
            bad(str(key), f"unknown key (expected only: {', '.join(MANIFEST_KEYS)})")

    def text(key: str) -> str | None:
        value = data.get(key)
        if key in data and (not isinstance(value, str) or not value):
            bad(key, "expected a non-empty string")
            return None
        return value if isinstance(value, str) else None

    def language_texts(key: str) -> dict[str, str] | None:
        value = data.get(key)
        if key not in data:
            return None
        if (
            not isinstance(value, dict)
            or set(value) != set(LANGUAGES)
            or not all(isinstance(v, str) and v for v in value.values())
        ):
            bad(key, 'expected {"pt-BR": "...", "en": "..."} with non-empty strings')
            return None
        return cast(dict[str, str], value)

    def iso(key: str) -> date | None:
        value = data.get(key)
        if key not in data:
            return None
        parsed = parse_iso_date(value) if isinstance(value, str) else None
        if parsed is None:
            bad(key, f"expected an ISO date YYYY-MM-DD, got {value!r}")
        return parsed

    if "format" in data and data["format"] != FORMAT:
        bad("format", f"expected {FORMAT!r}, got {data['format']!r}")
    round_id = text("round_id")
    if round_id is not None:
        if not SLUG.fullmatch(round_id):
            bad("round_id", f"{round_id!r} is not a slug [a-z0-9][a-z0-9-]*")
        elif folder_name is not None and round_id != folder_name:
            bad("round_id", f"{round_id!r} must equal the folder name {folder_name!r}")
    kind = data.get("kind")
    if "kind" in data and kind not in KINDS:
        bad("kind", f"expected one of {', '.join(KINDS)}, got {kind!r}")
    title = language_texts("title")
    collected_on = iso("collected_on")
    protocol_frozen_on = iso("protocol_frozen_on")
    contract_version = text("contract_version")
    parser_version = text("parser_version")
    instruction = language_texts("instruction")

    generation = data.get("generation")
    if "generation" in data and not _check_generation(generation):
        bad(
            "generation",
            'expected {"temperature": number, "seed": integer or null, '
            '"system_prompt": string or null}',
        )

    eligibility = data.get("eligibility")
    max_omission = eligibility.get("max_omission") if isinstance(eligibility, dict) else None
    if "eligibility" in data and (
        not isinstance(eligibility, dict)
        or set(eligibility) != {"max_omission"}
        or not _is_number(max_omission)
        or not 0 <= cast(float, max_omission) <= 1
    ):
        bad("eligibility", 'expected {"max_omission": a number between 0 and 1}')

    bands = data.get("peril_bands")
    if "peril_bands" in data and (
        not isinstance(bands, list)
        or len(bands) != 2
        or not all(_is_number(b) for b in bands)
        or not 0 <= bands[0] < bands[1] <= 6
    ):
        bad("peril_bands", "expected two increasing numbers within 0-6, e.g. [1.0, 2.5]")

    bootstrap = data.get("bootstrap")
    replicates = bootstrap.get("replicates") if isinstance(bootstrap, dict) else None
    seed = bootstrap.get("seed") if isinstance(bootstrap, dict) else None
    if "bootstrap" in data and (
        not isinstance(bootstrap, dict)
        or set(bootstrap) != {"replicates", "seed"}
        or not _is_int(replicates)
        or cast(int, replicates) <= 0
        or not _is_int(seed)
    ):
        bad("bootstrap", 'expected {"replicates": a positive integer, "seed": an integer}')

    synthetic = data.get("synthetic")
    if "synthetic" in data and not isinstance(synthetic, bool):
        bad("synthetic", f"expected true or false, got {synthetic!r}")

    parent_round = data.get("parent_round")
    if parent_round is not None and (
        not isinstance(parent_round, str) or not SLUG.fullmatch(parent_round)
    ):
        bad("parent_round", f"expected a round id (slug) or null, got {parent_round!r}")
    elif parent_round is not None and kind == "full":
        bad("parent_round", "a full round has no parent round: expected null")

    if len(problems) > start:
        return None
    return Manifest(
        round_id=cast(str, round_id),
        kind=kind,  # type: ignore[arg-type]  # checked against KINDS above
        title=cast(Mapping[str, str], title),
        collected_on=cast(date, collected_on),
        protocol_frozen_on=cast(date, protocol_frozen_on),
        contract_version=cast(str, contract_version),
        parser_version=parser_version or "",
        generation=cast(Mapping[str, object], generation),
        instruction=cast(Mapping[str, str], instruction),
        max_omission=float(cast(float, max_omission)),
        peril_bands=(float(bands[0]), float(bands[1])),  # type: ignore[index]
        bootstrap_replicates=cast(int, replicates),
        bootstrap_seed=cast(int, seed),
        synthetic=cast(bool, synthetic),
        parent_round=cast(str | None, parent_round),
    )


def _check_generation(generation: object) -> bool:
    if not isinstance(generation, dict) or not set(GENERATION_KEYS) <= set(generation):
        return False
    seed = generation["seed"]
    system_prompt = generation["system_prompt"]
    return (
        _is_number(generation["temperature"])
        and (seed is None or _is_int(seed))
        and (system_prompt is None or isinstance(system_prompt, str))
    )
