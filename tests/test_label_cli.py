"""`reportgen label`: JSON lines in, the same lines with a label out; bad input writes nothing."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from reportgen.cli import main
from reportgen.kinds.estigmas.model import LANGUAGES
from reportgen.kinds.estigmas.parse import parse_output


def _run(stdin: bytes | str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["label"], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_round_trip_keeps_keys_order_and_adds_label() -> None:
    lines: list[dict[str, object]] = [
        {"id": "a1", "text": "**Não sei**", "language": "pt-BR"},
        {"language": "en", "text": "Final answer: Yes", "extra": [1, 2]},
        {"text": "Resposta final: Não", "language": "pt-BR"},
        {"text": "", "language": "en"},
    ]
    stdin = "\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n"
    code, out, err = _run(stdin)
    assert code == 0, err
    written = [json.loads(line) for line in out.splitlines()]
    assert [list(w) for w in written] == [[*line, "label"] for line in lines]
    assert [w["label"] for w in written] == ["cant_tell", "yes", "no", "inconclusive"]
    assert [{k: v for k, v in w.items() if k != "label"} for w in written] == lines


def test_existing_label_is_replaced_in_place() -> None:
    code, out, _ = _run('{"label": "yes", "text": "Não", "language": "pt-BR"}\n')
    assert code == 0
    assert list(json.loads(out)) == ["label", "text", "language"]
    assert json.loads(out)["label"] == "no"


def test_empty_input_writes_nothing() -> None:
    assert _run("") == (0, "", "")


@given(st.lists(st.tuples(st.text(max_size=80), st.sampled_from(LANGUAGES)), max_size=8))
def test_labels_match_the_parser(rows: list[tuple[str, str]]) -> None:
    stdin = "".join(json.dumps({"text": t, "language": lang}) + "\n" for t, lang in rows)
    code, out, _ = _run(stdin)
    assert code == 0
    written = [json.loads(line) for line in out.splitlines()]
    assert len(written) == len(rows)
    for record, (text, language) in zip(written, rows, strict=True):
        assert record["text"] == text
        assert record["label"] == parse_output(text, language)  # type: ignore[arg-type]


GOOD = '{"text": "Sim", "language": "pt-BR"}'


@pytest.mark.parametrize(
    ("bad_line", "expected"),
    [
        ("{not json", "line 2: not valid JSON"),
        ('["Sim", "pt-BR"]', "line 2: a JSON list where a JSON object was expected"),
        ('"Sim"', "line 2: a JSON str where a JSON object was expected"),
        ('{"language": "pt-BR"}', 'line 2: missing key "text"'),
        ('{"text": 42, "language": "en"}', 'line 2: "text" is 42; expected a string'),
        ('{"text": null, "language": "en"}', 'line 2: "text" is null; expected a string'),
        ('{"text": "Sim"}', 'line 2: missing key "language"; expected one of pt-BR, en'),
        ('{"text": "Sim", "language": "pt"}', 'line 2: "language" is "pt"; expected one of'),
        ('{"text": "Sim", "language": 1}', 'line 2: "language" is 1; expected one of'),
        ("", "line 2: empty line; expected a JSON object"),
        (r'{"text": "a\ud800", "language": "en"}', "line 2: holds an unpaired surrogate"),
    ],
)
def test_bad_line_is_named_and_nothing_is_written(bad_line: str, expected: str) -> None:
    code, out, err = _run(f"{GOOD}\n{bad_line}\n{GOOD}\n")
    assert code == 1
    assert out == ""
    assert expected in err
    assert "stdin: 1 bad input line(s); nothing was labelled" in err
    assert "Traceback" not in err


def test_invalid_utf8_is_reported() -> None:
    code, out, err = _run(GOOD.encode() + b"\n\xff\xfe\n")
    assert (code, out) == (1, "")
    assert "line 2: not UTF-8 text" in err


def test_every_bad_line_is_listed_up_to_a_limit() -> None:
    code, out, err = _run("\n".join(["[]"] * 25 + [GOOD]) + "\n")
    assert (code, out) == (1, "")
    assert "25 bad input line(s)" in err
    assert "line 20:" in err
    assert "line 21:" not in err
    assert "and 5 more bad line(s)" in err


def test_help_describes_input_and_output() -> None:
    result = CliRunner().invoke(main, ["label", "--help"])
    assert result.exit_code == 0
    for word in ("stdin", "stdout", '"text"', '"language"', '"label"', "inconclusive"):
        assert word in result.output
