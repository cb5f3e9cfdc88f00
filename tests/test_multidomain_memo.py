"""The per-round memo of the multidomain build (memo.RecentByIdentity)."""

from __future__ import annotations

from reportgen.kinds.multidomain.memo import RecentByIdentity


def test_the_same_objects_reuse_the_value_and_equal_ones_do_not() -> None:
    memo: RecentByIdentity[int] = RecentByIdentity(size=2)
    calls: list[int] = []

    def compute(value: int) -> int:
        calls.append(value)
        return value

    first, equal = [1, 2], [1, 2]
    assert memo.get((first,), lambda: compute(1)) == 1
    assert memo.get((first,), lambda: compute(99)) == 1  # same object: kept
    assert memo.get((equal,), lambda: compute(2)) == 2  # equal but another object
    assert calls == [1, 2]


def test_only_the_last_inputs_are_kept() -> None:
    memo: RecentByIdentity[str] = RecentByIdentity(size=2)
    a, b, c = object(), object(), object()
    memo.get((a,), lambda: "a")
    memo.get((b,), lambda: "b")
    memo.get((a,), lambda: "a again")  # a is the most recent now
    memo.get((c,), lambda: "c")  # b goes
    assert memo.get((a,), lambda: "a recomputed") == "a"
    assert memo.get((b,), lambda: "b recomputed") == "b recomputed"
