"""A kind's review part: what the review app needs from a kind, and its registry.

The review app (review_app/) is generic: its core, tasks, round work and pages know the
review units a kind declares (`reportgen.kinds.review_task`) and nothing else of it.
What a kind does beyond that lives in its own folder, in its review package
(reportgen/kinds/<kind>/review/), and reaches the app only through `review_part(name)`:

- `sample`: `reportgen review sample` of a kind whose review has tasks of its own (its
  units drawn by its own rules); a kind without one gets the plain stratified draw;
- `export`: `reportgen review export` of such a kind (its files, to freeze with the round);
- `freeze_export`: `reportgen review freeze-export`, the export frozen into the archive;
- `contest`: the contestation dates and ledger of a kind that brings its own (the app's
  defaults otherwise);
- `commands`: the kind's own `reportgen review` subcommands (made with the review
  group's `--db` option and engine);
- `tables`: the module that declares the kind's own tables on the review database
  (imported by `register_review_tables`, which the app's storage calls before it creates
  the schema);
- `pages`: the kind's own pages in the app (`KindPage`: its administrator pages), which
  the app's entry point mounts for their role;
- `shapes`: the task shapes the kind's tasks use beyond the app's own (`TaskShape`: how
  a reviewer's page shows one sample and takes its answer), found by the app's registry
  of shapes (review_app/tasks/shapes.py).

The parts are named here as "module:attribute" strings and imported on first use, as the
kinds themselves are (`reportgen.kinds._BUILTIN`): the rest of reportgen never imports a
kind's review modules, which are written on the review app's database and storage
(pyproject.toml's import contracts). This module imports nothing of the review app.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import click
    from sqlalchemy import Engine

    from reportgen.model import Annulment

OpenEngine = Callable[[], "Engine"]
# The kind's own `reportgen review` subcommands, made with the review group's `--db`
# option and the engine it opens (db_option, open_engine(db_url)); the app's CLI passes
# them in, so that a kind's review part never imports the app's CLI.
CommandsOf = Callable[
    [Callable[[Callable[..., Any]], Callable[..., Any]], Callable[[str | None], "Engine"]],
    Sequence["click.Command"],
]


@dataclass(frozen=True)
class SampleRequest:
    """`review sample ROUND --task T` as the CLI hands it to a kind's review part:
    `task_type` is one of the part's `tasks` (the CLI refuses any other)."""

    round_dir: Path
    task_type: str
    seed: int | None
    reviewers: tuple[str, ...]  # account names; empty: every reviewer account
    dry_run: bool
    open_engine: OpenEngine


# `review sample`: a dry run prints its CSV and returns None; a stored batch returns the
# line to print. A bad `--seed` is refused here (click.BadParameter).
SampleTasks = Callable[[SampleRequest], "str | None"]


@dataclass(frozen=True)
class ExportRequest:
    """`review export ROUND` as the CLI hands it to a kind's review part."""

    round_dir: Path
    output: Path | None  # the folder (None: the kind's default)
    reviewer_map: Path | None  # CSV account,judge_id (a kind that has no use for it ignores it)
    force: bool  # replace files that exist
    open_engine: OpenEngine


# `review export`: writes the kind's files; returns what to tell the user.
ExportReview = Callable[[ExportRequest], str]


class FreezeExport(Protocol):
    """`review freeze-export EXPORT ROUND`: freezes the export; returns the line to print."""

    def __call__(self, engine: Engine, export_dir: Path, round_dir: Path) -> str: ...


@dataclass(frozen=True)
class ContestRules:
    """The contestation dates and ledger of a kind that brings its own."""

    # (round_dir, round_id, item_id, published) -> (opens, closes) of the item's window.
    window: Callable[[Path, str, str, datetime | None], tuple[datetime, datetime]]
    # round_dir -> days the administrator has to reply.
    reply_days: Callable[[Path], int]
    # round_dir -> the round's ledger, read as the app reads it mid-review.
    annulments: Callable[[Path], Sequence[Annulment]]
    # Appends one line (round_dir, *, item_id, decided_on, source, ref, reason).
    append: Callable[..., object]


@dataclass(frozen=True)
class KindPage:
    """A page of the kind in the review app, shown to the accounts of `role`."""

    key: str  # its name in the navigation: a key of the app's catalogue (review_app/locales)
    target: str  # "module:function" of the Streamlit page (no argument), imported when shown
    role: str = "admin"

    def show(self) -> None:
        """Import the page's function and run it."""
        load_target(self.target)()


@dataclass(frozen=True)
class TaskShape:
    """How the review app shows one sample of a task shape and takes its answer.

    `view` is "module:function" of a Streamlit view called with the sample
    (`review_app.tasks.reviewing.ReviewSample`) and the page's note field (sample -> the
    note typed); it returns the error of a refused answer (the page shows it) or None.
    `shortcuts` is the catalogue key of the keyboard help shown under the sample."""

    name: str  # what a `ReviewTask.shape_of` says
    view: str
    shortcuts: str

    def load_view(self) -> Any:
        """The view's function, its module imported now."""
        return load_target(self.view)


@dataclass(frozen=True)
class KindReview:
    """A kind's review part; a kind without one is reviewed by the app's defaults."""

    sample: SampleTasks | None = None
    # The task names `sample` offers (`review sample --task`): the CLI refuses any other,
    # and a missing `--task` unless there is only one (that one is given to `sample`).
    tasks: tuple[str, ...] = ()
    export: ExportReview | None = None
    freeze_export: FreezeExport | None = None
    contest: ContestRules | None = None
    commands: CommandsOf | None = None
    # The module whose import declares the kind's own tables on the review database's
    # MetaData (`review_app.core.db.metadata`); the app's storage imports it through
    # `register_review_tables` before it creates the schema.
    tables: str | None = None
    pages: tuple[KindPage, ...] = ()
    shapes: tuple[TaskShape, ...] = ()

    def __post_init__(self) -> None:
        if (self.sample is None) != (not self.tasks):
            raise ValueError("a review part's own sample and its tasks go together")


NO_REVIEW_PART = KindReview()

# Kind name -> "module:attribute" of its review part, in the order their tasks are
# listed.
_BUILTIN_REVIEW: dict[str, str] = {
    "multidomain": "reportgen.kinds.multidomain.review.part:REVIEW",
    "counterfactual": "reportgen.kinds.counterfactual.review.part:REVIEW",
}
_review_parts: dict[str, KindReview] = {}


def lazy(target: str) -> Callable[..., Any]:
    """The function named by `target` ("module:attribute"), imported when first called:
    a part names what does its work without loading it (the review CLI's `--help`
    reads the parts)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return load_target(target)(*args, **kwargs)

    return call


def register_review_part(name: str, part: KindReview) -> None:
    """Give the kind called `name` (a plug-in's or a test's) its review part."""
    _review_parts[name] = part


def unregister_review_part(name: str) -> None:
    """Remove a part given with `register_review_part`."""
    _review_parts.pop(name, None)


def review_part(name: str) -> KindReview:
    """The review part of the kind called `name`; `NO_REVIEW_PART` for a kind without one."""
    if name in _review_parts:
        return _review_parts[name]
    target = _BUILTIN_REVIEW.get(name)
    if target is None:
        return NO_REVIEW_PART
    part: KindReview = load_target(target)
    _review_parts[name] = part
    return part


def load_target(target: str) -> Any:
    """The attribute named by "module:attribute", its module imported now."""
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


def register_review_tables() -> None:
    """Import every kind's review tables (`KindReview.tables`), so that the review
    database's schema holds them: the app's storage calls it before creating the schema.
    Importing an already imported module does nothing."""
    for name in review_kind_names():
        module = review_part(name).tables
        if module is not None:
            importlib.import_module(module)


def review_kind_names() -> tuple[str, ...]:
    """The kinds with a review part, built-in first (in `_BUILTIN_REVIEW`'s order)."""
    return (*_BUILTIN_REVIEW, *sorted(set(_review_parts) - set(_BUILTIN_REVIEW)))
