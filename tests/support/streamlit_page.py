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


def wait_for_window_flag(page: Any, name: str) -> None:
    """Wait until a page script has set `window[name]` (a listener it installs, say)."""
    page.wait_for_function(f"() => window[{name!r}] === true")
