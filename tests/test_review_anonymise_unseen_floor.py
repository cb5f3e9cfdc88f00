"""The anonymiser's figures on its evaluation corpora (issue 23), as a floor: a change that
removes fewer self-identifying answers, or alters more innocent ones, than the anonymiser did
when these figures were measured fails here. The figures themselves, per language and class,
are bench/bench_anonymiser_corpus.py's.

`heldout` is an evaluation corpus that nobody tunes on; its floor does not claim the issue's
goal (at least 99 % removed, at most 2 % altered). `fresh` and `fresh2` were read and tuned
on in round 4, `fresh3` in round 5, `fresh4` in round 6 and `fresh5` in round 7 (the lead
retired each as an evaluation corpus): they are development corpora now, like `dev2`, and
their floors keep what round 7 reached, which says nothing of unseen answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from review_app.anonymiser.anonymise import Scrubber, round_names
from tests.support.anonymiser_corpus import demonstration_models, measure, read_corpus

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "tests" / "data" / "anonymiser"
# corpus: (answers removed at least, innocent answers altered at most), measured 2026-12-02
# after round 7 (heldout: 217 and 4 after round 4, 219 and 4 after round 5, its floor kept in
# round 6 without its figures being printed, 219 and 3 for round 6's code and 220 and 3 after
# round 7, printed once at the end of round 7; fresh3, measured once after round 4 at 198 and
# 3, then tuned on in round 5; fresh4, written during round 5 by someone who never read the
# rules, measured once after it at 199 of 211 and 9 of 208, then tuned on in round 6; the
# altered answers of fresh4 and dev2 name OpenAI, a demonstration round's maker, in the news;
# fresh5, written during round 6 by someone who never read the rules, measured once after it
# at 190 of 218 and 10 of 214, the fair figure of round 6, then tuned on in round 7; fresh6,
# written during round 7 by someone who never read the rules, measured once after it at 119
# of 171 and 2 of 165, the fair figure of round 7)
FLOORS = {
    "heldout": (220, 3),
    "dev2": (362, 1),
    "fresh": (72, 0),
    "fresh2": (78, 0),
    "fresh3": (205, 0),
    "fresh4": (211, 4),
    "fresh5": (217, 0),
    "fresh6": (119, 2),
}


@pytest.fixture(scope="module")
def scrub() -> Scrubber:
    return Scrubber(round_names(demonstration_models(ROOT)))


@pytest.mark.parametrize("corpus", sorted(FLOORS))
def test_no_fewer_removed_and_no_more_altered_than_measured(scrub: Scrubber, corpus: str) -> None:
    measurement = measure(read_corpus(CORPORA / corpus), scrub)
    removed_at_least, altered_at_most = FLOORS[corpus]
    # Counts only in the message: heldout's texts must not be shown to anyone tuning rules.
    assert measurement.removed.hits >= removed_at_least, (
        f"{corpus}: removed {measurement.removed.hits}/{measurement.removed.total}"
    )
    assert measurement.altered.hits <= altered_at_most, (
        f"{corpus}: altered {measurement.altered.hits}/{measurement.altered.total}"
    )
