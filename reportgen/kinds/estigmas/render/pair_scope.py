"""Which pairs of models a round's pairwise statistics cover, and the captions that say so.

Up to `ALL_PAIRS_UP_TO` models the statistics engine computes the index difference of every
ordered pair and McNemar for every pair; beyond, only for adjacent ranks (docs/metrics.md).
The captions are chosen from the pairs the results actually hold, never from the number of
models, so that no page claims a test that was not computed.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable
from typing import Literal

from reportgen.i18n import Translator
from reportgen.identity_cache import by_identity
from reportgen.kinds.estigmas.render.context import RoundView

Scope = Literal["all", "neighbours", "some"]


def pair_scope(view: RoundView, pairs: Iterable[tuple[str, str]]) -> Scope:
    """ "all": every unordered pair of the round's models; "neighbours": exactly the pairs of
    adjacent ranks; "some": any other set (each pair counted once, in either order)."""
    return _scope(view.model_ids, tuple(row.model_id for row in view.ranked), tuple(pairs))


# Every model page asks for the scope of the same tests: worked out once per round (the
# sets cost milliseconds at a thousand models, two thousand pages per build).
@functools.lru_cache(maxsize=32)
def _scope(
    model_ids: tuple[str, ...], ranked: tuple[str, ...], pairs: tuple[tuple[str, str], ...]
) -> Scope:
    ids = set(model_ids)
    tested = {frozenset(pair) for pair in pairs}
    known = all(len(pair) == 2 and pair <= ids for pair in tested)
    if known and len(tested) == len(ids) * (len(ids) - 1) // 2:
        return "all"
    if tested == {frozenset(pair) for pair in itertools.pairwise(ranked)}:
        return "neighbours"
    return "some"


# The scope of a round's McNemar tests, which every model page's caption asks for: once per
# view (making the scope's keys walks the round's models and tests: a quadratic cost over a
# thousand model pages).
@by_identity(4)
def _mcnemar_scope(view: RoundView) -> Scope:
    tests = view.stats.mcnemar if view.stats is not None else ()
    return pair_scope(view, ((t.model_a, t.model_b) for t in tests))


def _counts(view: RoundView, tr: Translator, tested: int) -> dict[str, str]:
    models = len(view.models)
    return {
        "models": tr.integer(models),
        "pairs": tr.integer(models * (models - 1) // 2),
        "count": tr.integer(tested),
    }


def mcnemar_caption(view: RoundView, tr: Translator) -> str:
    """The caption of the round's McNemar table: which pairs were tested, and why."""
    tests = view.stats.mcnemar if view.stats is not None else ()
    scope = _mcnemar_scope(view)
    if scope == "all":
        return tr("stats.mcnemar_all.caption")
    return tr(f"stats.mcnemar_{'neighbours' if scope == 'neighbours' else 'listed'}.caption",
              **_counts(view, tr, len(tests)))  # fmt: skip


def model_mcnemar_caption(view: RoundView, tr: Translator, model_id: str) -> str:
    """The caption of one model's McNemar table (the pairs tested of the whole round)."""
    tests = view.stats.mcnemar if view.stats is not None else ()
    scope = _mcnemar_scope(view)
    model = view.name_of(model_id)
    if scope == "all":
        return tr("stats.mcnemar.caption", model=model)
    key = "neighbours" if scope == "neighbours" else "listed"
    return tr(f"stats.mcnemar_{key}.model_caption", model=model, **_counts(view, tr, len(tests)))


def pairwise_note(view: RoundView, tr: Translator) -> str | None:
    """Why the ranking's matrix is not drawn (its differences cover adjacent ranks only);
    None when the results hold every pair's difference, or some other set (the matrix then
    shows a dash for each pair without one)."""
    if view.stats is None:
        return None
    differences = view.stats.differences
    if pair_scope(view, ((d.model_a, d.model_b) for d in differences)) != "neighbours":
        return None
    models = len(view.models)
    return tr(
        "ranking.pairwise_neighbours",
        models=tr.integer(models),
        pairs=tr.integer(models * models),
        count=tr.integer(len(view.stats.adjacent)),
    )
