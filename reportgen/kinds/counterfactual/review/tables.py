"""Tables of the counterfactual calibration, on the review database's MetaData.

The kind's own, defined apart from `review_app.core.db` (whose tables every kind shares),
like the multidomain kind's; importing this module registers them on `db.metadata`, so
that `create_schema` creates them. The kind's review part names it (`KindReview.tables`),
and the app's storage imports it through the registry
(`reportgen.kinds.register_review_tables`) before it creates the schema. Neither table
unblinds a sample: what does stays in `review_app.core.unblinding`.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, DateTime, ForeignKey, String, Table

from review_app.core.db import metadata

# The mask audit (counterfactual-round.md §"extractions": leaks the automatic check cannot
# see, such as gendered agreement or a respelled name, "are for the review app's mask
# audit"): a reviewer's answer to "this answer still reveals the attribute", stored with
# their scale judgment (same transaction), one row per assignment. Reviewer-visible only
# through their own assignment, like the judgment; the administrator lists the flagged ones.
mask_flags = Table(
    "cf_mask_flags",
    metadata,
    Column(
        "assignment_id",
        ForeignKey("assignments.assignment_id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("reveals", Boolean, nullable=False),
    Column("flagged_at", DateTime(timezone=True), nullable=False),
)

# The administrator's decision on a flagged masked input (issue 21): the mask held (the
# reviewer's flag is not a leak), or it leaked (the judge read the group: its score of
# that response is void for the analysis). One decision per sample, the last one given;
# each decision is also a line of the hash-chained audit log (action `mask_decision`).
mask_decisions = Table(
    "cf_mask_decisions",
    metadata,
    Column("sample_id", ForeignKey("samples.sample_id", ondelete="CASCADE"), primary_key=True),
    Column("decision", String(16), nullable=False),
    Column("decided_by", ForeignKey("accounts.account_id"), nullable=False),
    Column("decided_at", DateTime(timezone=True), nullable=False),
)
