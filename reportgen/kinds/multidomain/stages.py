"""The multidomain kind's hooks beyond the archive: summary and results.

Functions of the same names and signatures as the Estigmas kind's `stages`, for
`MultidomainKind` to call. Each imports its stage only when called, so reading an archive
(which loads the kind) does not load the statistics.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportgen.errors import Problem, ReportgenError
from reportgen.kinds.multidomain.model import Round
from reportgen.model import Round as CoreRound

if TYPE_CHECKING:
    from rich.console import Console

TITLE = {"pt-BR": "Multidomínio", "en": "Multidomain"}


def multidomain_round(round_: CoreRound) -> Round:
    """`round_` as the multidomain round it must be (the registry routes by kind)."""
    if not isinstance(round_, Round):
        raise ReportgenError(
            f"{round_.path}: not a multidomain round (kind {round_.manifest.kind})"
        )
    return round_


def print_summary(round_: CoreRound, console: Console) -> None:
    from reportgen.kinds.multidomain import summary
    from reportgen.kinds.multidomain.results import load_results

    multidomain = multidomain_round(round_)
    summary.print_summary(multidomain, load_results(multidomain), console)


def summary_json(round_: CoreRound) -> dict[str, Any]:
    from reportgen.kinds.multidomain import summary
    from reportgen.kinds.multidomain.results import load_results

    multidomain = multidomain_round(round_)
    return summary.summary_json(multidomain, load_results(multidomain))


def replicates_of(round_: CoreRound, replicates: int | None) -> int:
    return round_.manifest.bootstrap_replicates if replicates is None else replicates


def results_steps(round_: CoreRound, replicates: int | None) -> int:
    """The score bootstrap and the head-to-head bootstrap each report all replicates."""
    return 2 * replicates_of(round_, replicates)


def results_json(
    round_: CoreRound,
    *,
    replicates: int | None,
    cache_dir: Path | None,
    use_cache: bool,
    advance: Callable[[int], None] | None,
) -> dict[str, Any]:
    from reportgen.kinds.multidomain.results import build_results, load_results

    multidomain = multidomain_round(round_)
    count = replicates_of(round_, replicates)
    if use_cache:
        results = load_results(multidomain, count, cache_dir, advance)
    else:
        results = build_results(multidomain, replicates=count, advance=advance)
    return results.to_json_dict()


def reserve_order_problems(rounds: Sequence[CoreRound]) -> list[Problem]:
    """Refusal 7's reserve order for every multidomain round with a previous round: the
    reserves rank by their primary rank there (Art. 5), so the check needs its results."""
    from dataclasses import replace

    from reportgen.archive import Problems
    from reportgen.kinds.multidomain.results import build_results
    from reportgen.kinds.multidomain.rules.cast import check_cast

    known = {round_.round_id: round_ for round_ in rounds if isinstance(round_, Round)}
    found: list[Problem] = []
    for round_ in known.values():
        previous_id = round_.manifest.previous_round
        previous = known.get(previous_id or "")
        if previous is None and previous_id is not None:
            previous = _sibling_round(round_, previous_id)
        if previous is None:
            continue  # no previous round, or check_across reported it
        # Ranks do not depend on the bootstrap: one replicate is enough.
        rank_of = {
            entry.model_id: entry.rank
            for entry in build_results(previous, replicates=1).participants
        }
        ranks = {model.annex_id: rank_of[model.model_id] for model in previous.models}
        problems = Problems()
        check_cast(round_, problems, ranks)
        # Across archives a problem names its archive, as archive_across's do.
        found += [replace(p, file=f"{round_.round_id}/{p.file}") for p in problems.as_list()]
    return found


def _sibling_round(round_: Round, previous_id: str) -> Round | None:
    from reportgen.kinds.rounds import read_round

    path = round_.path.parent / previous_id
    try:
        previous = read_round(path, with_text=True)
    except ReportgenError:
        return None  # archive_across names the problem
    return previous if isinstance(previous, Round) else None
