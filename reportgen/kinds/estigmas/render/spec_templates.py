"""Vega-Lite specs of charts drawn once per model, built with Altair once per shape.

A model's page has two small charts whose specs differ from model to model only in their
inline data (and in what the caller puts in the shape's key: the language, a colour, which
layers are drawn). Building each with Altair costs tens of milliseconds (its schema
objects are copied and converted for every chart), which a round of a thousand models pays
four thousand times per build. `SpecTemplates.spec` builds the first chart of each shape
with Altair and keeps it; every other chart of that shape is the kept spec with its
datasets replaced, named as Altair names them (`_dataset_name`, a hash of the values), so
the spec is the one Altair would have built, key for key (tests/test_spec_templates.py
compares the two on every model of a round).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable, Sequence
from typing import Any, cast

from altair.vegalite.v6.api import _dataset_name

Rows = list[dict[str, Any]]


def _name(rows: Rows) -> str:
    """The name Altair gives an inline dataset (its stubs type the values more narrowly)."""
    return _dataset_name(cast(Any, rows))


def _pattern(datasets: Sequence[Rows]) -> tuple[int, ...]:
    """Which datasets are equal (Altair keeps equal ones once, under one name)."""
    return tuple(next(j for j in range(i + 1) if datasets[j] == d) for i, d in enumerate(datasets))


def _copied(node: Any) -> Any:
    """A deep copy of a JSON value (dicts, lists, scalars): what `copy.deepcopy` gives, for a
    tenth of its time (it keeps a memo of every object it copies)."""
    if isinstance(node, dict):
        return {key: _copied(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_copied(value) for value in node]
    return node


def _renamed(node: Any, names: dict[str, str]) -> None:
    """Point every `{"data": {"name": old}}` under `node` at its new name, in place."""
    if isinstance(node, dict):
        data = node.get("data")
        if isinstance(data, dict) and data.get("name") in names:
            data["name"] = names[data["name"]]
        for value in node.values():
            _renamed(value, names)
    elif isinstance(node, list):
        for value in node:
            _renamed(value, names)


class SpecTemplates:
    """Specs kept per shape, for one build (the page builders share one)."""

    def __init__(self) -> None:
        self._kept: dict[Hashable, tuple[dict[str, Any], list[str]]] = {}

    def spec(
        self,
        key: Hashable,
        datasets: Sequence[Rows],
        build: Callable[[Sequence[Rows]], dict[str, Any]],
    ) -> dict[str, Any]:
        """The spec `build(datasets)` returns, built once per (`key`, pattern of equal
        datasets); `key` must name everything but the datasets that the spec depends on."""
        shape = (key, _pattern(datasets))
        kept = self._kept.get(shape)
        if kept is None:
            spec = build(datasets)
            self._kept[shape] = (copy.deepcopy(spec), [_name(d) for d in datasets])
            return spec
        template, old_names = kept
        new_names = [_name(d) for d in datasets]
        renamed = dict(zip(old_names, new_names, strict=True))
        values = dict(zip(new_names, datasets, strict=True))
        # The template's keys in its order (Altair's), the datasets' rows left out of the walk.
        spec = {name: None if name == "datasets" else _copied(value)
                for name, value in template.items()}  # fmt: skip
        _renamed({name: value for name, value in spec.items() if name != "datasets"}, renamed)
        if "datasets" in template:
            spec["datasets"] = {renamed[old]: values[renamed[old]] for old in template["datasets"]}
        return spec
