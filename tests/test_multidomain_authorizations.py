"""The optional authorizations.csv of a multidomain archive (issue 21, point 9; Art. 40,
42): read back as written, refused with one line when a row breaks its rules, and listed
on the re-use page from the day each authorization was granted (after the embargo; the
page does not exist before it)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

from click.testing import CliRunner

from reportgen.cli import main
from reportgen.demo.multidomain.tiny import tiny_round as demo_tiny_round
from reportgen.kinds.multidomain.model import Authorization, Round
from reportgen.kinds.multidomain.write import write_round
from reportgen.kinds.rounds import read_round
from tests.support.multidomain_site import build_site_of, tiny_round

EARLY = Authorization(
    authorization_id="aut-2026-01",
    granted_on=date(2026, 12, 3),
    purpose="early_release",
    holder="Instituto de Replicação",
    scope_pt="Itens da área jurídica, para reaplicação antes do embargo.",
    scope_en="The legal domain's items, to re-apply them before the embargo.",
)
LATER = replace(
    EARLY,
    authorization_id="aut-2027-02",
    granted_on=date(2027, 4, 1),
    purpose="training",
    holder="Laboratório Posterior",
)


def _archive_round() -> Round:
    """The demonstration's tiny round (a valid archive once written)."""
    return demo_tiny_round(Path("md-tiny"))


def _write(parent: Path, round_: Round) -> Path:
    round_dir = parent / round_.round_id
    write_round(round_, round_dir)
    return round_dir


def _verify(round_dir: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", str(round_dir)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def _problem_lines(output: str) -> list[str]:
    return [line.removeprefix("  - ") for line in output.splitlines() if line.startswith("  - ")]


def test_an_authorization_is_read_back_as_written(tmp_path: Path) -> None:
    round_dir = _write(tmp_path, replace(_archive_round(), authorizations=(EARLY, LATER)))
    assert (round_dir / "authorizations.csv").is_file()
    assert "authorizations.csv" in (round_dir / "SHA256SUMS").read_text()
    code, output = _verify(round_dir)
    assert code == 0, output
    read = read_round(round_dir)
    assert isinstance(read, Round)
    assert read.authorizations == (EARLY, LATER)


def test_without_the_file_the_round_records_none(tmp_path: Path) -> None:
    round_dir = _write(tmp_path, _archive_round())
    assert not (round_dir / "authorizations.csv").exists()
    read = read_round(round_dir)
    assert isinstance(read, Round)
    assert read.authorizations == ()


def test_an_unknown_purpose_is_refused_in_one_line(tmp_path: Path) -> None:
    wrong = replace(EARLY, purpose="research")  # type: ignore[arg-type]
    round_dir = _write(tmp_path, replace(_archive_round(), authorizations=(wrong,)))
    code, output = _verify(round_dir)
    assert code == 1
    assert "Traceback" not in output
    (line,) = _problem_lines(output)
    assert line.startswith("authorizations.csv: ")
    assert "row 1" in line
    assert "purpose" in line
    assert "early_release" in line


def test_the_reuse_page_lists_an_authorization_from_its_date(tmp_path: Path) -> None:
    round_ = replace(tiny_round(), authorizations=(EARLY, LATER))
    site = build_site_of(tmp_path / "after", date(2027, 3, 25), round_)
    pt = (site / "md-tiny" / "reuse.html").read_text("utf-8")
    en = (site / "en" / "md-tiny" / "reuse.html").read_text("utf-8")
    assert "aut-2026-01" in pt
    assert "Itens da área jurídica" in pt
    assert "aut-2026-01" in en
    assert "legal domain" in en
    assert "aut-2027-02" not in pt + en  # granted after the site's date
    assert "release before the embargo" in en
    assert "divulgação antes do fim do embargo" in pt
