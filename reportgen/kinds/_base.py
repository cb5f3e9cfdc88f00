"""`Kind`: what a kind of round declares to plug into the shared core.

The archive hooks (abstract: every kind has them): the manifest block, the kind's
tables (CSV or Parquet), its item and response columns, and building the kind's typed
round from the core read. Optional: models.csv columns (`model_columns`, `parse_model`),
rules across the typed round's tables (`check_round`) and across archives
(`check_across`); they are the archive core's `ArchiveKind`, which `Kind` extends. The
other stages: the summary, the results object and the pages (`reportgen summary`,
`reportgen stats`, the build), which a kind declares once as its `stages` (`Stages`),
what the leak guard keeps secret, and the review task. A kind that lacks one of them
says so with `KindCapabilityError` when it is asked, so a kind can grow stage by stage.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from reportgen.archive._kind import ArchiveKind
from reportgen.errors import ReportgenError
from reportgen.kinds._stages import Advance, SiteHook, Stages, load_attribute

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console

    from reportgen.collect.collected import Matched
    from reportgen.guard import GuardMaterial
    from reportgen.kinds.review_task import ReviewTask
    from reportgen.model import Model, Round


class KindCapabilityError(ReportgenError):
    """The round's kind does not (yet) provide what was asked of it."""

    def __init__(self, kind: str, what: str) -> None:
        super().__init__(f"kind {kind!r} does not provide {what}")


class Kind(ArchiveKind):
    """A kind of round (estigmas, ...): the archive hooks (`ArchiveKind`, defined by the
    archive core) and the other stages'. Subclasses set the class variables."""

    # The summary, results and pages (None: the kind has none yet).
    stages: ClassVar[Stages[Any, Any] | None] = None

    # --- What people read of a kind -------------------------------------------------

    # The kind's name per language (None: its `name` in every language).
    titles: ClassVar[Mapping[str, str] | None] = None

    @property
    def title(self) -> Mapping[str, str]:
        """The kind's name per language (the section of a site of several kinds)."""
        return self.titles or {"pt-BR": self.name, "en": self.name}

    # --- Collecting the answers (reportgen render, reportgen import) ----------------

    def render_draft(self, draft_dir: Path, raw_dir: Path, *, seed: int | None) -> str:
        """Write the raw round of the draft at `draft_dir` into `raw_dir` (which must not
        exist): the draft's files, to_send.jsonl / .csv and the inspect_ai dataset and task
        file (`reportgen.collect.sending`); returns a short note."""
        hook = self._optional("render_draft", "rendering a draft into the calls to send")
        return str(hook(draft_dir, raw_dir, seed=seed))

    def collected_files(self, raw_dir: Path, system: Matched) -> dict[str, bytes]:
        """One system's imported answers as the raw round's files (relative path ->
        bytes), in the kind's raw format; InputError when an answer lacks what it needs."""
        files: dict[str, bytes] = self._optional(
            "collected_files", "importing answers into a raw round"
        )(raw_dir, system)
        return files

    # --- Freezing a raw round, adding a model (reportgen freeze, add-model) ----------

    def freeze(self, raw_dir: Path, out_dir: Path) -> str:
        """Turn the raw round at `raw_dir` into a frozen archive at `out_dir`; returns a
        short note on how it was scored (e.g. the parser's version)."""
        return str(self._optional("freeze", "freezing a raw round")(raw_dir, out_dir))

    def add_model(self, round_dir: Path, responses_file: Path, model: Model) -> None:
        """Append one model's responses to the (open) round at `round_dir`."""
        raise KindCapabilityError(self.name, "adding a model to a round")

    # --- Scores, results and pages (reportgen summary, reportgen stats, build) -------
    # Run from the kind's `stages` (`Stages`): a kind declares them once, not these.

    def _stages(self, what: str) -> Stages[Any, Any]:
        if self.stages is None:
            raise KindCapabilityError(self.name, what)
        return self.stages

    def _optional(self, hook: str, what: str) -> Any:
        """The stages' `hook`; KindCapabilityError naming `what` when there is none."""
        found = getattr(self.stages, hook, None)
        if found is None:
            raise KindCapabilityError(self.name, what)
        return found

    def print_summary(self, round_: Round, console: Console) -> None:
        """The scores of every model, as tables for people."""
        self._stages("a summary").print_summary(round_, console)

    def summary_json(self, round_: Round) -> dict[str, Any]:
        """The scores of every model, for machines (`reportgen summary --json`)."""
        return self._stages("a summary").summary_json(round_)

    def results_steps(self, round_: Round, replicates: int | None) -> int:
        """How many progress steps `results_json` reports (0: no progress bar)."""
        return 0 if self.stages is None else self.stages.results_steps(round_, replicates)

    def results_json(
        self,
        round_: Round,
        *,
        replicates: int | None,
        cache_dir: Path | None,
        use_cache: bool,
        advance: Advance | None = None,
    ) -> dict[str, Any]:
        """Every statistic of the round, as one JSON document (cached unless told not to)."""
        return self._stages("a results object").results_json(
            round_, replicates=replicates, cache_dir=cache_dir, use_cache=use_cache, advance=advance
        )

    @property
    def site(self) -> SiteHook:
        """The pages of rounds (all of this kind) and their downloads (`SiteHook`:
        `section_depth` is 1 where they form a section, a folder, of a site of several
        kinds)."""
        hook: SiteHook = self._optional("site", "pages")
        return hook

    # --- The leak guard -------------------------------------------------------------

    def guard_material(self, round_: Round) -> GuardMaterial:
        """What the site must keep secret of `round_`, and what it may show."""
        hook = self._optional("guard_material", "a leak-guard description")
        material: GuardMaterial = hook(self._stages("a leak-guard description").round(round_))
        return material

    # --- Human review ---------------------------------------------------------------

    @property
    def review_task(self) -> ReviewTask:
        """The review task people do on this kind's outputs."""
        task: ReviewTask = load_attribute(self._optional("review_task", "a review task"))
        return task
