"""Results kept per argument object, found by identity (reportgen/identity_cache.py)."""

from __future__ import annotations

from reportgen.identity_cache import by_identity


class _Thing:
    """Equal to every other thing: only identity tells two apart."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Thing)

    def __hash__(self) -> int:
        return 0


def test_a_result_is_kept_per_object_and_only_for_the_last_few() -> None:
    calls: list[_Thing] = []

    @by_identity(2)
    def made(thing: _Thing) -> list[_Thing]:
        calls.append(thing)
        return [thing]

    one, two, three = _Thing(), _Thing(), _Thing()
    first = made(one)
    assert made(one) is first
    assert calls == [one]
    assert made(two) is not first  # equal, but another object: made again
    assert calls == [one, two]
    made(three)  # pushes `one` out (two kept)
    assert made(two) == [two]
    assert calls == [one, two, three]
    assert made(one) is not first
    assert calls == [one, two, three, one]
    assert made.__name__ == "made"
