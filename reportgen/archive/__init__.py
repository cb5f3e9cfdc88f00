"""Round archives (docs/archive-format.md): read, verify, write, append.

The public API lives here; the private modules hold one concern each: `_layout`
(file names, common checks), `_manifest`, `_checksums`, `_csv`, `_parquet`,
`_ledger`, `_reader`, `_writer`, `_problems`. What a kind adds (its manifest
block, tables and columns) comes from the kind registry, `reportgen.kinds`.
"""

from __future__ import annotations

from reportgen.archive._csv import (
    Record,
    RowChecker,
    bool_text,
    csv_text,
    float_text,
    parse_rows,
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
from reportgen.archive._parquet import read_responses
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
)
from reportgen.model import TEXT_LANGUAGES

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
    "FileProblems",
    "Problems",
    "Record",
    "RowChecker",
    "append_annulment",
    "append_model",
    "bool_text",
    "check_across",
    "csv_text",
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
    "response_path",
    "swap_journal_of",
    "verify_round",
    "write_archive_files",
    "write_round",
]
