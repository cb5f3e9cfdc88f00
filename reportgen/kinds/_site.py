"""`ResultsSite`: the `site` hook of a kind whose pages draw on each round's results object.

Written once for every such kind: the rounds as the kind's (`typed`, which may refuse
them), in round id order, each with its results object (given by round id, else
`load`ed: computed or read from the results cache), then the kind's pages from those
pairs (`pages`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar, Unpack

from reportgen.kinds._stages import SiteOptions
from reportgen.model import Round as CoreRound

if TYPE_CHECKING:
    from reportgen.render.site_source import SiteSource
    from reportgen.render.siteconfig import SiteConfig

R = TypeVar("R", bound=CoreRound)
Res = TypeVar("Res")
S = TypeVar("S", bound="SiteSource")

# (a round, every round of the build by id, the results cache) -> its results object
ResultsLoader = Callable[[R, Mapping[str, R], "Path | None"], Res]


@dataclass(frozen=True)
class ResultsSite(Generic[R, Res, S]):
    """The pages of a kind's rounds, each with its results (a `SiteHook`)."""

    typed: Callable[[Sequence[CoreRound], SiteConfig], Sequence[R]]  # the kind's rounds
    load: ResultsLoader[R, Res]
    pages: Callable[[Sequence[tuple[R, Res]], SiteConfig, int], S]  # (+ section depth)

    def __call__(
        self,
        rounds: Sequence[CoreRound],
        config: SiteConfig,
        *,
        results: Mapping[str, Res] | None = None,
        **options: Unpack[SiteOptions],
    ) -> S:
        """`results`: given results objects by round id, used instead of loading them."""
        say = options.get("progress") or (lambda _message: None)
        cache_dir, section_depth = options["cache_dir"], options.get("section_depth", 0)
        by_id = {round_.round_id: round_ for round_ in self.typed(rounds, config)}
        found = []
        for round_id, round_ in sorted(by_id.items()):
            say(f"statistics for {round_id}")
            given = (results or {}).get(round_id)
            found.append((round_, self.load(round_, by_id, cache_dir) if given is None else given))
        return self.pages(found, config, section_depth)
