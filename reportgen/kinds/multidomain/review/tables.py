"""Tables of the multidomain administration, on the review database's MetaData.

The kind's own, defined apart from `review_app.core.db` (whose tables every kind shares);
importing this module registers them on `db.metadata`, so that `create_schema` creates
them. The kind's review part names it (`KindReview.tables`), and the app's storage imports
it through the registry (`reportgen.kinds.register_review_tables`) before it creates the
schema. Administrator-only.
"""

from __future__ import annotations

from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from review_app.core.db import metadata

# The Art. 33–34 contamination queue's decisions: one per finding of the kind's
# integrity checks (an 8-gram containment above the threshold, or a suspicious canary
# reproduction), confirmed or dismissed with a note. A confirmed one names the ledger
# line it appended (`ledger_ref`; "" when the item was already annulled or superseded).
contamination_reviews = Table(
    "md_contamination_reviews",
    metadata,
    Column("review_id", Integer, primary_key=True),
    Column("round_id", ForeignKey("rounds.round_id"), nullable=False),
    Column("finding", String(20), nullable=False),  # "ngram" | "canary"
    Column("item_id", String(100), nullable=False),
    Column("model_id", String(100), nullable=False),
    Column("run", Integer, nullable=False),
    Column("outcome", String(20), nullable=False),  # "confirmed" | "dismissed"
    Column("note", Text, nullable=False),
    Column("ledger_ref", String(100), nullable=False, default=""),
    Column("decided_by", ForeignKey("accounts.account_id"), nullable=False),
    Column("decided_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("round_id", "finding", "item_id", "model_id", "run"),
)
