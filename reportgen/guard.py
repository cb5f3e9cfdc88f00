"""The leak guard: the published site may contain no secret prompt text and no canary.

Each kind says what is secret and what is public in its rounds (`GuardMaterial`):
for Estigmas, the item bank is secret and only items flagged `published` may appear.
The guard scans every output file (HTML, JSON, JavaScript, SVG, CSV, XML, gzip-compressed ones
decompressed) for

- any canary string, published or not (canaries mark contamination, they are never
  content);
- any run of eight consecutive words of a secret text (a prompt not flagged `published`).

Words are runs of letters and digits, compared case-insensitively, so markup, entities
and punctuation between words cannot hide a run. Secret texts share template sentences;
a run that also occurs in a public text is public (the article prints it), so it is not
a leak. Data-derived markup is checked too: an HTML file that contains a data name (a
model's, a stigma's) verbatim while that name holds `<` means data became markup.
"""

from __future__ import annotations

import gzip
import html
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from reportgen.errors import Problem, ReportgenError

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
class GuardMaterial:
    """What one round holds that the site must keep secret, and what it may show.

    A kind builds it from its round (`Kind.guard_material`); the guard knows no kind.
    """

    round_id: str
    secret_texts: tuple[tuple[str, str], ...]  # (source id, text): e.g. unpublished prompts
    public_texts: tuple[str, ...]  # texts the site may show (published prompts)
    canaries: tuple[str, ...]
    names: tuple[str, ...]  # data names shown on pages (models, providers, groups)


@dataclass(frozen=True)
class SecretIndex:
    """What must not appear: secret word runs, canaries, and names that hold markup."""

    secret_runs: frozenset[str]
    run_source: dict[str, str]  # run -> "round_id/source" of one secret text holding it
    canaries: frozenset[str]
    markup_names: frozenset[str]

    @classmethod
    def from_material(cls, materials: Iterable[GuardMaterial]) -> SecretIndex:
        secret: dict[str, str] = {}
        public: set[str] = set()
        canaries: set[str] = set()
        names: set[str] = set()
        for material in materials:
            canaries.update(material.canaries)
            names.update(material.names)
            for text in material.public_texts:
                public |= runs(text)
            for source, text in material.secret_texts:
                for run in runs(text):
                    secret.setdefault(run, f"{material.round_id}/{source}")
        kept = {run: source for run, source in secret.items() if run not in public}
        return cls(
            secret_runs=frozenset(kept),
            run_source=kept,
            canaries=frozenset(c for c in canaries if c),
            markup_names=frozenset(n for n in names if "<" in n),
        )

    @cached_property
    def secret_words(self) -> frozenset[str]:
        """Every word of a secret run: a run can leak only where eight of them follow in a row."""
        return frozenset(word for run in self.secret_runs for word in run.split(" "))

    @cached_property
    def canary_prefixes(self) -> re.Pattern[str] | None:
        """Where a canary may start (its first 3 characters); None when there is no canary."""
        if not self.canaries:
            return None
        prefixes = sorted({c[:3] for c in self.canaries}, key=len, reverse=True)
        return re.compile("|".join(re.escape(p) for p in prefixes))

    @cached_property
    def canary_lengths(self) -> tuple[int, ...]:
        return tuple(sorted({len(c) for c in self.canaries}))

    def leaked_runs(self, text: str) -> set[str]:
        """The secret runs in `text` (same result as `runs(text) & secret_runs`, faster).

        Only stretches of at least RUN_LENGTH consecutive secret words are joined into runs
        and looked up; most words of a page (markup, numbers, names) are not secret words.
        """
        tokens = words(text)
        vocabulary, secret = self.secret_words, self.secret_runs
        found: set[str] = set()
        streak = 0
        for end, token in enumerate(tokens, start=1):
            streak = streak + 1 if token in vocabulary else 0
            if streak >= RUN_LENGTH:
                run = " ".join(tokens[end - RUN_LENGTH : end])
                if run in secret:
                    found.add(run)
        return found


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


def _find_canaries(text: str, index: SecretIndex) -> list[str]:
    """Canaries in `text`, found through their 3-character prefixes (fast on big files)."""
    pattern = index.canary_prefixes
    if pattern is None:
        return []
    found: set[str] = set()
    for match in pattern.finditer(text):
        start = match.start()
        for length in index.canary_lengths:
            candidate = text[start : start + length]
            if candidate in index.canaries:
                found.add(candidate)
    return sorted(found)


def scan_file(path: Path, relative: str, index: SecretIndex) -> list[Problem]:
    text = _read_text(path)
    if text is None:
        return []
    problems = [
        Problem(relative, "", f"contains the canary {canary!r}")
        for canary in _find_canaries(text, index)
    ]
    # Entities are decoded so that an escaped prompt still counts as that prompt.
    leaked = sorted(index.leaked_runs(html.unescape(text)))
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


def check_site(site_dir: Path, materials: Iterable[GuardMaterial]) -> None:
    """Raise LeakError naming every offending file; return quietly when clean."""
    problems = scan_site(site_dir, SecretIndex.from_material(materials))
    if problems:
        raise LeakError(problems)
