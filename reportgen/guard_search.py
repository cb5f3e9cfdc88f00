"""The leak guard's search for runs of secret words, fast on pages that share their lines.

`RunScanner.leaked` returns what the straightforward search returns (every run of
`length` consecutive tokens whose tokens are all secret words and whose space-joined
text is a secret run), but it spends its time where the pages differ. A site's pages
repeat most of their lines (the navigation, the header, the footer: four fifths of a
model page), and a rebuild after one model is added rescans every model page, so:

- a text is read line by line, and what a line holds is kept under the line itself: its
  runs, and the secret words that open and close it, which may join the neighbouring
  lines' into a run; a line seen before costs one dictionary look-up;
- secret words are marked one byte per token by a set look-up done in C, and only
  stretches of `length` marked tokens are joined and looked up.

Reading by lines gives the same tokens as reading the whole text only for a tokeniser
that never joins characters across a line break, nor changes them by what is on the
other side: `guard.words` is one (NFKC cannot compose or reorder anything across a
line feed, `casefold` has no context, a line feed ends a word, and an HTML entity holds
no line feed); any other tokeniser is given the whole text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Iterator, Sequence

Tokeniser = Callable[[str], list[str]]

# A line longer than this is seldom repeated: it is scanned, not kept.
_KEPT_LINE_CHARS = 4096
# Lines kept per scanner and mode; the lot is dropped when full (a site's shared lines
# come back with its next page), so that a site of unique lines cannot grow it unbounded.
_KEPT_LINES = 200_000

# What one line holds: (all its tokens are secret words, the secret words it opens with
# (all of its tokens when it is all secret words), the ones it closes with (at most
# length - 1), the runs inside it).
_Line = tuple[bool, tuple[str, ...], tuple[str, ...], frozenset[str]]


class RunScanner:
    """Finds the secret runs in texts; keeps what it learnt of each line between texts."""

    def __init__(
        self,
        secret_runs: frozenset[str],
        vocabulary: frozenset[str],
        tokenise: Tokeniser,
        length: int,
        *,
        line_local: bool,
    ) -> None:
        self.secret_runs = secret_runs
        self.vocabulary = vocabulary
        self.tokenise = tokenise
        self.length = length
        self.line_local = line_local
        self._streak = re.compile(b"\x01{%d,}" % length)
        self._run_marks = b"\x01" * length  # a substring test: no run is the usual case
        self._lines: dict[bool, dict[str, _Line]] = {False: {}, True: {}}

    def leaked(self, text: str, *, decode: bool = False, by_lines: bool = True) -> set[str]:
        """The secret runs in `text`, or in `html.unescape(text)` when `decode`; read line
        by line when `by_lines` and the tokeniser allows it (worth it for texts that
        share lines, such as pages: data files, whose lines are all different, read
        faster whole)."""
        if by_lines and self.line_local:
            return self._by_lines(text, decode)
        return self._in_tokens(self.tokenise(html.unescape(text) if decode else text))

    def _in_tokens(self, tokens: Sequence[str], marks: bytes | None = None) -> set[str]:
        """The secret runs among `tokens` (`marks`: their secret-word marks, when known)."""
        if marks is None:
            marks = bytes(map(self.vocabulary.__contains__, tokens))
        found: set[str] = set()
        if self._run_marks not in marks:
            return found
        for stretch in self._streak.finditer(marks):
            start, end = stretch.span()
            found.update(self._windows(tokens[start:end], None))
        return found

    def _windows(self, tokens: Sequence[str], last_start: int | None) -> Iterable[str]:
        """The secret runs among `tokens`, all secret words, that start at or before
        `last_start` (None: anywhere)."""
        length, secret = self.length, self.secret_runs
        stop = len(tokens) - length + 1
        if last_start is not None:
            stop = min(stop, last_start + 1)
        joined = (" ".join(tokens[i : i + length]) for i in range(stop))
        return [run for run in joined if run in secret]

    def _by_lines(self, text: str, decode: bool) -> set[str]:
        kept = self._lines[decode]
        found: set[str] = set()
        # The secret words that end the text read so far (the last length - 1 at most).
        pending: tuple[str, ...] = ()
        tail_length = self.length - 1
        for line in text.split("\n"):
            summary = kept.get(line)
            if summary is None:
                summary = self._line(line, decode)
                if len(line) <= _KEPT_LINE_CHARS:
                    if len(kept) >= _KEPT_LINES:
                        kept.clear()
                    kept[line] = summary
            whole, head, tail, inside = summary
            if pending and head:
                # The runs that start before this line and end in it.
                joined = pending + head[:tail_length]
                found.update(self._windows(joined, len(pending) - 1))
            found |= inside
            pending = (pending + head)[-tail_length:] if whole else tail
        return found

    def _line(self, line: str, decode: bool) -> _Line:
        tokens = self.tokenise(html.unescape(line) if decode else line)
        marks = bytes(map(self.vocabulary.__contains__, tokens))
        inside = frozenset(self._in_tokens(tokens, marks))
        first = marks.find(0)
        if first < 0:
            return True, tuple(tokens), (), inside
        head = tuple(tokens[: min(first, self.length - 1)])
        tail = tuple(tokens[marks.rfind(0) + 1 :][-(self.length - 1) :])
        return False, head, tail, inside


# Up to this many prefixes are looked for one by one with `str.find` (a search for a
# literal, fast); more with one pattern tried at every position of the text.
_FEW_PREFIXES = 8


class Prefixes:
    """Where one of some strings may start: their first 3 characters, looked for at
    every position of a text, overlapping ones included."""

    def __init__(self, prefixes: Iterable[str]) -> None:
        self.prefixes = tuple(sorted(set(prefixes), key=len, reverse=True))
        self.pattern = re.compile(f"(?=({'|'.join(re.escape(p) for p in self.prefixes)}))")

    @classmethod
    def of(cls, strings: Iterable[str]) -> Prefixes | None:
        """The prefixes of `strings`; None when there is none (no string, or only "")."""
        prefixes = {s[:3] for s in strings if s}
        return cls(prefixes) if prefixes else None

    def starts(self, text: str) -> Iterator[int]:
        """Every position where a prefix starts, in no order, some maybe twice."""
        if len(self.prefixes) > _FEW_PREFIXES:
            yield from (match.start() for match in self.pattern.finditer(text))
            return
        for prefix in self.prefixes:
            start = text.find(prefix)
            while start >= 0:
                yield start
                start = text.find(prefix, start + 1)


def present(
    text: str, prefixes: Prefixes | None, lengths: Iterable[int], wanted: Iterable[str]
) -> set[str]:
    """Which of `wanted` occur in `text`: each is looked up only where its prefix starts
    (fast on big files; the same answer as `s in text` for each s)."""
    if prefixes is None:
        return set()
    wanted = set(wanted)
    lengths = tuple(lengths)
    found: set[str] = set()
    for start in prefixes.starts(text):
        for length in lengths:
            candidate = text[start : start + length]
            if candidate in wanted:
                found.add(candidate)
    return found
