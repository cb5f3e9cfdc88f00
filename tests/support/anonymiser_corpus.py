"""The anonymiser measured on a corpus (issue 23): reading a corpus folder, an independent
checker of whether a name can still be read, and the removal and false-removal figures.

A corpus folder holds `self_identifying.jsonl` (answers whose listed `names` must all
become unreadable) and `innocent.jsonl` (answers that must come out byte-identical); the
development corpus's `ordinary.jsonl` stands for the latter. One JSON object a line:
`text`, and `names` (self-identifying) or `watched` (innocent: the words in ordinary use),
with `id`, `language` and `class` where the corpus has them.

The checker is written apart from review_app (textfold, anonymise) on purpose: it must not
share the anonymiser's blind spots. It folds what a reader does not see (invisible
characters, right-to-left overrides, compatibility forms, case, accents) and Cyrillic,
Greek and other look-alikes of Latin letters, from Unicode's confusables data as the
`confusable-homoglyphs` package ships it.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from confusable_homoglyphs import categories, confusables

from reportgen.archive import MODELS_FILE, Problems, read_manifest_data
from reportgen.archive._csv import MODELS_HEADER, parse_models, read_csv_records
from reportgen.kinds.rounds import kind_of_round, manifest_from_dict
from reportgen.model import Model

SELF_IDENTIFYING_FILE = "self_identifying.jsonl"
INNOCENT_FILES = ("innocent.jsonl", "ordinary.jsonl")  # held-out name, development name
UNKNOWN = "?"  # language or class of a corpus that does not say

# Scripts written without spaces between words: a name in them touches its neighbours.
_CJK_RANGES = (
    "\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
)
_CJK = re.compile(f"[{_CJK_RANGES}]")
_CJK_SCRIPTS = frozenset({"HAN", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO", "CJK"})
_LETTER = rf"[^\W\d_{_CJK_RANGES}]"  # a letter of a script that separates its words
_DIGIT = r"\d"
# Between two characters of a name: up to three non-word characters ("C-l-a-u-d-e",
# "G.P.T", "Qwen 3.6", "**Cl**aude"). Word characters never: "metade" hides no "Meta".
_SEPARATOR = r"[\W_]{0,3}"
# A right-to-left override shows what follows it reversed, up to its pop or the line's end.
_OVERRIDE_RUN = re.compile("\u202e([^\u202c\u2069\n]*)[\u202c\u2069]?")


class CorpusError(ValueError):
    """A corpus file that is missing or malformed; the message names the file and line."""


# --- the checker -------------------------------------------------------------------------


@cache
def latin_lookalike(char: str) -> str:
    """The ASCII letter (or digit) that `char` is confusable with, else `char` itself.

    Cyrillic 'а', Greek 'ο' -> 'a', 'o'. Its lower case is tried first: Cyrillic 'І' looks
    like 'l' but is the capital of 'і', which looks like 'i'. CJK characters are kept:
    they are no disguise of Latin letters."""
    if char.isascii() or categories.alias(char) in _CJK_SCRIPTS:
        return char
    for candidate in (char.casefold(), char):
        if len(candidate) != 1:
            continue
        found = confusables.is_confusable(candidate, greedy=True, preferred_aliases=[])
        if not found:
            continue
        glyphs = [str(h["c"]) for h in found[0]["homoglyphs"]]
        ascii_glyphs = [g for g in glyphs if len(g) == 1 and g.isascii() and g.isalnum()]
        for glyph in sorted(ascii_glyphs, key=str.isdigit):  # letters before digits
            return glyph
    return char


def fold(text: str) -> str:
    """What a reader reads: invisible characters out, compatibility forms (fullwidth,
    mathematical letters) to their plain letters, accents out, look-alikes to Latin
    letters, case folded."""
    visible = "".join(c for c in text if unicodedata.category(c) != "Cf")
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", visible))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "".join(latin_lookalike(c) for c in bare).casefold()


def display_order(text: str) -> str:
    """`text` as shown: each right-to-left override run reversed ("\u202eedualC" shows "Claude")."""
    return _OVERRIDE_RUN.sub(lambda run: run.group(1)[::-1], text)


@cache
def _name_pattern(name: str) -> re.Pattern[str] | None:
    chars = [c for c in fold(name) if c.isalnum()]
    if not chars:
        return None
    body = _SEPARATOR.join(map(re.escape, chars))
    # A name that begins (ends) with a letter may not touch a letter of a spaced script on
    # that side, nor a digit a digit: "Meta" is not in "metade", "GPT" is in "gpt4" and
    # "Claude" in "我是Claude，".
    before = _boundary(chars[0], "(?<!{})")
    after = _boundary(chars[-1], "(?!{})")
    return re.compile(before + body + after)


def _boundary(char: str, template: str) -> str:
    if _CJK.match(char):
        return ""
    return template.format(_DIGIT if char.isdigit() else _LETTER)


def still_there(name: str, text: str) -> bool:
    """Whether `name` can still be read in `text`, in stored or displayed order, whatever
    the case, accents, look-alike letters, invisible characters or separators."""
    pattern = _name_pattern(name)
    if pattern is None:
        return False
    return any(pattern.search(form) for form in _read_forms(text))


@lru_cache(maxsize=16)
def _read_forms(text: str) -> tuple[str, ...]:
    """`text` folded as stored and as displayed: computed once for every name looked for
    in it (a browser page's forms run to hundreds of kilobytes, issue 18)."""
    return tuple(fold(form) for form in dict.fromkeys((text, display_order(text))))


# --- reading a corpus --------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One answer of a corpus."""

    entry_id: str
    language: str
    difficulty: str  # the corpus's "class" field
    text: str
    names: tuple[str, ...]  # self-identifying: what must become unreadable
    watched: tuple[str, ...]  # innocent: the words it uses in their ordinary meaning


@dataclass(frozen=True)
class Corpus:
    path: Path
    self_identifying: tuple[Entry, ...]
    innocent: tuple[Entry, ...]


def read_corpus(directory: Path) -> Corpus:
    """The corpus in `directory`; raises CorpusError naming the file and line at fault."""
    innocent_path = next((directory / n for n in INNOCENT_FILES if (directory / n).is_file()), None)
    if innocent_path is None:
        raise CorpusError(f"{directory}: no {' or '.join(INNOCENT_FILES)}")
    return Corpus(
        directory,
        _read_entries(directory / SELF_IDENTIFYING_FILE, "names"),
        _read_entries(innocent_path, "watched"),
    )


def _read_entries(path: Path, list_field: str) -> tuple[Entry, ...]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise CorpusError(f"{path}: cannot be read ({error})") from error
    entries = []
    for number, line in enumerate(lines, 1):
        if line.strip():
            entries.append(_entry(line, f"{path}:{number}", f"{path.stem}:{number}", list_field))
    return tuple(entries)


def _entry(line: str, where: str, default_id: str, list_field: str) -> Entry:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise CorpusError(f"{where}: not JSON ({error.msg})") from error
    if not isinstance(data, dict):
        raise CorpusError(f"{where}: expected a JSON object")
    strings = [data.get("text"), data.get("id", default_id)]
    strings += [data.get("language", UNKNOWN), data.get("class", UNKNOWN)]
    if not all(isinstance(value, str) for value in strings):
        raise CorpusError(f"{where}: 'text', 'id', 'language' and 'class' must be strings")
    listed = data.get(list_field, [])
    if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
        raise CorpusError(f"{where}: '{list_field}' must be a list of strings")
    text, entry_id, language, difficulty = map(str, strings)
    names = tuple(map(str, listed))
    if list_field == "names":
        return Entry(entry_id, language, difficulty, text, names, ())
    return Entry(entry_id, language, difficulty, text, (), names)


# --- the round names the review app would mask -------------------------------------------


def demonstration_round_dirs(root: Path) -> list[Path]:
    """The demonstration rounds (rounds/) and the other kinds' example rounds that have a
    models.csv (examples/*/rounds/)."""
    patterns = ("rounds/*/models.csv", "examples/*/rounds/*/models.csv")
    return sorted(path.parent for pattern in patterns for path in root.glob(pattern))


def demonstration_models(root: Path) -> list[Model]:
    """Every model of those rounds, as the review app reads them: each models.csv read by
    the archive's own reader into its kind's model class (so the multidomain
    organisations and groups come along), without the rest of the round: reading whole
    rounds (responses, the kinds' rules across tables) to get their models took most of
    a minute (issue 18). The rounds themselves are verified by their own tests."""
    models: list[Model] = []
    for round_dir in demonstration_round_dirs(root):
        problems = Problems()
        data = read_manifest_data(round_dir, problems)
        manifest = manifest_from_dict(data, folder_name=round_dir.resolve().name)
        kind = kind_of_round(round_dir)
        header = (*MODELS_HEADER, *kind.model_columns)
        records = read_csv_records(round_dir / MODELS_FILE, MODELS_FILE, header, problems)
        models += parse_models(records or [], problems, kind=kind, manifest=manifest)
        problems.raise_if_any(str(round_dir))
    return models


# --- measuring ---------------------------------------------------------------------------


@dataclass
class Tally:
    hits: int = 0
    total: int = 0

    def add(self, hit: bool) -> None:
        self.hits += hit
        self.total += 1

    @property
    def rate(self) -> float:
        return self.hits / self.total if self.total else 0.0

    def __str__(self) -> str:
        return f"{self.hits}/{self.total} = {100 * self.rate:.1f} %"


@dataclass(frozen=True)
class Failure:
    entry: Entry
    what: tuple[str, ...]  # the names still readable, or the altered stretches


@dataclass
class Measurement:
    """Removal over self-identifying answers (an answer counts as removed only if none of
    its names can be read) and false removal over innocent ones (altered at all)."""

    removed: Tally
    removed_by: dict[str, dict[str, Tally]]  # "language" / "class" -> value -> tally
    altered: Tally
    altered_by: dict[str, dict[str, Tally]]
    leaks: list[Failure]
    alterations: list[Failure]


def measure(corpus: Corpus, scrub: Callable[[str], str]) -> Measurement:
    removed, removed_by, leaks = Tally(), _groups(), []
    for entry in corpus.self_identifying:
        scrubbed = scrub(entry.text)
        readable = tuple(name for name in entry.names if still_there(name, scrubbed))
        _count(entry, not readable, removed, removed_by)
        if readable:
            leaks.append(Failure(entry, readable))
    altered, altered_by, alterations = Tally(), _groups(), []
    for entry in corpus.innocent:
        scrubbed = scrub(entry.text)
        _count(entry, scrubbed != entry.text, altered, altered_by)
        if scrubbed != entry.text:
            alterations.append(Failure(entry, altered_stretches(entry.text, scrubbed)))
    return Measurement(removed, removed_by, altered, altered_by, leaks, alterations)


def _groups() -> dict[str, dict[str, Tally]]:
    return {"language": {}, "class": {}}


def _count(entry: Entry, hit: bool, overall: Tally, by: dict[str, dict[str, Tally]]) -> None:
    overall.add(hit)
    by["language"].setdefault(entry.language, Tally()).add(hit)
    by["class"].setdefault(entry.difficulty, Tally()).add(hit)


def altered_stretches(original: str, scrubbed: str) -> tuple[str, ...]:
    """Each changed stretch as 'before' -> 'after', compared word by word."""
    before, after = _TOKEN.findall(original), _TOKEN.findall(scrubbed)
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return tuple(
        f"{''.join(before[i1:i2])!r} -> {''.join(after[j1:j2])!r}"
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    )


_TOKEN = re.compile(r"\w+|\W")


def measurement_json(measurement: Measurement) -> dict[str, object]:
    def tally(t: Tally) -> dict[str, object]:
        return {"hits": t.hits, "total": t.total, "rate": round(t.rate, 4)}

    def grouped(by: dict[str, dict[str, Tally]]) -> dict[str, object]:
        return {key: {v: tally(t) for v, t in sorted(g.items())} for key, g in by.items()}

    def failures(items: Iterable[Failure]) -> list[dict[str, object]]:
        return [{"id": f.entry.entry_id, "what": list(f.what)} for f in items]

    return {
        "removed": tally(measurement.removed),
        "removed_by": grouped(measurement.removed_by),
        "altered": tally(measurement.altered),
        "altered_by": grouped(measurement.altered_by),
        "leaks": failures(measurement.leaks),
        "alterations": failures(measurement.alterations),
    }
