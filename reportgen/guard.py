"""The leak guard: the published site may contain no secret prompt text and no canary.

The item bank is secret; only items flagged `published` may appear. The guard scans
every output file (HTML, JSON, JavaScript, SVG, CSV, XML, gzip-compressed ones
decompressed) for

- any item's canary string, published or not (canaries mark contamination, they are
  never content);
- any run of eight consecutive words of the prompt of an item not flagged `published`.

Words are runs of letters and digits, compared case-insensitively, so markup, entities
and punctuation between words cannot hide a run. Prompts of one question structure share
template sentences; a run that also occurs in a published prompt is public (the article
prints it), so it is not a leak. Data-derived markup is checked too: an HTML file that
contains a model's or stigma's name verbatim while that name holds `<` means data
became markup.
"""

from __future__ import annotations

import gzip
import html
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from reportgen.errors import Problem, ReportgenError
from reportgen.kinds.estigmas.model import Round

RUN_LENGTH = 8
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_TEXT_SUFFIXES = frozenset({".html", ".htm", ".json", ".js", ".svg", ".csv", ".xml", ".txt", ".md"})


class LeakError(ReportgenError):
    """The built site contains secret material; nothing is published."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        lines = [f"leak guard: {len(self.problems)} problem(s); the site was not published"]
        lines += [f"  - {p}" for p in self.problems[:50]]
        if len(self.problems) > 50:
            lines.append(f"  ... and {len(self.problems) - 50} more")
        super().__init__("\n".join(lines))


def words(text: str) -> list[str]:
    # NFKC first, so that a decomposed accent or a compatibility form cannot split a word
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def runs(text: str, length: int = RUN_LENGTH) -> set[str]:
    """Every run of `length` consecutive words of `text`, space-joined."""
    tokens = words(text)
    return {" ".join(tokens[i : i + length]) for i in range(len(tokens) - length + 1)}


@dataclass(frozen=True)
class SecretIndex:
    """What must not appear: secret word runs, canaries, and names that hold markup."""

    secret_runs: frozenset[str]
    run_source: dict[str, str]  # run -> "round_id/item_id" of one prompt holding it
    canaries: frozenset[str]
    markup_names: frozenset[str]

    @classmethod
    def from_rounds(cls, rounds: Iterable[Round]) -> SecretIndex:
        secret: dict[str, str] = {}
        public: set[str] = set()
        canaries: set[str] = set()
        names: set[str] = set()
        for round in rounds:
            for item in round.items:
                canaries.add(item.canary)
                if item.published:
                    public |= runs(item.prompt)
                else:
                    for run in runs(item.prompt):
                        secret.setdefault(run, f"{round.round_id}/{item.item_id}")
            for model in round.models:
                names |= {model.display_name, model.provider}
            for stigma in round.stigmas:
                names |= {stigma.name_pt, stigma.name_en}
        kept = {run: source for run, source in secret.items() if run not in public}
        return cls(
            secret_runs=frozenset(kept),
            run_source=kept,
            canaries=frozenset(c for c in canaries if c),
            markup_names=frozenset(n for n in names if "<" in n),
        )


def _read_text(path: Path) -> str | None:
    suffixes = path.suffixes
    if suffixes and suffixes[-1] == ".gz":
        inner = Path(path.stem)
        if inner.suffix not in _TEXT_SUFFIXES:
            return None
        return gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
    if path.suffix not in _TEXT_SUFFIXES:
        return None
    return path.read_text(encoding="utf-8", errors="replace")


def _find_canaries(text: str, canaries: frozenset[str]) -> list[str]:
    """Canaries in `text`, found through their 3-character prefixes (fast on big files)."""
    if not canaries:
        return []
    prefixes = sorted({c[:3] for c in canaries}, key=len, reverse=True)
    lengths = sorted({len(c) for c in canaries})
    pattern = re.compile("|".join(re.escape(p) for p in prefixes))
    found: set[str] = set()
    for match in pattern.finditer(text):
        start = match.start()
        for length in lengths:
            candidate = text[start : start + length]
            if candidate in canaries:
                found.add(candidate)
    return sorted(found)


def scan_file(path: Path, relative: str, index: SecretIndex) -> list[Problem]:
    text = _read_text(path)
    if text is None:
        return []
    problems = [
        Problem(relative, "", f"contains the canary {canary!r}")
        for canary in _find_canaries(text, index.canaries)
    ]
    # Entities are decoded so that an escaped prompt still counts as that prompt.
    leaked = sorted(runs(html.unescape(text)) & index.secret_runs)
    if leaked:
        sources = sorted({index.run_source[run] for run in leaked})
        problems.append(
            Problem(
                relative,
                "",
                f"contains {len(leaked)} run(s) of {RUN_LENGTH} consecutive words of "
                f"unpublished prompt(s) {', '.join(sources[:5])}"
                f"{' ...' if len(sources) > 5 else ''}; first: {leaked[0]!r}",
            )
        )
    if path.suffix in (".html", ".htm"):
        for name in sorted(index.markup_names):
            if name in text:
                problems.append(Problem(relative, "", f"data became markup: {name!r}"))
    return problems


def scan_site(site_dir: Path, index: SecretIndex) -> list[Problem]:
    """Every problem in every file under `site_dir` (sorted, deterministic)."""
    problems: list[Problem] = []
    for path in sorted(p for p in site_dir.rglob("*") if p.is_file()):
        problems += scan_file(path, path.relative_to(site_dir).as_posix(), index)
    return problems


def check_site(site_dir: Path, rounds: Iterable[Round]) -> None:
    """Raise LeakError naming every offending file; return quietly when clean."""
    problems = scan_site(site_dir, SecretIndex.from_rounds(rounds))
    if problems:
        raise LeakError(problems)
