"""The multidomain results object of a round: computed, or read from the core cache."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.results._schema import SCHEMA, Results
from reportgen.results import cache_key as round_cache_key
from reportgen.results import cached_results

Advance = Callable[[int], None]


def build_results(
    round_: Round, *, replicates: int | None = None, advance: Advance | None = None
) -> Results:
    """Every computation of multidomain-metrics.md on `round_` (replicates default to the
    manifest's `bootstrap.replicates`)."""
    raise NotImplementedError


def _cache_parameters(round_: Round, replicates: int) -> list[str]:
    return [SCHEMA, str(replicates), str(round_.manifest.bootstrap_seed)]


def cache_key(round_: Round, replicates: int) -> str:
    return round_cache_key(round_, _cache_parameters(round_, replicates))


def load_results(
    round_: Round,
    replicates: int | None = None,
    cache_dir: Path | None = None,
    advance: Advance | None = None,
) -> Results:
    """The results of `round_`, read from the cache when a valid entry exists."""
    count = round_.manifest.bootstrap_replicates if replicates is None else replicates
    return cached_results(
        Results,
        round_,
        _cache_parameters(round_, count),
        lambda: build_results(round_, replicates=count, advance=advance),
        cache_dir,
    )
