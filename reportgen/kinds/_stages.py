"""`Stages`: a kind's stages beyond the archive, declared once.

A kind names its hooks in one `Stages` object (its round class, its summary, its
results computed or cached, its pages, and the optional stages around them: rendering a
draft, importing answers, freezing, the leak guard's material, the review task); `Kind`
runs `reportgen summary`, `reportgen stats`, the build, `render`, `import` and `freeze`
from it, so that no kind repeats the narrowing of the round, the replicate count, the
cache choice or the delegation. Hooks are loaded on first use
(`lazy`, or a function that imports inside): reading an archive, which loads the kind,
loads no statistics, charts or pages.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, NotRequired, Protocol, TypedDict, TypeVar, Unpack

from reportgen.errors import ReportgenError
from reportgen.model import Round as CoreRound

if TYPE_CHECKING:
    from rich.console import Console

    from reportgen.collect.collected import Matched
    from reportgen.guard import GuardMaterial
    from reportgen.render.site_source import SiteSource
    from reportgen.render.siteconfig import SiteConfig
    from reportgen.results.schema import ResultsSchema

Advance = Callable[[int], None]  # steps done since the last call
Progress = Callable[[str], None]  # a line saying what a long step is doing


class ResultsObject(Protocol):
    """A kind's results object: its JSON form is what `reportgen stats` writes."""

    def to_json_dict(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=CoreRound)
Res = TypeVar("Res", bound=ResultsObject)


class SiteOptions(TypedDict):
    """How a build asks for a kind's pages: the results cache, a line saying what a long
    step is doing, the section depth (1 where they form a section, a folder, of a site of
    several kinds; 0 when left out)."""

    cache_dir: Path | None
    progress: NotRequired[Progress | None]
    section_depth: NotRequired[int]


class SiteHook(Protocol):
    """The pages of a kind's rounds (`Kind.site`)."""

    def __call__(
        self, rounds: Sequence[CoreRound], config: SiteConfig, **options: Unpack[SiteOptions]
    ) -> SiteSource: ...


class DraftHook(Protocol):
    """The raw round of a draft (`Kind.render_draft`); a kind whose order is fixed
    ignores `seed`."""

    def __call__(self, draft_dir: Path, raw_dir: Path, *, seed: int | None) -> str: ...


def lazy(target: str) -> Any:
    """The function `module:name`, imported when first called."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return load_attribute(target)(*args, **kwargs)

    return call


@dataclass(frozen=True)
class Stages(Generic[R, Res]):
    """What a kind does after the archive: summary, results, pages."""

    round_type: type[R]  # the kind's round class
    noun: str  # the round in words, in the refusal of another kind's ("a multidomain round")
    cached: Callable[[R, int, Path | None, Advance | None], Res]  # results, from the cache
    computed: Callable[[R, int, Advance | None], Res]  # results, computed afresh
    # The summary: a module whose print_summary(round, results, console) (tables for
    # people) and summary_json(round, results) (for machines) read the round's cached
    # results; or the two hooks themselves, which take the round alone.
    summary: str | None = None
    summary_table: Callable[[R, Console], None] | None = None
    summary_data: Callable[[R], dict[str, Any]] | None = None
    # "module:attribute" of the results' `ResultsSchema` (`python -m reportgen.kinds.schemas`)
    results_schema: str | None = None
    site: SiteHook | None = None  # the pages; None: the kind has none yet
    # How many times the results' bootstrap runs every replicate (the progress bar).
    bootstrap_passes: int = 1
    # The stages around the results (None: the kind does not provide it).
    render_draft: DraftHook | None = None  # a draft into the calls to send
    collected_files: Callable[[Path, Matched], dict[str, bytes]] | None = None  # answers
    freeze: Callable[[Path, Path], str] | None = None  # a raw round into an archive
    guard_material: Callable[[R], GuardMaterial] | None = None  # what the site keeps secret
    review_task: str | None = None  # "module:attribute" of the kind's `ReviewTask`

    def round(self, round_: CoreRound) -> R:
        """`round_` as the kind's round it must be (the registry routes by kind)."""
        if not isinstance(round_, self.round_type):
            raise ReportgenError(f"{round_.path}: not {self.noun} (kind {round_.manifest.kind})")
        return round_

    def print_summary(self, round_: CoreRound, console: Console) -> None:
        typed = self.round(round_)
        if self.summary_table is not None:
            self.summary_table(typed, console)
        else:
            self._summary_module().print_summary(typed, self._summary_results(typed), console)

    def summary_json(self, round_: CoreRound) -> dict[str, Any]:
        typed = self.round(round_)
        if self.summary_data is not None:
            return self.summary_data(typed)
        data: dict[str, Any] = self._summary_module().summary_json(
            typed, self._summary_results(typed)
        )
        return data

    def _summary_module(self) -> Any:
        if self.summary is None:
            raise ReportgenError(f"the kind of {self.noun} declares no summary")
        return importlib.import_module(self.summary)

    def _summary_results(self, round_: R) -> Res:
        """The round's results with its own replicates, from the cache (the default one)."""
        return self.cached(round_, replicates_of(round_, None), None, None)

    def results_steps(self, round_: CoreRound, replicates: int | None) -> int:
        return self.bootstrap_passes * replicates_of(round_, replicates)

    def results_json(
        self,
        round_: CoreRound,
        *,
        replicates: int | None,
        cache_dir: Path | None,
        use_cache: bool,
        advance: Advance | None,
    ) -> dict[str, Any]:
        typed = self.round(round_)
        count = replicates_of(round_, replicates)
        if use_cache:
            return self.cached(typed, count, cache_dir, advance).to_json_dict()
        return self.computed(typed, count, advance).to_json_dict()


def load_attribute(target: str) -> Any:
    """The attribute `module:name`, imported now."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def load_results_schema(stages: Stages[Any, Any]) -> ResultsSchema | None:
    """The kind's `ResultsSchema` (imported now), None when it declares none."""
    if stages.results_schema is None:
        return None
    schema: ResultsSchema = load_attribute(stages.results_schema)
    return schema


def replicates_of(round_: CoreRound, replicates: int | None) -> int:
    """The replicates asked for, else the round's own (`bootstrap.replicates`)."""
    return round_.manifest.bootstrap_replicates if replicates is None else replicates
