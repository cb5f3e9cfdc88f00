"""The registry of kinds of round: each kind is a plug-in on the shared core.

Core modules never name a kind; they ask `get_kind(manifest.kind)`. Built-in kinds
are imported lazily from `_BUILTIN` (the kind's class, made on first use, so that
importing one of a kind's modules loads no archive machinery); tests add their own
with `register_kind`. The registry sits above the archive core: the core's readers and
writers take it as their `KindCatalogue` (`KINDS`), bound in `reportgen.kinds.rounds`.
A kind's review part (what the review app needs of it) is given by `review_part(name)`
(`reportgen.kinds._review`), imported by name on first use too.
"""

from __future__ import annotations

import importlib

from reportgen.archive._kind import (
    ModelFolderSpec,
    ParquetTableSpec,
    TableRead,
    TableSpec,
    UnknownKindError,
)
from reportgen.archive._kind import kind_for_format as archive_kind_for_format
from reportgen.kinds._base import Kind, KindCapabilityError
from reportgen.kinds._review import (
    ExportRequest,
    FreezeExport,
    KindPage,
    KindReview,
    SampleRequest,
    TaskShape,
    register_review_part,
    register_review_tables,
    review_kind_names,
    review_part,
    unregister_review_part,
)

__all__ = [
    "KINDS",
    "ExportRequest",
    "FreezeExport",
    "Kind",
    "KindCapabilityError",
    "KindPage",
    "KindReview",
    "ModelFolderSpec",
    "ParquetTableSpec",
    "SampleRequest",
    "TableRead",
    "TableSpec",
    "TaskShape",
    "UnknownKindError",
    "added_kinds",
    "get_kind",
    "kind_command_summaries",
    "kind_commands",
    "kind_for_format",
    "kind_names",
    "register_kind",
    "register_review_part",
    "register_review_tables",
    "registered_kinds",
    "review_kind_names",
    "review_part",
    "unregister_kind",
    "unregister_review_part",
]

# Kind name -> "module:class" of the kind.
_BUILTIN: dict[str, str] = {
    "estigmas": "reportgen.kinds.estigmas.kind:EstigmasKind",
    "multidomain": "reportgen.kinds.multidomain.kind:MultidomainKind",
    "counterfactual": "reportgen.kinds.counterfactual.kind:CounterfactualKind",
}
# Commands a built-in kind adds to the CLI: name -> "module:attribute". Kept here, as
# strings, so that `reportgen --help` lists them without importing any kind.
# With each, the first sentence of its help, which `reportgen --help` lists.
_BUILTIN_COMMANDS: dict[str, tuple[str, str]] = {
    "label": (
        "reportgen.kinds.estigmas.cli:label",
        "Label model outputs with the deterministic parser.",
    ),
    "counterfactual": (
        "reportgen.kinds.counterfactual.cli:counterfactual",
        "Commands of the counterfactual audit battery (kind `counterfactual`).",
    ),
}
_registered: dict[str, Kind] = {}
# Names given to `register_kind` (a plug-in's or a test's kind, outside the package).
_added: set[str] = set()


def kind_commands() -> dict[str, str]:
    """The CLI commands the built-in kinds add (name -> "module:attribute")."""
    return {name: target for name, (target, _) in _BUILTIN_COMMANDS.items()}


def kind_command_summaries() -> dict[str, str]:
    """The first sentence of the help of each command `kind_commands` names."""
    return {name: summary for name, (_, summary) in _BUILTIN_COMMANDS.items()}


def kind_names() -> frozenset[str]:
    """The name of every kind, built-in or registered, without loading any."""
    return frozenset({*_BUILTIN, *_registered})


def register_kind(kind: Kind) -> None:
    """Add `kind` (or replace the one of the same name)."""
    _registered[kind.name] = kind
    _added.add(kind.name)


def unregister_kind(name: str) -> None:
    """Remove a kind added with `register_kind` (tests clean up with it)."""
    _registered.pop(name, None)
    _added.discard(name)


def added_kinds() -> frozenset[str]:
    """The names of the kinds `register_kind` added or replaced (and not removed): their
    code is not the package's, so `reportgen summary` does not cache their answers."""
    return frozenset(_added)


def get_kind(name: str) -> Kind:
    """The kind called `name`; UnknownKindError when there is none."""
    if name in _registered:
        return _registered[name]
    target = _BUILTIN.get(name)
    if target is None:
        raise UnknownKindError(name, {*_BUILTIN, *_registered})
    module, _, class_name = target.partition(":")
    kind: Kind = getattr(importlib.import_module(module), class_name)()
    _registered[name] = kind
    return kind


def registered_kinds() -> tuple[Kind, ...]:
    """Every kind: the built-in ones and those registered, by name."""
    for name in _BUILTIN:
        get_kind(name)
    return tuple(_registered[name] for name in sorted(_registered))


def kind_for_format(format_name: str) -> Kind | None:
    """The kind whose legacy format is `format_name`, if any."""
    return archive_kind_for_format(KINDS, format_name)


class _Registry:
    """The registry as the archive core's `KindCatalogue`."""

    def get_kind(self, name: str) -> Kind:
        return get_kind(name)

    def kind_names(self) -> frozenset[str]:
        return kind_names()

    def registered_kinds(self) -> tuple[Kind, ...]:
        return registered_kinds()


KINDS = _Registry()
