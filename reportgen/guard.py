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

A kind may say more (every extra field of `GuardMaterial` has a default that changes
nothing): its own tokeniser (the multidomain kind splits Chinese text into characters,
where `words` keeps a sentence as one word), a folding of texts before canaries are
looked for (a fullwidth copy of a canary is still the canary), strings that must never
appear verbatim, and texts and ids secret only until an embargo ends (`check_site`'s
`as_of`). Materials with different tokenisers are scanned with one index each.
"""

from __future__ import annotations

import functools
import gzip
import html
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from pathlib import Path, PurePosixPath

from reportgen.errors import Problem, ReportgenError
from reportgen.guard_search import Prefixes, RunScanner, Tokeniser, present

RUN_LENGTH = 8
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_TEXT_SUFFIXES = frozenset(
    {".html", ".htm", ".json", ".jsonl", ".js", ".svg", ".csv", ".xml", ".txt", ".md"}
)


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


def runs(text: str, length: int = RUN_LENGTH, tokenise: Tokeniser = words) -> set[str]:
    """Every run of `length` consecutive words of `text`, space-joined."""
    tokens = tokenise(text)
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
    # The kind's tokeniser of secret runs (None: `words`).
    tokenise: Tokeniser | None = None
    # Canaries are also looked for in fold(entity-decoded text) (e.g. NFKC + casefold).
    fold: Callable[[str], str] | None = None
    # (what, string): strings never shown verbatim (e.g. an anonymisation label).
    never_strings: tuple[tuple[str, str], ...] = ()
    # Secret until `embargo_ends` (then public): (source id, text) and ids; the ids are
    # looked for as whole words in the files under a folder named after the round.
    embargoed_texts: tuple[tuple[str, str], ...] = ()
    embargoed_ids: tuple[str, ...] = ()
    embargo_ends: date | None = None
    # (id, date): an embargoed id that the site may name from that date on, embargo or
    # not (e.g. the day a ledger line annulling that item was decided).
    ids_public_from: tuple[tuple[str, date], ...] = ()
    # Folders (by name) besides the round's own whose files may not name its embargoed ids
    # either: pages across rounds (e.g. the multidomain history pages, "series").
    id_folders: tuple[str, ...] = ()

    def embargo_over(self, as_of: date | None) -> bool:
        """The embargoed material is public on `as_of` (never when the date is unknown)."""
        return self.embargo_ends is not None and as_of is not None and as_of >= self.embargo_ends

    def secret_ids(self, as_of: date | None) -> frozenset[str]:
        """The embargoed ids that a site speaking for `as_of` may not name."""
        if self.embargo_over(as_of):
            return frozenset()
        public = {i for i, day in self.ids_public_from if as_of is not None and day <= as_of}
        return frozenset(self.embargoed_ids) - public


@dataclass(frozen=True)
class SecretIndex:
    """What must not appear: secret word runs, canaries, and names that hold markup."""

    secret_runs: frozenset[str]
    run_source: dict[str, str]  # run -> "round_id/source" of one secret text holding it
    canaries: frozenset[str]
    markup_names: frozenset[str]
    tokenise: Tokeniser = words
    fold: Callable[[str], str] | None = None
    never_strings: frozenset[tuple[str, str]] = frozenset()
    # round_id -> ids that must not appear in that round's folder
    scoped_ids: dict[str, frozenset[str]] = field(default_factory=dict)
    # round_id -> the other folders where its ids must not appear either
    id_folders: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def from_material(
        cls, materials: Iterable[GuardMaterial], as_of: date | None = None
    ) -> SecretIndex:
        """One index for materials that share a tokeniser and a fold (the first one's)."""
        materials = list(materials)
        tokenise = next((m.tokenise for m in materials if m.tokenise), words)
        secret: dict[str, str] = {}
        public: set[str] = set()
        canaries: set[str] = set()
        names: set[str] = set()
        for material in materials:
            canaries.update(material.canaries)
            names.update(material.names)
            public_texts = list(material.public_texts)
            secret_texts = list(material.secret_texts)
            if material.embargo_over(as_of):
                public_texts += [text for _, text in material.embargoed_texts]
            else:
                secret_texts += material.embargoed_texts
            for text in public_texts:
                public |= runs(text, tokenise=tokenise)
            for source, text in secret_texts:
                for run in runs(text, tokenise=tokenise):
                    secret.setdefault(run, f"{material.round_id}/{source}")
        kept = {run: source for run, source in secret.items() if run not in public}
        return cls(
            secret_runs=frozenset(kept),
            run_source=kept,
            canaries=frozenset(c for c in canaries if c),
            markup_names=frozenset(n for n in names if "<" in n),
            tokenise=tokenise,
            fold=next((m.fold for m in materials if m.fold), None),
            never_strings=frozenset(s for m in materials for s in m.never_strings if s[1]),
            scoped_ids={m.round_id: m.secret_ids(as_of) for m in materials if m.secret_ids(as_of)},
            id_folders={m.round_id: frozenset(m.id_folders) for m in materials if m.id_folders},
        )

    @cached_property
    def secret_words(self) -> frozenset[str]:
        """Every word of a secret run: a run can leak only where eight of them follow in a row."""
        return frozenset(word for run in self.secret_runs for word in run.split(" "))

    @cached_property
    def canary_prefixes(self) -> Prefixes | None:
        """Where a canary may start (its first 3 characters); None when there is no canary."""
        return Prefixes.of(self.canaries)

    @cached_property
    def canary_lengths(self) -> tuple[int, ...]:
        return tuple(sorted({len(c) for c in self.canaries}))

    @cached_property
    def folded_canaries(self) -> dict[str, tuple[str, ...]]:
        """Each canary's folded form -> the canaries that fold to it (folded once, not per
        file); empty without a fold."""
        if self.fold is None:
            return {}
        by_form: dict[str, list[str]] = {}
        for canary in sorted(self.canaries):
            by_form.setdefault(self.fold(canary), []).append(canary)
        return {form: tuple(canaries) for form, canaries in by_form.items()}

    @cached_property
    def folded_prefixes(self) -> Prefixes | None:
        return Prefixes.of(self.folded_canaries)

    @cached_property
    def folded_lengths(self) -> tuple[int, ...]:
        return tuple(sorted({len(form) for form in self.folded_canaries}))

    @cached_property
    def run_scanner(self) -> RunScanner:
        """The search for secret runs; it keeps what it learnt of each line for the next
        file (`words` reads the same line by line as whole)."""
        return RunScanner(
            self.secret_runs,
            self.secret_words,
            self.tokenise,
            RUN_LENGTH,
            line_local=self.tokenise is words,
        )

    def leaked_runs(self, text: str) -> set[str]:
        """The secret runs in `text` (the same result as `runs(text) & secret_runs`).

        Only stretches of at least RUN_LENGTH consecutive secret words are joined into runs
        and looked up; most words of a page (markup, numbers, names) are not secret words.
        """
        return self.run_scanner.leaked(text)


def reads(name: str) -> bool:
    """Whether the guard reads a file of this name (by its suffix; a .gz one by the suffix
    inside): it never reads the others, so it finds nothing in them, whatever they hold."""
    path = PurePosixPath(name)
    if path.suffix == ".gz":
        path = PurePosixPath(path.stem)
    return path.suffix in _TEXT_SUFFIXES


def file_text(name: str, data: bytes) -> str | None:
    """The text the guard reads in a file of this name and bytes (None: one it does not
    read): as `Path.read_text` reads it (invalid UTF-8 replaced, universal newlines), a
    .gz one decompressed first."""
    if not reads(name):
        return None
    if name.endswith(".gz"):
        return gzip.decompress(data).decode("utf-8", errors="replace")
    text = data.decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _find_canaries(text: str, index: SecretIndex) -> list[str]:
    """Canaries in `text`, found through their 3-character prefixes."""
    return sorted(present(text, index.canary_prefixes, index.canary_lengths, index.canaries))


def _folded_problems(relative: str, text: str, index: SecretIndex) -> list[Problem]:
    """What a kind's folding finds: canaries in another form (fullwidth, other case,
    entity-escaped) and the strings the site never shows."""
    problems = [
        Problem(relative, "", f"contains {what} {string!r}, which the site never shows")
        for what, string in sorted(index.never_strings)
        if string in text
    ]
    if index.fold is None:
        return problems
    folded = index.fold(html.unescape(text))
    forms = index.folded_canaries
    found = present(folded, index.folded_prefixes, index.folded_lengths, forms)
    if "" in forms:  # a canary that folds to nothing is "in" every text, as `in` says
        found.add("")
    problems += [
        Problem(relative, "", f"contains the canary {canary!r} in another form")
        for canary in sorted(c for form in found for c in forms[form])
        if canary not in text
    ]
    return problems


@functools.lru_cache(maxsize=65536)
def _whole_word(item_id: str) -> re.Pattern[str]:
    """`item_id` as a whole word: not inside a longer run of word characters or hyphens."""
    return re.compile(rf"(?<![\w-]){re.escape(item_id)}(?![\w-])")


def _scoped_id_problems(relative: str, text: str, index: SecretIndex) -> list[Problem]:
    """Embargoed ids, as whole words, in the files of their round's folder (and of the
    other folders its material names)."""
    folders = set(relative.split("/")[:-1])
    problems = []
    decoded: str | None = None
    for round_id, ids in sorted(index.scoped_ids.items()):
        if not folders & ({round_id} | index.id_folders.get(round_id, frozenset())):
            continue
        decoded = html.unescape(text) if decoded is None else decoded
        for item_id in sorted(ids):
            # The plain substring test first: most ids are absent from most files, and a
            # search whose pattern opens with a look-behind cannot skip ahead to a literal
            # (it cost a multidomain site build a quarter of its time).
            if item_id in decoded and _whole_word(item_id).search(decoded):
                problems.append(
                    Problem(relative, "", f"names {item_id!r} before the embargo of {round_id}")
                )
    return problems


def scan_file(path: Path, relative: str, index: SecretIndex) -> list[Problem]:
    if not reads(path.name):
        return []
    text = file_text(path.name, path.read_bytes())
    return [] if text is None else scan_text(relative, text, index)


def scan_text(relative: str, text: str, index: SecretIndex) -> list[Problem]:
    """What the guard finds in the file at `relative` in the site, whose text is `text`."""
    problems = [
        Problem(relative, "", f"contains the canary {canary!r}")
        for canary in _find_canaries(text, index)
    ]
    # Entities are decoded so that an escaped prompt still counts as that prompt.
    page = PurePosixPath(relative).suffix in (".html", ".htm")
    leaked = sorted(index.run_scanner.leaked(text, decode=True, by_lines=page))
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
    problems += _folded_problems(relative, text, index)
    problems += _scoped_id_problems(relative, text, index)
    if page:
        for name in sorted(index.markup_names):
            if name in text:
                problems.append(Problem(relative, "", f"data became markup: {name!r}"))
    return problems


def scan_site(site_dir: Path, index: SecretIndex | Sequence[SecretIndex]) -> list[Problem]:
    """Every problem in every file under `site_dir` (sorted, deterministic)."""
    indexes = [index] if isinstance(index, SecretIndex) else list(index)
    problems: list[Problem] = []
    for path in sorted(p for p in site_dir.rglob("*") if p.is_file()):
        for each in indexes:
            problems += scan_file(path, path.relative_to(site_dir).as_posix(), each)
    return problems


def secret_indexes(
    materials: Iterable[GuardMaterial], as_of: date | None = None
) -> list[SecretIndex]:
    """One index per (tokeniser, fold) the materials use, in first-seen order; a site of
    one kind gets one index."""
    groups: dict[tuple[object, object], list[GuardMaterial]] = {}
    for material in materials:
        groups.setdefault((material.tokenise or words, material.fold), []).append(material)
    return [SecretIndex.from_material(group, as_of) for group in groups.values()]


def check_site(
    site_dir: Path, materials: Iterable[GuardMaterial], *, as_of: date | None = None
) -> None:
    """Raise LeakError naming every offending file; return quietly when clean. `as_of`:
    the date the site speaks for (embargoed material is public from its end)."""
    problems = scan_site(site_dir, secret_indexes(materials, as_of))
    if problems:
        raise LeakError(problems)
