"""Agreement with its denominators: what each coefficient was computed on, how splits
were handled, bootstrap intervals, pairwise κ and each reviewer's agreement over time.

The result is the export's own record (`reportgen.audit_export.Agreement`), so that the
administrator's page, the export file and the site's audit page show the same numbers.
Names are the reviewers' account names here; the export replaces them by pseudonyms.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import date
from itertools import combinations

from reportgen.audit_export import Agreement, AgreementPoint, Bootstrap, Estimate, PairKappa
from reportgen.kinds.review_task import ReviewTask
from review_app.rounds.admin import JudgedSample
from review_app.rounds.calibration import (
    BOOTSTRAP_REPLICATES,
    BOOTSTRAP_SEED,
    INTERVAL_LEVEL,
    alpha_interval,
    cohens_kappa,
    kappa_interval,
    krippendorff_alpha_nominal,
)


def _number(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 6)


def _kappa_estimate(
    first: Sequence[str], second: Sequence[str], replicates: int, seed: int
) -> Estimate:
    low, high = kappa_interval(first, second, replicates=replicates, seed=seed)
    return Estimate(
        value=_number(cohens_kappa(first, second)),
        n=len(first),
        low=_number(low),
        high=_number(high),
    )


def agreement(
    judged: Sequence[JudgedSample],
    task: ReviewTask,
    *,
    replicates: int = BOOTSTRAP_REPLICATES,
    seed: int = BOOTSTRAP_SEED,
) -> Agreement:
    """Every agreement figure of `judged` (samples of rounds whose kind has `task`).

    Reviewers meet automatic scoring in the task's comparison space; reviewers meet each
    other (α, pairwise κ) on their choices."""
    compare = task.compare
    with_consensus = [s for s in judged if s.consensus is not None]
    consensus = _kappa_estimate(
        [compare(str(s.consensus)) for s in with_consensus],
        [compare(s.automatic) for s in with_consensus],
        replicates,
        seed,
    )
    every_judgment = [(c, s.automatic) for s in judged for c in s.choices.values()]
    units = [list(s.choices.values()) for s in judged]
    alpha_low, alpha_high = alpha_interval(units, replicates=replicates, seed=seed)
    return Agreement(
        samples_judged=len(judged),
        consensus_vs_automatic=consensus,
        splits_left_out=len(judged) - len(with_consensus),
        consensus_adjudicated=sum(1 for s in with_consensus if s.adjudicated is not None),
        judgments_vs_automatic=_kappa_estimate(
            [compare(c) for c, _ in every_judgment],
            [compare(a) for _, a in every_judgment],
            replicates,
            seed,
        ),
        alpha_reviewers=Estimate(
            value=_number(krippendorff_alpha_nominal(units)),
            n=sum(1 for values in units if len(values) >= 2),
            low=_number(alpha_low),
            high=_number(alpha_high),
        ),
        kappa_by_reviewer=_by_reviewer(judged, task, replicates, seed),
        kappa_pairwise=_pairwise(judged),
        over_time=_over_time(judged, task),
        bootstrap=Bootstrap(replicates=replicates, seed=seed, level=INTERVAL_LEVEL),
    )


def _by_reviewer(
    judged: Sequence[JudgedSample], task: ReviewTask, replicates: int, seed: int
) -> dict[str, Estimate]:
    pairs: dict[str, tuple[list[str], list[str]]] = defaultdict(lambda: ([], []))
    for sample in judged:
        for name, choice in sample.choices.items():
            pairs[name][0].append(task.compare(choice))
            pairs[name][1].append(task.compare(sample.automatic))
    return {
        name: _kappa_estimate(mine, automatic, replicates, seed)
        for name, (mine, automatic) in sorted(pairs.items())
    }


def _pairwise(judged: Sequence[JudgedSample]) -> tuple[PairKappa, ...]:
    """κ of each pair of reviewers on the samples both judged (pairs without any: absent)."""
    names = sorted({name for s in judged for name in s.choices})
    found: list[PairKappa] = []
    for first, second in combinations(names, 2):
        shared = [s.choices for s in judged if first in s.choices and second in s.choices]
        if shared:
            kappa = cohens_kappa([c[first] for c in shared], [c[second] for c in shared])
            found.append(PairKappa(first=first, second=second, kappa=_number(kappa), n=len(shared)))
    return tuple(found)


def _over_time(judged: Sequence[JudgedSample], task: ReviewTask) -> tuple[AgreementPoint, ...]:
    """Each reviewer's share of judgments agreeing with automatic scoring, day by day (UTC),
    by the day each judgment was first submitted."""
    hits: dict[tuple[str, date], list[bool]] = defaultdict(list)
    for sample in judged:
        for name, choice in sample.choices.items():
            moment = sample.submitted.get(name)
            if moment is not None:
                same = task.compare(choice) == task.compare(sample.automatic)
                hits[(name, moment.date())].append(same)
    return tuple(
        AgreementPoint(reviewer=name, day=day, agreement=round(sum(h) / len(h), 6), n=len(h))
        for (name, day), h in sorted(hits.items())
    )


def pseudonymised(detail: Agreement, pseudonyms: Mapping[str, str]) -> Agreement:
    """The same figures with each reviewer's name replaced by its pseudonym."""
    return detail.model_copy(
        update={
            "kappa_by_reviewer": {
                pseudonyms[name]: estimate for name, estimate in detail.kappa_by_reviewer.items()
            },
            "kappa_pairwise": tuple(
                pair.model_copy(
                    update={"first": pseudonyms[pair.first], "second": pseudonyms[pair.second]}
                )
                for pair in detail.kappa_pairwise
            ),
            "over_time": tuple(
                point.model_copy(update={"reviewer": pseudonyms[point.reviewer]})
                for point in detail.over_time
            ),
        }
    )
