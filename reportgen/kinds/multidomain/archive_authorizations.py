"""`authorizations.csv`: the optional register of the Organisation's written
authorizations over the round's items (Art. 40: training, distilling or fine-tuning on
the bank; Art. 42: releasing items before the embargo ends).

One row per authorization, listed in SHA256SUMS like every table (an authorization given
after the freeze is added by freezing the archive again). Columns: `authorization_id`
(slug, unique), `granted_on` (YYYY-MM-DD), `purpose` (`early_release` | `training`),
`holder` (the organisation authorized, non-empty), `scope_pt`, `scope_en` (what is
authorized, in both languages, non-empty). Absent: the round records no authorization.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from reportgen.archive import FileProblems, Record, RowChecker, parse_rows, record_row
from reportgen.kinds import TableRead, TableSpec
from reportgen.kinds.multidomain.model import Authorization

AUTHORIZATIONS_FILE = "authorizations.csv"
AUTHORIZATIONS_HEADER = (
    "authorization_id",
    "granted_on",
    "purpose",
    "holder",
    "scope_pt",
    "scope_en",
)
PURPOSES = ("early_release", "training")


def parse_authorizations(
    records: Sequence[Record], found: FileProblems
) -> tuple[Authorization, ...]:
    seen: dict[str, int] = {}

    def build(row: RowChecker) -> Authorization:
        return Authorization(
            authorization_id=row.unique_id("authorization_id", seen, slug=True),
            granted_on=row.iso_date("granted_on"),
            purpose=row.choice("purpose", PURPOSES),  # type: ignore[arg-type]
            holder=row.text("holder"),
            scope_pt=row.text("scope_pt"),
            scope_en=row.text("scope_en"),
        )

    return parse_rows(records, found, build)


def authorization_row(row: object) -> list[str]:
    return record_row(cast(Authorization, row), AUTHORIZATIONS_HEADER)


def _optional(_tables: Mapping[str, TableRead]) -> bool | None:
    return None  # read when present, never required


AUTHORIZATIONS_TABLE = TableSpec(
    AUTHORIZATIONS_FILE,
    AUTHORIZATIONS_HEADER,
    parse_authorizations,
    authorization_row,
    "authorization_id",
    presence=_optional,
    presence_rule="optional",
)
