"""The multidomain kind's stages beyond the archive (`STAGES`): summary, results, pages.

Each hook imports its stage only when called, so reading an archive (which loads the
kind) does not load the statistics.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from reportgen.errors import Problem, ReportgenError
from reportgen.kinds._stages import Advance, Stages, lazy
from reportgen.kinds.multidomain.model import Round
from reportgen.model import Round as CoreRound

if TYPE_CHECKING:
    from reportgen.kinds.multidomain.results import Results

TITLE = {"pt-BR": "Multidomínio", "en": "Multidomain"}


def multidomain_round(round_: CoreRound) -> Round:
    """`round_` as the multidomain round it must be (the registry routes by kind)."""
    return STAGES.round(round_)


def _computed(round_: Round, count: int, advance: Advance | None) -> Results:
    from reportgen.kinds.multidomain.results import build_results

    return build_results(round_, replicates=count, advance=advance)


STAGES: Stages[Round, Results] = Stages(
    round_type=Round,
    noun="a multidomain round",
    summary="reportgen.kinds.multidomain.summary",
    cached=lazy("reportgen.kinds.multidomain.results:load_results"),
    computed=_computed,
    results_schema="reportgen.kinds.multidomain.results:RESULTS_SCHEMA",
    site=lazy("reportgen.kinds.multidomain.render.site_pages:site"),
    # The score bootstrap and the head-to-head bootstrap each report all replicates.
    bootstrap_passes=2,
    render_draft=lazy("reportgen.kinds.multidomain.collect:render_draft"),
    collected_files=lazy("reportgen.kinds.multidomain.collect:collected_files"),
    freeze=lazy("reportgen.kinds.multidomain.freeze:freeze_round"),
    guard_material=lazy("reportgen.kinds.multidomain.render.guard:guard_material"),
    review_task="reportgen.kinds.multidomain.review:REVIEW_TASK",
)


def reserve_order_problems(rounds: Sequence[CoreRound]) -> list[Problem]:
    """Refusal 7's reserve order for every multidomain round with a previous round: the
    reserves rank by their primary rank there (Art. 5), so the check needs its results."""
    from dataclasses import replace

    from reportgen.archive import Problems
    from reportgen.kinds.multidomain.results import participant_ranks
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
        rank_of = participant_ranks(previous)
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
