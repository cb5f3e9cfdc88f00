"""Everything a reviewer's browser holds of a page, as texts a name can be looked for in:
what it shows, what its markup hides (hidden elements, attribute values), its title, what
it stored, and the messages the server sent it over the page's websocket.

`readable` looks for names in a form with the corpus's independent checker
(tests.support.anonymiser_corpus `still_there`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Any

from tests.support.anonymiser_corpus import still_there

_TAG = re.compile(r"<[^>]*>")
# Style sheets are the page's own code, not text a reader meets (and common words of CSS
# may spell a name by chance).
_STYLE = re.compile(r"<style\b[^>]*>.*?</style>", re.DOTALL | re.IGNORECASE)
# page.content() serialises every attribute value in double quotes, '"' written &quot;.
_ATTRIBUTE_VALUE = re.compile(r'\s[^\s=<>"]+="([^"]*)"')
# The page's own identifiers that spell a word by chance: React Aria, whose components
# Streamlit draws, names its ids and classes "react-aria-..." (and a name may be "Aria").
_FRAMEWORK_TOKENS = re.compile(r"react-aria", re.IGNORECASE)
_STORED = (
    "() => JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage),"
    " document.cookie])"
)


class ServerMessages:
    """The frames the server sends a page over its websockets, from the last `take` on.

    Streamlit sends its elements as protocol buffers: strings in them are UTF-8 between
    length bytes, read here with undecodable bytes replaced (a separator to the checker)."""

    def __init__(self, page: Any) -> None:
        self._frames: list[str] = []
        page.on("websocket", self._watch)

    def _watch(self, websocket: Any) -> None:
        websocket.on("framereceived", self._keep)

    def _keep(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):
            payload = payload.decode("utf-8", errors="replace")
        self._frames.append(payload)

    def take(self) -> str:
        """The frames received since the last call, joined, and forget them."""
        frames, self._frames = self._frames, []
        return "\n".join(frames)


def markup_texts(markup: str) -> str:
    """The text nodes of `markup`, hidden ones and scripts included, style sheets not
    (tags taken out, entities read)."""
    return html.unescape(_TAG.sub("", _STYLE.sub("", markup)))


def attribute_values(markup: str) -> str:
    """Every attribute value in `markup`, one a line (entities read), without the
    framework's own identifiers."""
    values = (html.unescape(value) for value in _ATTRIBUTE_VALUE.findall(markup))
    return "\n".join(_FRAMEWORK_TOKENS.sub("", value) for value in values)


def page_forms(page: Any, messages: ServerMessages) -> dict[str, str]:
    """Form name -> its text, for the page as it stands now."""
    markup = page.content()
    return {
        "shown text": page.inner_text("body"),
        "text nodes": markup_texts(markup),
        "attribute values": attribute_values(markup),
        "title": page.title(),
        "stored": page.evaluate(_STORED),
        "server messages": messages.take(),
    }


def readable(names: Iterable[str], text: str) -> frozenset[str]:
    """Which of `names` can be read in `text`."""
    return frozenset(name for name in names if still_there(name, text))
