"""A function's results kept for the last few objects it was given, found by identity.

A build makes its round, its views and its results once and reads them from many pages:
what is derived from one of them (a round's item table, a view's downloads, the model
pages' index of a round's tests) is worth making once per object, but such objects are
large, so hashing or comparing them field by field would cost more than the result.
`by_identity` keeps the results of the last `size` objects, looked up with `is`; it holds
those objects alive until newer ones push them out, so a long-lived process keeps at most
`size` of them through it. The objects must not change after the first call (the build's
are frozen dataclasses).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

Key = TypeVar("Key")
Value = TypeVar("Value")


def by_identity(size: int) -> Callable[[Callable[[Key], Value]], Callable[[Key], Value]]:
    """Decorate a function of one argument so that its result is kept for the last `size`
    arguments, found by identity."""

    def decorate(function: Callable[[Key], Value]) -> Callable[[Key], Value]:
        kept: list[tuple[Key, Value]] = []  # newest first

        @functools.wraps(function)
        def cached(argument: Key) -> Value:
            for seen, value in kept:
                if seen is argument:
                    return value
            value = function(argument)
            kept[:] = [(argument, value), *kept[: size - 1]]
            return value

        return cached

    return decorate
