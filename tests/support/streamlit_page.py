"""States a Streamlit page shows, for browser tests to wait on instead of a fixed time."""

from __future__ import annotations

from typing import Any

# Streamlit marks its root element with the script's run state ("initial", "running",
# "rerunRequested", "notRunning"): a key sent while a run is under way may reach an element
# that the run is about to replace.
IDLE_JS = (
    "() => { const app = document.querySelector('[data-testid=\"stApp\"]');"
    " return app !== null && app.getAttribute('data-test-script-state') === 'notRunning'; }"
)


def wait_until_idle(page: Any) -> None:
    """Wait until the app's script has finished its run and the page shows its result."""
    page.wait_for_function(IDLE_JS)


def tab_into(page: Any, selector: str, *, presses: int = 120) -> None:
    """Press Tab until the focused element lies inside `selector`, as a keyboard user
    would. A rerun that replaces the element holding the focus sends the next Tab back
    to the top of the page (the sidebar, with its own radio group): the walk goes on
    from there instead of stopping at the first radio it meets (the cause of the
    rubric keyboard test's rare failures)."""
    inside = f"() => document.activeElement?.closest({selector!r}) != null"
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate(inside):
            return
    raise AssertionError(f"{presses} presses of Tab never reached {selector}")


def wait_for_window_flag(page: Any, name: str) -> None:
    """Wait until a page script has set `window[name]` (a listener it installs, say)."""
    page.wait_for_function(f"() => window[{name!r}] === true")


class ScriptRuns:
    """The order of what the page asked of the server and what the server finished.

    Listens on the page's websocket: every rerun the page requests (a click, a shortcut
    key) and every run the server reports finished get the next number of one counter.
    `answered()` is True once a run finished after the last request, so a key pressed a
    moment ago cannot still be on its way: the page's own idle flag is no proof of that,
    since it shows "notRunning" until the server has received the request.
    """

    def __init__(self, page: Any) -> None:
        self._counter = 0
        self.last_request = 0
        self.last_finish = 0
        page.on("websocket", self._watch)

    def _watch(self, socket: Any) -> None:
        socket.on("framesent", self._sent)
        socket.on("framereceived", self._received)

    def _next(self) -> int:
        self._counter += 1
        return self._counter

    def _sent(self, payload: bytes | str) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        if isinstance(payload, bytes):
            message = BackMsg()
            message.ParseFromString(payload)
            if message.WhichOneof("type") == "rerun_script":
                self.last_request = self._next()

    def _received(self, payload: bytes | str) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        if isinstance(payload, bytes):
            message = ForwardMsg()
            message.ParseFromString(payload)
            if message.WhichOneof("type") == "script_finished":
                self.last_finish = self._next()

    def answered(self) -> bool:
        return self.last_finish > self.last_request
