"""What to send: the calls of a raw round, as to_send.jsonl / .csv and as an inspect_ai
dataset with a small task file that sends them with the round's declared settings.

Every kind's render writes `to_send.jsonl` with at least `run_order`, `item_id`, `run`,
`language` and `prompt` per call (one line per item x run, in the order to send); the
importers read the calls back from it (`read_calls`).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from reportgen.archive import Problems, read_manifest_data
from reportgen.errors import InputError

TO_SEND = "to_send"
TO_SEND_JSONL = f"{TO_SEND}.jsonl"
INSPECT_DATASET = "inspect_dataset.jsonl"
INSPECT_TASK = "inspect_task.py"
# round.json `generation` keys the task file passes to inspect_ai's GenerateConfig.
GENERATE_KEYS = {"temperature": "temperature", "seed": "seed", "max_tokens": "max_tokens"}
GENERATE_KEYS["timeout_s"] = "timeout"


@dataclass(frozen=True)
class Call:
    """One call to make: an item x run, in `run_order`."""

    run_order: int
    item_id: str
    run: int
    language: str
    prompt: str


@dataclass(frozen=True)
class Settings:
    """The round's declared conditions of every call."""

    round_id: str
    generation: Mapping[str, object]
    system_prompt: str | None  # None: no system message (or one per system, given at eval)


def task_name(round_id: str) -> str:
    """The inspect_ai task's name for a round (an identifier: `-` becomes `_`)."""
    return "reportgen_" + re.sub(r"[^0-9A-Za-z_]", "_", round_id)


def to_send_files(rows: Sequence[Mapping[str, object]], columns: Sequence[str]) -> dict[str, bytes]:
    """to_send.jsonl and to_send.csv (a prompt may span lines: CSV quotes it)."""
    lines = "".join(json.dumps(dict(row), ensure_ascii=False) + "\n" for row in rows)
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([["" if row[c] is None else str(row[c]) for c in columns] for row in rows])
    return {TO_SEND_JSONL: lines.encode("utf-8"), f"{TO_SEND}.csv": out.getvalue().encode()}


def inspect_files(
    calls: Sequence[Call],
    settings: Settings,
    extra_metadata: Mapping[tuple[str, int], Mapping[str, object]] | None = None,
) -> dict[str, bytes]:
    """The inspect_ai dataset (one sample per call, id `<item_id>@<run>`, the item id,
    run, run_order and language in its metadata) and the task file that sends it."""
    lines = []
    for call in calls:
        metadata: dict[str, object] = {
            "item_id": call.item_id,
            "run": call.run,
            "run_order": call.run_order,
            "language": call.language,
            **(extra_metadata or {}).get((call.item_id, call.run), {}),
        }
        sample = {"id": f"{call.item_id}@{call.run}", "input": call.prompt, "metadata": metadata}
        lines.append(json.dumps(sample, ensure_ascii=False) + "\n")
    return {
        INSPECT_DATASET: "".join(lines).encode("utf-8"),
        INSPECT_TASK: task_source(settings).encode("utf-8"),
    }


def generate_config(generation: Mapping[str, object]) -> dict[str, object]:
    """The GenerateConfig arguments of a round's `generation` (null values left out)."""
    return {
        GENERATE_KEYS[key]: value
        for key, value in generation.items()
        if key in GENERATE_KEYS and value is not None
    }


def task_source(settings: Settings) -> str:
    """The inspect_ai task file: the dataset beside it, the round's system instruction
    (or `-T system_prompt_file=PATH`, for a system whose prompt stays private) and its
    generation settings."""
    return _TASK_TEMPLATE.format(
        round_id=settings.round_id,
        name=task_name(settings.round_id),
        system_prompt=repr(settings.system_prompt),
        config=repr(generate_config(settings.generation)),
        dataset=INSPECT_DATASET,
    )


_TASK_TEMPLATE = '''"""inspect_ai task of round {round_id}, written by `reportgen render`.

Send every call to a model, then import the log into the raw round:

    inspect eval inspect_task.py --model PROVIDER/MODEL
    reportgen import inspect LOG --into RAW_DIR

A system whose system prompt is private: -T system_prompt_file=PATH.
"""

from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import json_dataset
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver

SYSTEM_PROMPT = {system_prompt}
GENERATION = {config}


@solver
def system_instruction(text: str) -> Solver:
    """The system message, sent as is (no template formatting)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.messages.insert(0, ChatMessageSystem(content=text))
        return state

    return solve


@solver
def item_context() -> Solver:
    """The item's context (a CRM record, a history), when it has one, sent as a user
    message before the prompt, as is: `reportgen import` records the hashes of both."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        context = (state.metadata or {{}}).get("context")
        if isinstance(context, str):
            at = next(i for i, m in enumerate(state.messages) if m.role == "user")
            state.messages.insert(at, ChatMessageUser(content=context))
        return state

    return solve


@task
def {name}(system_prompt_file: str = "") -> Task:
    text = SYSTEM_PROMPT
    if system_prompt_file:
        text = Path(system_prompt_file).read_text(encoding="utf-8")
    solvers = [system_instruction(text)] if text else []
    return Task(
        dataset=json_dataset(str(Path(__file__).with_name("{dataset}"))),
        solver=[*solvers, item_context(), generate()],
        config=GenerateConfig(**GENERATION),
        epochs=1,
    )
'''


def read_draft(
    draft_dir: Path, files: Sequence[str], holds: str, besides: str = ""
) -> dict[str, object]:
    """The round.json data of the draft at `draft_dir`, after checking that it holds
    `files` (the message: "missing file(s) ...: {holds} {files}{besides}")."""
    problems = Problems()
    data = read_manifest_data(draft_dir, problems)
    problems.raise_if_any(str(draft_dir))
    missing = [name for name in files if not (draft_dir / name).is_file()]
    if missing:
        raise InputError(
            f"{draft_dir}: missing file(s) {', '.join(missing)}: {holds} {', '.join(files)}"
            f"{besides}"
        )
    assert isinstance(data, dict)  # read_manifest_data raised on any other shape
    return data


def read_calls(raw_dir: Path) -> list[Call]:
    """The calls listed in RAW_DIR/to_send.jsonl; InputError naming the line otherwise."""
    path = raw_dir / TO_SEND_JSONL
    if not path.is_file():
        raise InputError(f"{path}: missing file: expected the calls `reportgen render` wrote")
    calls = []
    text = path.read_text(encoding="utf-8")
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            calls.append(
                Call(
                    int(row["run_order"]),
                    str(row["item_id"]),
                    int(row["run"]),
                    str(row["language"]),
                    str(row["prompt"]),
                )
            )
        except (ValueError, KeyError, TypeError) as error:
            raise InputError(
                f"{path}: line {number}: expected an object with run_order, item_id, run, "
                f"language and prompt ({error})"
            ) from error
    return calls


def write_new_folder(dest: Path, files: Mapping[str, bytes], folders: Sequence[str]) -> None:
    """Write `files` and the empty `folders` as a new folder `dest` (which must not
    exist): staged beside it and renamed into place, nothing left on failure."""
    from reportgen.archive._writer import staging_dir, write_file

    with staging_dir(dest) as staging:
        for rel, content in files.items():
            (staging / rel).parent.mkdir(parents=True, exist_ok=True)
            write_file(staging / rel, content)
        for folder in folders:
            (staging / folder).mkdir(exist_ok=True)
        staging.rename(dest)


# to_send's columns of a kind whose calls are the items' prompts as they are.
CALL_COLUMNS = ("run_order", "item_id", "run", "language", "prompt", "raw_text", "latency_ms")


def write_raw_round(
    draft_dir: Path, raw_dir: Path, calls: Sequence[Call], settings: Settings
) -> None:
    """The raw round of a draft whose calls send the items' prompts as they are: the
    draft's files, to_send (CALL_COLUMNS, no answers yet), the inspect_ai dataset and
    task, and an empty responses/ folder, written as the new folder `raw_dir`."""
    rows = [
        {**{c: getattr(call, c) for c in CALL_COLUMNS[:5]}, "raw_text": None, "latency_ms": None}
        for call in calls
    ]
    files = {path.name: path.read_bytes() for path in sorted(draft_dir.iterdir()) if path.is_file()}
    files.update(to_send_files(rows, CALL_COLUMNS))
    files.update(inspect_files(calls, settings))
    write_new_folder(raw_dir, files, ["responses"])
