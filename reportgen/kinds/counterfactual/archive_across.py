"""Rules across counterfactual archives (counterfactual-round.md, refusals 12 and 14's
baseline_model_id): `baseline_round` names an earlier counterfactual round of the same
battery (read from beside the round when the caller did not pass it), and each system's
`baseline_model_id` is a system of that round."""

from __future__ import annotations

from collections.abc import Sequence

from reportgen.errors import Problem
from reportgen.kinds.counterfactual.model import NAME, Round
from reportgen.model import Round as CoreRound

_BASELINE = "counterfactual.baseline_round"


def check_across(rounds: Sequence[CoreRound]) -> list[Problem]:
    from reportgen.kinds.rounds import round_beside

    ours = [round_ for round_ in rounds if isinstance(round_, Round)]
    known: dict[str, CoreRound] = {round_.round_id: round_ for round_ in rounds}
    problems: list[Problem] = []
    for round_ in ours:
        baseline_id = round_.manifest.baseline_round
        baseline = round_beside(round_, baseline_id, known, _BASELINE, (Round, NAME), problems)
        if baseline is None or not _usable_baseline(round_, baseline, problems):
            continue
        systems = {system.model_id for system in baseline.models}
        for number, system in enumerate(round_.models, start=1):
            if system.baseline_model_id and system.baseline_model_id not in systems:
                problems.append(
                    Problem(
                        f"{round_.round_id}/models.csv",
                        f"row {number} (model {system.model_id!r}), baseline_model_id",
                        f"{system.baseline_model_id!r} is not a system of the baseline round "
                        f"{baseline.round_id!r} (its models: {', '.join(sorted(systems))})",
                    )
                )
    return problems


def _usable_baseline(round_: Round, baseline: Round, problems: list[Problem]) -> bool:
    """Whether the baseline ran the same battery and ended before this round (a problem
    otherwise)."""
    file, baseline_id = f"{round_.round_id}/round.json", round_.manifest.baseline_round
    if baseline.manifest.battery_sha256 != round_.manifest.battery_sha256:
        message = (
            f"{baseline_id!r} ran another battery (battery_sha256 "
            f"{baseline.manifest.battery_sha256}): a re-measurement runs the same battery"
        )
        problems.append(Problem(file, _BASELINE, message))
        return False
    ended = baseline.manifest.ended_on
    if ended is None or ended > round_.manifest.collected_on:
        message = (
            f"{baseline_id!r} ended on {ended}, after this round's collected_on "
            f"{round_.manifest.collected_on}: a baseline is an earlier round"
        )
        problems.append(Problem(file, _BASELINE, message))
        return False
    return True
