"""How the pages show text they did not write: model outputs and people's notes.

Both go through `st.text`, never Markdown or HTML: markup in them stays visible as typed
(`**` stays `**`). Each sits in its own bordered box under a heading the app writes, so
that the question, the answer and every note are visibly apart.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping

import streamlit as st

from review_app.tasks.notes import quoted_text, visible_text

# A heading may carry a name; Markdown (which captions render) must not act on it.
_ESCAPE_MARKDOWN = str.maketrans({mark: "\\" + mark for mark in string.punctuation})


# What starts Markdown, HTML or one of Streamlit's directives (`:red[…]`, `$…$`) inside a
# line. The rest of ASCII's punctuation only acts at a line's start (lists, headings) or
# after one of these (a link's `(` after `]`), so it stays as typed and `2026-11` reads as
# itself in the element's text.
_INLINE_MARKS = re.compile(r"[\\`*_\[\]<>&~$|#@]")
# GFM turns bare URLs into links: a colon before `//` and the dot after `www` stop that.
_AUTOLINK = re.compile(r"(?i)(?<=[a-z]):(?=//)|(?<=\bwww)\.")
# At the start of a text: a list's marker (`- `, `+ `, `1. `, `1) `) or a rule (`---`);
# `-1` and `1.50` are no markers and stay as they are.
_LINE_START = re.compile(r"^(\s*)([-+](?=[\s-]|$)|\d+(?=[.)](?:\s|$)))")


def escape_markdown(text: str) -> str:
    """`text` written so that an element that renders Markdown shows it as typed.

    Every character that could make a link, an image, emphasis, code, HTML, an entity or
    a Streamlit directive is backslash-escaped; line breaks become spaces (a line of its
    own could be a heading or a list) and the ends lose their spaces. A name, a note, a
    file name or a typed code passes through this before it reaches `st.error`,
    `st.caption`, a label or a table cell."""
    flat = " ".join(text.splitlines()).strip()
    escaped = _AUTOLINK.sub(lambda mark: "\\" + mark.group(0), _INLINE_MARKS.sub(r"\\\g<0>", flat))
    return _LINE_START.sub(_escape_line_start, escaped)


def _escape_line_start(found: re.Match[str]) -> str:
    indent, mark = found.group(1), found.group(2)
    if mark.isdigit():  # `1.` → `1\.`: the digits stay, the list's dot is escaped
        return indent + mark + "\\"
    return indent + "\\" + mark


def escaped_params(params: Mapping[str, object]) -> dict[str, object]:
    """A message's parameters with every text escaped (numbers and dates stay as they are)."""
    return {
        name: escape_markdown(value) if isinstance(value, str) else value
        for name, value in params.items()
    }


def _plain_caption(heading: str) -> None:
    st.caption(visible_text(heading).translate(_ESCAPE_MARKDOWN))


def show_literal(heading: str, text: str, *, key: str | None = None) -> None:
    """`text` exactly as stored, in a box of its own under `heading`."""
    with st.container(border=True, key=key):
        _plain_caption(heading)
        st.text(text)


def show_note(heading: str, note: str, *, key: str | None = None) -> None:
    """A person's note as quoted text in a box of its own, invisible characters removed."""
    with st.container(border=True, key=key):
        _plain_caption(heading)
        st.text(quoted_text(note))
