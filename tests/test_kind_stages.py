"""The seams between the archive core, the kind registry and a kind's stages: the core
reads with the kinds it is given (it imports no registry), a kind's later stages run
from its one `Stages` object, one generator writes every results schema, and one table
writer converts a kind's cells."""

from __future__ import annotations

import io
from datetime import UTC, date, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from rich.console import Console

from reportgen import archive
from reportgen.archive import ArchiveKind, KindCatalogue, UnknownKindError
from reportgen.errors import ReportgenError
from reportgen.kinds import KINDS, Kind, KindCapabilityError, get_kind
from reportgen.kinds.schemas import main as schemas_main
from reportgen.model import Round

ARTICLE_ROUND = Path(__file__).resolve().parents[1] / "rounds" / "estigmas-2026-06"


class _NoKinds:
    """A catalogue that knows no kind: the core can only say so."""

    def get_kind(self, name: str) -> ArchiveKind:
        raise UnknownKindError(name, ())

    def kind_names(self) -> frozenset[str]:
        return frozenset()

    def registered_kinds(self) -> tuple[ArchiveKind, ...]:
        return ()


def test_the_archive_core_reads_with_the_kinds_it_is_given() -> None:
    nothing: KindCatalogue[ArchiveKind] = _NoKinds()
    problems = archive.verify_round(ARTICLE_ROUND, kinds=nothing)
    assert [p.message for p in problems if p.where == "kind"] == [
        "unknown kind 'estigmas' (known kinds: )"
    ]
    assert archive.verify_round(ARTICLE_ROUND, kinds=KINDS) == []


def test_a_kind_without_stages_says_what_it_lacks(tmp_path: Path) -> None:
    kind = get_kind("estigmas")
    bare = type("Bare", (type(kind),), {"name": "bare", "stages": None})()
    assert isinstance(bare, Kind)
    round_ = archive.read_round(ARTICLE_ROUND, kinds=KINDS, with_text=False)
    with pytest.raises(KindCapabilityError, match="does not provide a summary"):
        bare.print_summary(round_, Console(file=io.StringIO()))
    with pytest.raises(KindCapabilityError, match="does not provide a results object"):
        bare.results_json(round_, replicates=1, cache_dir=tmp_path, use_cache=False)
    assert bare.results_steps(round_, 5) == 0
    assert kind.results_steps(round_, 5) == 10  # two bootstrap passes


def test_the_stages_refuse_a_round_of_another_kind() -> None:
    estigmas = archive.read_round(ARTICLE_ROUND, kinds=KINDS, with_text=False)
    stages = get_kind("counterfactual").stages
    assert stages is not None
    with pytest.raises(ReportgenError, match="not a counterfactual round"):
        stages.round(estigmas)
    own = get_kind("estigmas").stages
    assert own is not None
    assert isinstance(own.round(estigmas), Round)


def test_one_generator_checks_every_results_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert schemas_main(["--check"]) == 0
    assert schemas_main(["--check", "multidomain", "counterfactual"]) == 0
    assert schemas_main(["--check", "no-such-kind"]) == 2
    assert "usage" in capsys.readouterr().err


def test_the_table_writer_converts_each_cell() -> None:
    cell = archive.dates_as_text(lambda moment: moment.strftime("%Y%m%d-%H%M"))
    schema = pa.schema([pa.field("at", pa.string()), pa.field("on", pa.string())])

    class Row:
        at = datetime(2026, 7, 1, 9, 30, tzinfo=UTC)
        on = date(2026, 7, 2)

    table = pq.read_table(pa.BufferReader(archive.table_bytes([Row()], schema, cell)))
    assert table.to_pylist() == [{"at": "20260701-0930", "on": "2026-07-02"}]
    empty = pq.read_table(pa.BufferReader(archive.table_bytes([], schema)))
    assert empty.schema == schema
    assert empty.num_rows == 0
