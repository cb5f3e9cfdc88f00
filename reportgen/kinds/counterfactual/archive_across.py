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
    ours = [round_ for round_ in rounds if isinstance(round_, Round)]
    known: dict[str, CoreRound] = {round_.round_id: round_ for round_ in rounds}
    problems: list[Problem] = []
    for round_ in ours:
        baseline = _baseline(round_, known, problems)
        if baseline is None:
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


def _baseline(round_: Round, known: dict[str, CoreRound], problems: list[Problem]) -> Round | None:
    """The baseline round, checked (None, after a problem, when it is unusable)."""
    baseline_id = round_.manifest.baseline_round
    if baseline_id is None:
        return None
    from reportgen.kinds.rounds import round_beside

    file = f"{round_.round_id}/round.json"
    baseline = round_beside(round_, baseline_id, known, _BASELINE, (Round, NAME), problems)
    if baseline is None:
        return None
    if baseline.manifest.battery_sha256 != round_.manifest.battery_sha256:
        message = (
            f"{baseline_id!r} ran another battery (battery_sha256 "
            f"{baseline.manifest.battery_sha256}): a re-measurement runs the same battery"
        )
        problems.append(Problem(file, _BASELINE, message))
        return None
    ended = baseline.manifest.ended_on
    if ended is None or ended > round_.manifest.collected_on:
        message = (
            f"{baseline_id!r} ended on {ended}, after this round's collected_on "
            f"{round_.manifest.collected_on}: a baseline is an earlier round"
        )
        problems.append(Problem(file, _BASELINE, message))
        return None
    return baseline
