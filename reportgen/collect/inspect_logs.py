"""Answers from inspect_ai eval logs, read with inspect_ai's own reader.

inspect_ai is an optional extra (`pip install 'reportgen[inspect]'`); without it the
import says so in one line. A log must be of the task `reportgen render` wrote for the
raw round (`reportgen_<round id>`), its model one row of models.csv (its api_identifier,
with or without the provider prefix, or named with `--model-id`); each sample carries its
item id and run in its metadata. From each sample: the output text, the model's name, the
time of the call and its latency, the token counts and cost when the log has them, the
hashes of the system message and of the user messages sent (the item's context, when
its metadata has one, then its prompt), and the status from the log's own fields: an
error -> `error`, a time limit -> `timeout`, a content filter stop -> `refusal`, else `ok`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from reportgen.collect.collected import Collected, round_models
from reportgen.collect.sending import task_name
from reportgen.errors import InputError, ReportgenError

INSTALL_HINT = (
    "reading inspect_ai logs needs the optional inspect extra: "
    "pip install 'reportgen[inspect]' (in a clone: bash scripts/install.sh inspect)"
)
EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()
MAX_LINES = 20  # refusals listed one per line; past that, a count


class MissingExtraError(ReportgenError):
    """An optional extra that a command needs is not installed."""


def _reader() -> Any:
    try:
        from inspect_ai.log import read_eval_log
    except ImportError as error:
        raise MissingExtraError(INSTALL_HINT) from error
    return read_eval_log


def eval_log_reader() -> Any:
    """inspect_ai's `read_eval_log`; MissingExtraError (how to install it) without it."""
    return _reader()


def readable_logs(paths: Sequence[Path], lines: list[str]) -> Iterator[tuple[Path, Any]]:
    """Each log at `paths` that inspect_ai reads, with its path; a refusal in `lines` for
    each other one. MissingExtraError now (not when iterated) without inspect_ai."""
    read_eval_log = _reader()

    def logs() -> Iterator[tuple[Path, Any]]:
        for path in paths:
            try:
                log = read_eval_log(str(path))
            except Exception as error:  # inspect_ai raises many kinds; the message says which
                lines.append(f"{path}: not an inspect_ai log inspect_ai can read ({error})")
                continue
            yield path, log

    return logs()


def refuse_if_any(raw_dir: Path, lines: Sequence[str], what: str) -> None:
    """InputError listing the refusals `lines` (the first MAX_LINES, then a count), when
    there are any, for logs of `what`: nothing is written."""
    if not lines:
        return
    shown = list(lines[:MAX_LINES])
    if len(lines) > MAX_LINES:
        shown.append(f"... and {len(lines) - MAX_LINES} more")
    head = f"{raw_dir}: {len(lines)} problem(s) with {what}; nothing was written"
    raise InputError("\n".join([head, *(f"  - {line}" for line in shown)]))


def read_logs(
    paths: Sequence[Path], raw_dir: Path, round_id: str, *, model_id: str | None
) -> list[Collected]:
    """Every sample of the logs at `paths` as an answer; InputError with one line per
    log of another task, of an unknown model, or a sample without its item and run."""
    lines: list[str] = []
    logs = readable_logs(paths, lines)
    models = round_models(raw_dir)
    expected = task_name(round_id)
    answers: list[Collected] = []
    for path, log in logs:
        task = str(log.eval.task).rsplit("/", 1)[-1].rsplit("@", 1)[-1]
        if task != expected:
            lines.append(
                f"{path}: a log of task {task!r}, not of this round's task {expected!r} "
                f"(the inspect_task.py `reportgen render` wrote into {raw_dir})"
            )
            continue
        system = model_id or _system_of(str(log.eval.model), models)
        if system is None:
            lines.append(
                f"{path}: model {log.eval.model!r} is no api_identifier of models.csv "
                "(name its model_id with --model-id)"
            )
            continue
        for sample in log.samples or []:
            answer = _answer(path, system, sample)
            if isinstance(answer, str):
                lines.append(answer)
            else:
                answers.append(answer)
    if lines:
        raise InputError("\n".join([f"{raw_dir}: logs refused; nothing was written", *lines]))
    return answers


def _system_of(model: str, models: Mapping[str, str]) -> str | None:
    bare = model.split("/", 1)[-1]
    for model_id, api_identifier in models.items():
        if api_identifier in (model, bare):
            return model_id
    return None


def _answer(path: Path, model_id: str, sample: Any) -> Collected | str:
    source = f"{path}, sample {sample.id!r}"
    metadata = sample.metadata or {}
    item_id, run = metadata.get("item_id"), metadata.get("run")
    if not isinstance(item_id, str) or not isinstance(run, int) or isinstance(run, bool):
        return f"{source}: no item_id and run in its metadata (a sample of another dataset)"
    output = sample.output
    usage = output.usage
    seconds = output.time if output.time is not None else sample.working_time
    system = [m.text for m in sample.messages if m.role == "system"]
    prompt_sha256, context_sha256 = _sent_sha256(sample)
    return Collected(
        source=source,
        model_id=model_id,
        item_id=item_id,
        run=run,
        raw_text=output.completion or "",
        status=_status(sample),
        model_name=output.model or None,
        called_at=_called_at(sample.started_at),
        latency_ms=None if seconds is None else round(float(seconds) * 1000, 3),
        input_tokens=None if usage is None else usage.input_tokens,
        output_tokens=None if usage is None else usage.output_tokens,
        cost=None if usage is None else usage.total_cost,
        system_prompt_sha256=hashlib.sha256("\n".join(system).encode("utf-8")).hexdigest(),
        tools_sha256=None if _sent_tools(sample) else EMPTY_SHA256,
        prompt_sha256=prompt_sha256,
        context_sha256=context_sha256,
    )


def _sent_sha256(sample: Any) -> tuple[str | None, str | None]:
    """The hashes of the user messages the sample sent: with a context in its metadata
    (a counterfactual item's; the task file sends it as a user message before the
    prompt), the first is the context and the second the prompt; else the first is the
    prompt and no context is recorded. A message missing leaves its hash None.
    Returns (prompt_sha256, context_sha256)."""
    texts = [str(m.text) for m in sample.messages if m.role == "user"]
    hashes = [hashlib.sha256(text.encode("utf-8")).hexdigest() for text in texts]
    if isinstance((sample.metadata or {}).get("context"), str):
        return (hashes[1] if len(hashes) > 1 else None), (hashes[0] if hashes else None)
    return (hashes[0] if hashes else None), None


def _sent_tools(sample: Any) -> bool:
    """Whether a model call of the sample was sent tool definitions: their exact bytes
    are not in the log, so their hash is left for the team to give (the task file
    `reportgen render` writes sends none: the hash of the empty bytes)."""
    return any(getattr(event, "event", None) == "model" and event.tools for event in sample.events)


def _status(sample: Any) -> str:
    if sample.error is not None or sample.output.error:
        return "error"
    limit = sample.limit
    if limit is not None:
        return "timeout" if limit.type in ("time", "working") else "error"
    choices = sample.output.choices
    if choices and choices[0].stop_reason == "content_filter":
        return "refusal"
    return "ok"


def _called_at(started_at: str | None) -> str | None:
    """The sample's start, as YYYY-MM-DDThh:mm:ss.fffZ (UTC)."""
    if not started_at:
        return None
    moment = datetime.fromisoformat(str(started_at)).astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
