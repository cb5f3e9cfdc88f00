"""What unblinds a sample: the `sample_keys` table and every read of it.

A reviewer reads a sample by its code and its anonymised texts (`review_app.core.db.samples`);
what the sample *is* (the item, the model, the run, the automatic answer, the strata, the
unit's key) lives only here. This module is the one way to that table:

- `store_key` writes a sample's key, in the transaction that stores the sample
  (`review_app.rounds.sampling.store_sample`);
- `unblinded(query, *fields)` joins a query over `samples` to each sample's key and adds
  the key's `fields` (columns of `KEY_FIELDS`) to what it selects; every administrator
  read (calibration, exports, leak report, mask audit, extraction check) goes through it;
- `batch_model_ids` gives the models of a batch (the leak report's scrubber);
- `own_sample_item` resolves a sample code a reviewer typed (a contestation) to its item,
  on the server, and only for a sample assigned to that reviewer.

Who may import it is a contract (pyproject.toml, "Reviewer-facing modules never reach
the keys that unblind a sample"): no reviewer page nor the code that serves a reviewer
(`pages.reviewer`, `pages.rubric`, `pages.contest`, the counterfactual kind's
`review.pages.scale` and `review.pages.count`, `reviewing`, ... listed there) imports it,
directly or through another module. Two imports are exempt and named in the contract:
`review_app.core.storage` registers the table before creating the schema, and
`review_app.rounds.contest` calls `own_sample_item`, which returns an item id to store in
the contestation, never to show.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from sqlalchemy import JSON, Column, Connection, ForeignKey, Integer, Select, String, Table, select

from review_app.core.db import assignments, batches, metadata, samples

# Administrator-only: what unblinds a sample.
sample_keys = Table(
    "sample_keys",
    metadata,
    Column("sample_id", ForeignKey("samples.sample_id"), primary_key=True),
    Column("item_id", String(100), nullable=False),
    Column("model_id", String(100), nullable=False),
    Column("automatic", String(40), nullable=False),  # what automatic scoring answered
    Column("stratum", JSON, nullable=False),  # the kind's sampling strata (list of str)
    Column("run", Integer, nullable=False, default=1),  # the response's run (Estigmas: 1)
    # The unit's stable key (`ReviewUnit.unit_key`): item|model|run, or a calibration
    # response's response_id.
    Column("unit_key", String(200), nullable=False, default=""),
)

KEY_FIELDS: Final = ("item_id", "model_id", "automatic", "stratum", "run", "unit_key")


def store_key(
    connection: Connection,
    sample_id: int,
    *,
    item_id: str,
    model_id: str,
    automatic: str,
    stratum: Sequence[str],
    run: int,
    unit_key: str,
) -> None:
    """Write the key of sample `sample_id`, inside the caller's transaction."""
    connection.execute(
        sample_keys.insert().values(
            sample_id=sample_id,
            item_id=item_id,
            model_id=model_id,
            automatic=automatic,
            stratum=list(stratum),
            run=run,
            unit_key=unit_key,
        )
    )


def unblinded(query: Select[Any], *fields: str) -> Select[Any]:
    """`query`, whose FROM clause holds `samples`, joined to each sample's key, with the
    key's `fields` (names from KEY_FIELDS, in that order of the row's last columns) added
    to its columns. Every sample has a key (stored with it), so the join drops no row."""
    return query.join(sample_keys, sample_keys.c.sample_id == samples.c.sample_id).add_columns(
        *(sample_keys.c[field] for field in fields)
    )


def batch_model_ids(connection: Connection, batch_id: int) -> list[str]:
    """The distinct models whose outputs batch `batch_id` samples."""
    query = (
        select(sample_keys.c.model_id)
        .join(samples, samples.c.sample_id == sample_keys.c.sample_id)
        .where(samples.c.batch_id == batch_id)
        .distinct()
    )
    return [str(model_id) for model_id in connection.execute(query).scalars()]


def own_sample_item(
    connection: Connection, account_id: int, round_id: str, reference: str
) -> str | None:
    """The item behind `reference` when it is the code of a sample of `round_id` assigned
    to the account; None otherwise. Resolved here, on the server: the reviewer never
    sees the item id."""
    item_id = connection.execute(
        select(sample_keys.c.item_id)
        .join(samples, samples.c.sample_id == sample_keys.c.sample_id)
        .join(batches, batches.c.batch_id == samples.c.batch_id)
        .join(assignments, assignments.c.sample_id == samples.c.sample_id)
        .where(
            samples.c.code == reference.strip().upper(),
            batches.c.round_id == round_id,
            assignments.c.reviewer_id == account_id,
        )
    ).scalar()
    return None if item_id is None else str(item_id)
