"""click's conventions: a value wrong by itself is a usage error (exit 2); bad data exits 1."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from reportgen.cli import main

ROUND = "no-such-round"  # usage errors are found before any file is read
ADD_MODEL = [
    "add-model", ROUND, "new.parquet", "--model-id", "gama-3", "--display-name", "Gama 3",
    "--provider", "Provedora C", "--api-identifier", "gama-3-0701", "--evaluated-on", "2026-07-01",
]  # fmt: skip


def _with(args: list[str], option: str, value: str) -> list[str]:
    """`args` with the value of `option` replaced."""
    changed = list(args)
    changed[changed.index(option) + 1] = value
    return changed


# (arguments, the command's usage line, the last line of the output)
USAGE_ERRORS: list[tuple[list[str], str, str]] = [
    (
        ["stats", ROUND, "--replicates", "0"],
        "reportgen stats",
        "Error: Invalid value for '--replicates': 0 is not in the range 1<=x<=100000.",
    ),
    (
        ["stats", ROUND, "--replicates", "-5"],
        "reportgen stats",
        "Error: Invalid value for '--replicates': -5 is not in the range 1<=x<=100000.",
    ),
    (
        ["serve", "--port", "-1"],
        "reportgen serve",
        "Error: Invalid value for '--port': -1 is not in the range 0<=x<=65535.",
    ),
    (
        ["serve", "--port", "70000"],
        "reportgen serve",
        "Error: Invalid value for '--port': 70000 is not in the range 0<=x<=65535.",
    ),
    (
        ["review", "sample", ROUND, "--seed", "-1"],
        "reportgen review sample",
        "Error: Invalid value for '--seed': -1 is not in the range 0<=x<=2147483647.",
    ),
    (
        ["review", "sample", ROUND, "--seed", "1", "--fraction", "0"],
        "reportgen review sample",
        "Error: Invalid value for '--fraction': 0.0 is not in the range 0.0<x<=1.0.",
    ),
    (
        ["review", "sample", ROUND, "--seed", "1", "--fraction", "1.5"],
        "reportgen review sample",
        "Error: Invalid value for '--fraction': 1.5 is not in the range 0.0<x<=1.0.",
    ),
    (
        ["review", "sample", ROUND, "--seed", "1", "--fraction", "nan"],
        "reportgen review sample",
        "Error: Invalid value for '--fraction': 'nan' is not a number in the range 0.0<x<=1.0.",
    ),
    (
        ["review", "sample", ROUND, "--seed", "1", "--min-per-stratum", "-1"],
        "reportgen review sample",
        "Error: Invalid value for '--min-per-stratum': -1 is not in the range x>=0.",
    ),
    (
        ["review", "sample", ROUND, "--seed", "1", "--overlap", "0"],
        "reportgen review sample",
        "Error: Invalid value for '--overlap': 0 is not in the range x>=1.",
    ),
    (
        ["review", "publish", "tiny-round", "--window-days", "0"],
        "reportgen review publish",
        "Error: Invalid value for '--window-days': 0 is not in the range x>=1.",
    ),
    (
        ["review", "publish", "tiny-round", "--on", "2026-07-32"],
        "reportgen review publish",
        "Error: Invalid value for '--on': '2026-07-32' does not match the format '%Y-%m-%d'.",
    ),
    (
        ["review", "close-batch", "0"],
        "reportgen review close-batch",
        "Error: Invalid value for 'BATCH_ID': 0 is not in the range 1<=x<=2147483647.",
    ),
    (
        ["review", "serve", "--port", "0"],
        "reportgen review serve",
        "Error: Invalid value for '--port': 0 is not in the range 1<=x<=65535.",
    ),
    (
        ["review", "add-reviewer", "ana", "--role", "owner"],
        "reportgen review add-reviewer",
        "Error: Invalid value for '--role': 'owner' is not one of 'reviewer', 'admin', "
        "'participant'.",
    ),
    (
        ["review", "add-reviewer", "ana", "--language", "fr"],
        "reportgen review add-reviewer",
        "Error: Invalid value for '--language': 'fr' is not one of 'pt-BR', 'en'.",
    ),
    (
        _with(ADD_MODEL, "--model-id", "Gama 3"),
        "reportgen add-model",
        "Error: Invalid value for '--model-id': 'Gama 3' is not a slug [a-z0-9][a-z0-9-]*",
    ),
    (
        _with(ADD_MODEL, "--display-name", " Gama 3"),
        "reportgen add-model",
        "Error: Invalid value for '--display-name': ' Gama 3': expected a non-empty value "
        "without surrounding spaces",
    ),
    (
        _with(ADD_MODEL, "--provider", ""),
        "reportgen add-model",
        "Error: Invalid value for '--provider': '': expected a non-empty value without "
        "surrounding spaces",
    ),
    (
        _with(ADD_MODEL, "--evaluated-on", "2026-13-01"),
        "reportgen add-model",
        "Error: Invalid value for '--evaluated-on': '2026-13-01' does not match the format "
        "'%Y-%m-%d'.",
    ),
]


def _run(args: list[str], stdin: str | None = None) -> Result:
    result = CliRunner().invoke(main, args, input=stdin, prog_name="reportgen")
    assert "Traceback" not in result.output
    # Only a clean exit: an exception other than SystemExit would be a crash.
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.mark.parametrize(
    ("args", "usage", "message"),
    USAGE_ERRORS,
    ids=[f"{usage[10:]} {m.split(chr(39))[1]}" for _, usage, m in USAGE_ERRORS],
)
def test_a_value_wrong_by_itself_is_a_usage_error(
    args: list[str], usage: str, message: str
) -> None:
    result = _run(args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert lines[0].startswith(f"Usage: {usage} "), result.output
    assert lines[-1] == message


def test_the_demo_output_folder_must_not_be_a_file(tmp_path: Path) -> None:
    a_file = tmp_path / "rounds"
    a_file.write_text("", encoding="utf-8")
    result = _run(["demo", "generate", "--out", str(a_file)])
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == (
        f"Error: Invalid value for '--out': Directory '{a_file}' is a file."
    )


def test_a_valid_value_is_not_a_usage_error(tmp_path: Path) -> None:
    """Limits are inclusive where the option allows them: the command gets to read the data."""
    missing = str(tmp_path / "missing")
    result = _run(["review", "sample", missing, "--seed", "0", "--fraction", "1", "--db",
                   f"sqlite:///{tmp_path / 'review.db'}"])  # fmt: skip
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {missing}"), result.output


def test_bad_data_exits_1_with_its_problem(tmp_path: Path) -> None:
    not_an_archive = tmp_path / "round"
    not_an_archive.mkdir()
    for args in (["verify", str(not_an_archive)], ["stats", str(not_an_archive)]):
        result = _run(args)
        assert result.exit_code == 1, result.output
        assert result.output.startswith(f"Error: {not_an_archive}"), result.output
        assert "Usage:" not in result.output


def test_a_bad_input_line_exits_1() -> None:
    result = _run(["label"], stdin='{"text": "Sim", "language": "fr"}\n')
    assert result.exit_code == 1
    assert result.output.startswith("Error: stdin: 1 bad input line(s); nothing was labelled")
    assert '"language" is "fr"; expected one of pt-BR, en' in result.output
