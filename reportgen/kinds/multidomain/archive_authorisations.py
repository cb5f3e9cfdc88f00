"""`authorisations.csv`: the optional register of the Organisation's written
authorisations over the round's items (Art. 40: training, distilling or fine-tuning on
the bank; Art. 42: releasing items before the embargo ends).

One row per authorisation, listed in SHA256SUMS like every table (an authorisation given
after the freeze is added by freezing the archive again). Columns: `authorisation_id`
(slug, unique), `granted_on` (YYYY-MM-DD), `purpose` (`early_release` | `training`),
`holder` (the organisation authorised, non-empty), `scope_pt`, `scope_en` (what is
authorised, in both languages, non-empty). Absent: the round records no authorisation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from reportgen.archive import FileProblems, Record, RowChecker, parse_rows
from reportgen.kinds import TableRead, TableSpec
from reportgen.kinds.multidomain.model import Authorisation

AUTHORISATIONS_FILE = "authorisations.csv"
AUTHORISATIONS_HEADER = (
    "authorisation_id",
    "granted_on",
    "purpose",
    "holder",
    "scope_pt",
    "scope_en",
)
PURPOSES = ("early_release", "training")


def parse_authorisations(
    records: Sequence[Record], found: FileProblems
) -> tuple[Authorisation, ...]:
    seen: dict[str, int] = {}

    def build(row: RowChecker) -> Authorisation:
        return Authorisation(
            authorisation_id=row.unique_id("authorisation_id", seen, slug=True),
            granted_on=row.iso_date("granted_on"),
            purpose=row.choice("purpose", PURPOSES),  # type: ignore[arg-type]
            holder=row.text("holder"),
            scope_pt=row.text("scope_pt"),
            scope_en=row.text("scope_en"),
        )

    return parse_rows(records, found, build)


def authorisation_row(row: object) -> list[str]:
    found = cast(Authorisation, row)
    return [
        found.authorisation_id,
        found.granted_on.isoformat(),
        found.purpose,
        found.holder,
        found.scope_pt,
        found.scope_en,
    ]


def _optional(_tables: Mapping[str, TableRead]) -> bool | None:
    return None  # read when present, never required


AUTHORISATIONS_TABLE = TableSpec(
    AUTHORISATIONS_FILE,
    AUTHORISATIONS_HEADER,
    parse_authorisations,
    authorisation_row,
    "authorisation_id",
    presence=_optional,
    presence_rule="optional",
)
