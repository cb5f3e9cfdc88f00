"""Answers read back from a client, matched to a raw round's calls and written into it.

Whatever the client (an inspect_ai log, a plain JSONL or CSV file), each answer becomes a
`Collected`; `match_calls` refuses, one line each, an answer that matches no call of
to_send.jsonl, a call that has no answer, two answers to one call, and a model that is no
row of models.csv. Then the round's kind turns each system's answers into its raw files
(`Kind.collected_files`), and they are written only when nothing was refused and none
of them exists yet: an import never overwrites what is there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reportgen.archive import MODELS_FILE, Problems
from reportgen.archive._csv import MODELS_HEADER, read_csv_records
from reportgen.atomic import write_atomic
from reportgen.collect.sending import Call, read_calls
from reportgen.errors import InputError, OutputExistsError

if TYPE_CHECKING:
    from reportgen.kinds import Kind

STATUSES = ("ok", "refusal", "error", "timeout")
MAX_LINES = 20  # refusals listed one per line; past that, a count


@dataclass(frozen=True)
class Collected:
    """One answer as a client recorded it (None: the client did not record it)."""

    source: str  # where it was read: "LOG, sample ID" or "FILE, line N"
    model_id: str
    item_id: str
    run: int
    raw_text: str
    status: str  # one of STATUSES
    model_name: str | None = None  # the model the client called
    called_at: str | None = None  # YYYY-MM-DDThh:mm:ss.fffZ, UTC
    latency_ms: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost: float | None = None
    system_prompt_sha256: str | None = None  # of the system message actually sent
    tools_sha256: str | None = None  # of the tool definitions actually sent
    prompt_sha256: str | None = None  # of the user message actually sent
    context_sha256: str | None = None  # of the context actually sent (None: none)


@dataclass(frozen=True)
class Matched:
    """One system's answers, each with the call it answers, in the calls' order."""

    model_id: str
    answers: tuple[tuple[Call, Collected], ...]


def round_models(raw_dir: Path) -> dict[str, str]:
    """models.csv of a raw round: model_id -> api_identifier."""
    problems = Problems()
    records = read_csv_records(
        raw_dir / MODELS_FILE, MODELS_FILE, MODELS_HEADER, problems, open_tail=True
    )
    problems.raise_if_any(str(raw_dir))
    return {record["model_id"]: record["api_identifier"] for _, record in records or []}


def match_calls(raw_dir: Path, answers: Sequence[Collected]) -> list[Matched]:
    """Every system's answers matched to the calls of RAW_DIR/to_send.jsonl; InputError
    with one line per refusal, nothing matched, otherwise."""
    calls = read_calls(raw_dir)
    by_key = {(call.item_id, call.run): call for call in calls}
    known = round_models(raw_dir)
    lines: list[str] = []
    seen: dict[tuple[str, str, int], Collected] = {}
    for answer in answers:
        key = (answer.item_id, answer.run)
        if answer.model_id not in known:
            lines.append(f"{answer.source}: model {answer.model_id!r} is no row of models.csv")
        elif key not in by_key:
            lines.append(
                f"{answer.source}: item {answer.item_id!r}, run {answer.run} matches no "
                "call of to_send.jsonl"
            )
        elif (answer.model_id, *key) in seen:
            first = seen[(answer.model_id, *key)]
            lines.append(
                f"{answer.source}: a second answer of {answer.model_id} to item "
                f"{answer.item_id!r}, run {answer.run} (the first: {first.source})"
            )
        else:
            seen[(answer.model_id, *key)] = answer
    systems = sorted({model_id for model_id, _, _ in seen})
    for model_id in systems:
        lines += [
            f"{model_id}: no answer to item {call.item_id!r}, run {call.run}"
            for call in calls
            if (model_id, call.item_id, call.run) not in seen
        ]
    if lines:
        raise InputError(_refusal(raw_dir, lines))
    return [
        Matched(model_id, tuple((call, seen[(model_id, call.item_id, call.run)]) for call in calls))
        for model_id in systems
    ]


def _refusal(raw_dir: Path, lines: Sequence[str]) -> str:
    shown = [f"  - {line}" for line in lines[:MAX_LINES]]
    if len(lines) > MAX_LINES:
        shown.append(f"  ... and {len(lines) - MAX_LINES} more")
    head = f"{raw_dir}: {len(lines)} problem(s) with the answers; nothing was written"
    return "\n".join([head, *shown])


def write_collected(raw_dir: Path, files: Mapping[str, bytes]) -> None:
    """Write the systems' raw files into RAW_DIR, none of which may exist yet."""
    # A system's answers in any format (a hand-filled responses/<model_id>.csv too).
    existing = sorted(
        str(path.relative_to(raw_dir))
        for rel in files
        for path in (raw_dir / rel).parent.glob(f"{Path(rel).stem}.*")
    )
    if existing:
        raise OutputExistsError(
            f"{raw_dir}: {', '.join(existing)} already exist(s): an import never "
            "overwrites answers (remove the file to import that system again)"
        )
    for rel, content in files.items():
        (raw_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(raw_dir / rel, content)


def import_answers(raw_dir: Path, answers: Sequence[Collected], kind: Kind) -> str:
    """Match `answers` to RAW_DIR's calls and write them in the format of the round's
    `kind` (`reportgen.kinds.rounds.kind_of_round`); returns a note."""
    matched = match_calls(raw_dir, answers)
    if not matched:
        raise InputError(f"{raw_dir}: no answer to import")
    files: dict[str, bytes] = {}
    for system in matched:
        files.update(kind.collected_files(raw_dir, system))
    write_collected(raw_dir, files)
    statuses = Counter(answer.status for m in matched for _, answer in m.answers)
    counts = ", ".join(f"{statuses[status]} {status}" for status in STATUSES if statuses[status])
    return f"{len(matched)} system(s) x {len(matched[0].answers)} calls: {counts}"
