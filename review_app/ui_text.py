"""How the pages show text they did not write: model outputs and people's notes.

Both go through `st.text`, never Markdown or HTML: markup in them stays visible as typed
(`**` stays `**`). Each sits in its own bordered box under a heading the app writes, so
that the question, the answer and every note are visibly apart.
"""

from __future__ import annotations

import string

import streamlit as st

from review_app.notes import quoted_text, visible_text

# A heading may carry a name; Markdown (which captions render) must not act on it.
_ESCAPE_MARKDOWN = str.maketrans({mark: "\\" + mark for mark in string.punctuation})


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
