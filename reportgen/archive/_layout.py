"""File names and checks shared by every part of a round archive.

A version-2 archive (`round-archive/2`) and a version-1 one (a kind's legacy format,
e.g. `estigmas-round/1`) share this layout; a kind adds its own tables.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from datetime import date
from pathlib import Path

from reportgen.archive._problems import FileProblems, Problems

FORMAT = "round-archive/2"
MANIFEST_FILE = "round.json"
MODELS_FILE = "models.csv"
ITEMS_FILE = "items.parquet"
RESPONSES_DIR = "responses"
CHECKSUMS_FILE = "SHA256SUMS"
LEDGER_FILE = "annulments.jsonl"
CORE_FILES = (MANIFEST_FILE, MODELS_FILE, ITEMS_FILE)
# A journaled replacement of an archive's files (`reportgen review freeze-export`) keeps
# its journal and copies beside the archive's folder, never in it (a file there would
# stop `verify` before the rules the swap must pass): `.ROUND.swap-journal.json` and
# `.ROUND.swap.*`. A journal found there means a swap was interrupted.
SWAP_JOURNAL_SUFFIX = ".swap-journal.json"
INTERRUPTED_SWAP = (
    "an interrupted `reportgen review freeze-export` left its journal here: run that "
    "command again, which rolls the archive back to its files before the swap"
)


def swap_journal_of(round_dir: Path) -> Path:
    """Where a journaled swap of `round_dir`'s files keeps its journal."""
    return round_dir.parent / f".{round_dir.name}{SWAP_JOURNAL_SUFFIX}"


from reportgen.model import SLUG as SLUG  # noqa: E402  # re-exported

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def format_version(format_name: str) -> int:
    """2 for `round-archive/2`; 1 for a kind's legacy format."""
    return 2 if format_name == FORMAT else 1


def response_path(model_id: str) -> str:
    return f"{RESPONSES_DIR}/{model_id}.parquet"


def is_number(value: object) -> bool:
    # bool is an int subclass in Python, but `true` is not a number in round.json.
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_iso_date(text: str) -> date | None:
    """A strict YYYY-MM-DD date (date.fromisoformat alone also accepts 20240101)."""
    if not _ISO_DATE.fullmatch(text):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def read_text_file(path: Path, found: FileProblems) -> str | None:
    """The file's text, or None after reporting it missing, unreadable or not UTF-8."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        found.add("", "missing file")
        return None
    except OSError as error:
        found.add("", f"unreadable file: {error.strerror}")
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        found.add(
            f"line {line}",
            f"not valid UTF-8 (byte 0x{data[error.start]:02x} at offset {error.start})",
        )
        return None


# The calls to send that `reportgen render` writes into a raw round: freeze leaves them out.
COLLECTION_FILES = ("to_send.jsonl", "to_send.csv", "inspect_dataset.jsonl", "inspect_task.py")
# `inspect eval RAW_DIR/inspect_task.py` imports the task file, and Python keeps its bytecode
# beside it (`__pycache__/inspect_task.cpython-311.pyc`) unless told not to: part of the
# collection too, left out by freeze like the task file itself.
TASK_BYTECODE = re.compile(r"__pycache__/inspect_task\.[\w.-]+\.pyc")


def present_files(round_dir: Path, problems: Problems) -> list[str]:
    """Every file under `round_dir`, relative, sorted."""
    try:
        return sorted(
            path.relative_to(round_dir).as_posix()
            for path in round_dir.rglob("*")
            if path.is_file() or path.is_symlink()
        )
    except OSError as error:
        problems.add(str(round_dir), "", f"cannot list the directory: {error.strerror}")
        return []


def check_layout(
    present: Collection[str],
    *,
    kind_name: str | None,
    kind_tables: Collection[str],
    other_tables: Callable[[], Mapping[str, str]],
    raw: bool,
    problems: Problems,
    kind_folders: Collection[str] = (),
) -> None:
    """Report files outside the layout; `other_tables()` maps a table to the kind it is of
    (asked only when a file is outside the layout);
    `kind_folders` are the kind's folders of one file per model (checked on their own)."""
    allowed = {*CORE_FILES, *kind_tables, LEDGER_FILE, CHECKSUMS_FILE}
    if raw:  # what `reportgen render` wrote to send (reportgen.collect.sending)
        allowed |= set(COLLECTION_FILES)
    folders = tuple(f"{folder}/" for folder in (RESPONSES_DIR, *kind_folders))
    for rel in present:
        if rel in allowed or rel.startswith(folders) or (raw and TASK_BYTECODE.fullmatch(rel)):
            continue
        owner = other_tables().get(rel)
        if owner is not None and kind_name is not None:
            problems.add(
                rel, "", f"a table of kind {owner!r}: not part of a {kind_name!r} round archive"
            )
        else:
            problems.add(rel, "", "unexpected file: not part of the archive layout")
    if not raw and CHECKSUMS_FILE not in present:
        problems.add(CHECKSUMS_FILE, "", "missing file")


def check_response_files(
    round_dir: Path, model_ids: set[str], problems: Problems, *, folder: str = RESPONSES_DIR
) -> None:
    """`folder` (responses/ or a kind's folder of one file per model) holds exactly one
    `<model_id>.parquet` per model; the files themselves are read by their readers."""
    directory = round_dir / folder
    if not directory.is_dir():
        problems.add(folder, "", "missing directory (one file per model)")
        return
    what = "response file" if folder == RESPONSES_DIR else "file"
    for entry in sorted(directory.iterdir()):
        rel = f"{folder}/{entry.name}"
        if not entry.is_file() or entry.suffix != ".parquet":
            problems.add(rel, "", f"unexpected entry: {folder}/ holds only <model_id>.parquet")
        elif entry.stem not in model_ids:
            problems.add(rel, "", f"{what} for model {entry.stem!r}, which models.csv lacks")
