"""`reportgen label`: label model outputs read as JSON lines on stdin."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

import click

from reportgen.errors import InputError, Problem
from reportgen.kinds.estigmas.model import LANGUAGES, Language

# Listing a few hundred bad lines helps nobody; the count says how many more there are.
MAX_REPORTED_PROBLEMS = 20
SOURCE = "stdin"
# Non-ASCII characters that some line readers (str.splitlines) take for line breaks are
# escaped, so that every output record stays on one line for any reader.
_LINE_BREAK_ESCAPES = {ord(c): f"\\u{ord(c):04x}" for c in "\x85\u2028\u2029"}


# One valid input line: the decoded object, its text and its language.
_Record = tuple[dict[str, object], str, Language]


def _check_line(raw: bytes, number: int) -> _Record | Problem:
    """Decode one input line, or say what is wrong with it."""
    where = f"line {number}"

    def problem(message: str) -> Problem:
        return Problem(SOURCE, where, message)

    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return problem(f"not UTF-8 text (byte {error.start + 1}); expected UTF-8 JSON lines")
    if not line.strip():
        return problem('empty line; expected a JSON object {"text": ..., "language": ...}')
    try:
        value = json.loads(line)
    except json.JSONDecodeError as error:
        return problem(f"not valid JSON ({error.msg} at column {error.colno}); expected an object")
    if not isinstance(value, dict):
        return problem(f"a JSON {type(value).__name__} where a JSON object was expected")
    if "text" not in value:
        return problem('missing key "text"; expected the model output as a string')
    if not isinstance(value["text"], str):
        return problem(f'"text" is {json.dumps(value["text"])[:40]}; expected a string')
    if "language" not in value:
        return problem(f'missing key "language"; expected one of {", ".join(LANGUAGES)}')
    for language in LANGUAGES:
        if value["language"] == language:
            try:
                json.dumps(value, ensure_ascii=False).encode("utf-8")
            except UnicodeEncodeError:
                return problem(
                    "holds an unpaired surrogate escape (such as \\ud800); expected text"
                )
            return value, value["text"], language
    shown = json.dumps(value["language"])[:40]
    return problem(f'"language" is {shown}; expected one of {", ".join(LANGUAGES)}')


def label_lines(raw_lines: Sequence[bytes]) -> list[str]:
    """Label every line, or raise InputError listing the bad lines (nothing is labelled then)."""
    from reportgen.kinds.estigmas.parse import parse_output

    records: list[_Record] = []
    problems: list[Problem] = []
    for number, raw in enumerate(raw_lines, start=1):
        checked = _check_line(raw, number)
        if isinstance(checked, Problem):
            problems.append(checked)
        else:
            records.append(checked)
    if problems:
        shown = [f"  - {p}" for p in problems[:MAX_REPORTED_PROBLEMS]]
        if len(problems) > MAX_REPORTED_PROBLEMS:
            shown.append(f"  ... and {len(problems) - MAX_REPORTED_PROBLEMS} more bad line(s)")
        raise InputError(
            f"{SOURCE}: {len(problems)} bad input line(s); nothing was labelled\n"
            + "\n".join(shown)
        )
    labelled: list[str] = []
    for record, text, language in records:
        record["label"] = parse_output(text, language)
        labelled.append(json.dumps(record, ensure_ascii=False).translate(_LINE_BREAK_ESCAPES))
    return labelled


@click.command()
def label() -> None:
    """Label model outputs with the deterministic parser.

    Input (stdin): JSON lines, one object per line, each with "text" (the raw model
    output, a string) and "language" ("pt-BR" or "en", the language of the prompt).
    Other keys are allowed and passed through.

    Output (stdout): the same lines, keys in the same order, with "label" added
    (or replaced, if present) as one of "yes", "no", "cant_tell", "inconclusive".
    The parser's rules are documented in reportgen.kinds.estigmas.parse.

    The whole input is checked first: if any line is not a JSON object with a
    string "text" and a known "language", every bad line is reported by number,
    nothing is written to stdout and the exit status is 1.
    """
    raw_lines = sys.stdin.buffer.read().splitlines()
    output = label_lines(raw_lines)
    if output:
        # Bytes, so that the output is UTF-8 whatever the terminal's locale says.
        click.echo(("\n".join(output)).encode("utf-8"))
