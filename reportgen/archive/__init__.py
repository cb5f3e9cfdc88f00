"""Round archives (docs/archive-format.md): read, verify, write, append.

The public API lives here; the private modules hold one concern each: `_layout`
(file names, common checks), `_manifest`, `_checksums`, `_csv`, `_parquet`,
`_ledger`, `_reader`, `_writer`, `_problems`, `_kind`. What a kind adds (its manifest
block, tables and columns) it declares as an `ArchiveKind` (`_kind`); the readers and
writers take the set of kinds as an argument (`kinds`, a `KindCatalogue`), so the core
never imports the kind registry (`reportgen.kinds`): `reportgen.kinds.rounds` binds
them to it.

The package loads its modules on first use (`__getattr__`): a command that needs only
the file names or the checksums does not load pyarrow with the Parquet reader.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reportgen.archive._csv import (
        Record,
        RowChecker,
        bool_text,
        cell_text,
        csv_text,
        float_text,
        parse_rows,
        record_row,
    )
    from reportgen.archive._kind import (
        ArchiveKind,
        KindCatalogue,
        ModelFolderSpec,
        ParquetTableSpec,
        TableRead,
        TableSpec,
        UnknownKindError,
    )
    from reportgen.archive._layout import (
        CHECKSUMS_FILE,
        FORMAT,
        ITEMS_FILE,
        LEDGER_FILE,
        MANIFEST_FILE,
        MODELS_FILE,
        RESPONSES_DIR,
        SLUG,
        format_version,
        response_path,
        swap_journal_of,
    )
    from reportgen.archive._manifest import (
        MAX_BOOTSTRAP_REPLICATES,
        MIN_PUBLICATION_REPLICATES,
        kind_of_round,
        language_texts,
        manifest_from_dict,
        manifest_to_dict,
        read_manifest_data,
    )
    from reportgen.archive._parquet import dates_as_text, read_responses, table_bytes
    from reportgen.archive._problems import FileProblems, Problems
    from reportgen.archive._reader import (
        ArchiveContent,
        check_across,
        read_raw_round,
        read_round,
        verify_round,
    )
    from reportgen.archive._writer import (
        append_annulment,
        append_model,
        manifest_bytes,
        write_archive_files,
        write_round,
        write_round_files,
    )
    from reportgen.model import TEXT_LANGUAGES

# name -> the module that defines it
_WHERE: dict[str, str] = {
    "Record": "reportgen.archive._csv",
    "RowChecker": "reportgen.archive._csv",
    "bool_text": "reportgen.archive._csv",
    "cell_text": "reportgen.archive._csv",
    "record_row": "reportgen.archive._csv",
    "csv_text": "reportgen.archive._csv",
    "float_text": "reportgen.archive._csv",
    "parse_rows": "reportgen.archive._csv",
    "ArchiveKind": "reportgen.archive._kind",
    "KindCatalogue": "reportgen.archive._kind",
    "ModelFolderSpec": "reportgen.archive._kind",
    "ParquetTableSpec": "reportgen.archive._kind",
    "TableRead": "reportgen.archive._kind",
    "TableSpec": "reportgen.archive._kind",
    "UnknownKindError": "reportgen.archive._kind",
    "CHECKSUMS_FILE": "reportgen.archive._layout",
    "FORMAT": "reportgen.archive._layout",
    "ITEMS_FILE": "reportgen.archive._layout",
    "LEDGER_FILE": "reportgen.archive._layout",
    "MANIFEST_FILE": "reportgen.archive._layout",
    "MODELS_FILE": "reportgen.archive._layout",
    "RESPONSES_DIR": "reportgen.archive._layout",
    "SLUG": "reportgen.archive._layout",
    "format_version": "reportgen.archive._layout",
    "response_path": "reportgen.archive._layout",
    "swap_journal_of": "reportgen.archive._layout",
    "MAX_BOOTSTRAP_REPLICATES": "reportgen.archive._manifest",
    "MIN_PUBLICATION_REPLICATES": "reportgen.archive._manifest",
    "kind_of_round": "reportgen.archive._manifest",
    "language_texts": "reportgen.archive._manifest",
    "manifest_from_dict": "reportgen.archive._manifest",
    "manifest_to_dict": "reportgen.archive._manifest",
    "read_manifest_data": "reportgen.archive._manifest",
    "dates_as_text": "reportgen.archive._parquet",
    "read_responses": "reportgen.archive._parquet",
    "table_bytes": "reportgen.archive._parquet",
    "FileProblems": "reportgen.archive._problems",
    "Problems": "reportgen.archive._problems",
    "ArchiveContent": "reportgen.archive._reader",
    "check_across": "reportgen.archive._reader",
    "read_raw_round": "reportgen.archive._reader",
    "read_round": "reportgen.archive._reader",
    "verify_round": "reportgen.archive._reader",
    "append_annulment": "reportgen.archive._writer",
    "append_model": "reportgen.archive._writer",
    "manifest_bytes": "reportgen.archive._writer",
    "write_archive_files": "reportgen.archive._writer",
    "write_round": "reportgen.archive._writer",
    "write_round_files": "reportgen.archive._writer",
    "TEXT_LANGUAGES": "reportgen.model",
}

__all__ = [
    "CHECKSUMS_FILE",
    "FORMAT",
    "ITEMS_FILE",
    "LEDGER_FILE",
    "MANIFEST_FILE",
    "MAX_BOOTSTRAP_REPLICATES",
    "MIN_PUBLICATION_REPLICATES",
    "MODELS_FILE",
    "RESPONSES_DIR",
    "SLUG",
    "TEXT_LANGUAGES",
    "ArchiveContent",
    "ArchiveKind",
    "FileProblems",
    "KindCatalogue",
    "ModelFolderSpec",
    "ParquetTableSpec",
    "Problems",
    "Record",
    "RowChecker",
    "TableRead",
    "TableSpec",
    "UnknownKindError",
    "append_annulment",
    "append_model",
    "bool_text",
    "cell_text",
    "check_across",
    "csv_text",
    "dates_as_text",
    "float_text",
    "format_version",
    "kind_of_round",
    "language_texts",
    "manifest_bytes",
    "manifest_from_dict",
    "manifest_to_dict",
    "parse_rows",
    "read_manifest_data",
    "read_raw_round",
    "read_responses",
    "read_round",
    "record_row",
    "response_path",
    "swap_journal_of",
    "table_bytes",
    "verify_round",
    "write_archive_files",
    "write_round",
    "write_round_files",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
