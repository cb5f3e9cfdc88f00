"""`reportgen serve`'s preview server, and its `--watch` mode: rebuild on change, reload.

With `--watch`, a watchdog observer follows the theme folder, the kinds' page templates,
site.yml and the rounds folder; after a change (and a short quiet spell, so that an
editor's burst of writes makes one rebuild) the site is rebuilt with `build_site`, which
replaces it atomically or leaves it untouched on failure. Every HTML page the preview
serves then carries a tiny script that asks `/__reportgen/generation` once a second and
reloads the page when the number changed. The script is added to the response only:
the built files never contain it.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

import reportgen
from reportgen.errors import ReportgenError

GENERATION_PATH = "/__reportgen/generation"
QUIET_S = 0.3  # a rebuild waits until the watched files were quiet this long
# Events that change a file; inotify also reports opens and reads (the build's own).
_CHANGES = frozenset({"created", "deleted", "modified", "moved", "closed"})
KIND_TEMPLATES = Path(reportgen.__file__).resolve().parent / "kinds"
RELOAD_SCRIPT = (
    "<script>/* reportgen serve --watch: reload after a rebuild (preview only) */"
    "(()=>{let seen=null;setInterval(async()=>{try{"
    f"const now=await (await fetch('{GENERATION_PATH}',{{cache:'no-store'}})).text();"
    "if(seen!==null&&now!==seen)location.reload();seen=now}catch(e){}},1000)})();</script>"
)

Say = Callable[[str], None]


@dataclass
class Generation:
    """How many times the site was rebuilt; the reload script compares it."""

    number: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def bump(self) -> None:
        with self.lock:
            self.number += 1


def inject_reload(page: bytes) -> bytes:
    """`page` with the reload script before its closing </body> (or at its end)."""
    script = RELOAD_SCRIPT.encode("utf-8")
    at = page.rfind(b"</body>")
    return page + script if at < 0 else page[:at] + script + page[at:]


class PreviewHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site folder; with a generation, adds the reload script to HTML pages."""

    def __init__(self, *args: Any, generation: Generation | None, **kwargs: Any) -> None:
        self.generation = generation
        super().__init__(*args, **kwargs)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # one line per request would drown the rebuild messages

    def do_GET(self) -> None:
        if self.generation is None:
            super().do_GET()
            return
        if self.path == GENERATION_PATH:
            self._send(str(self.generation.number).encode(), "text/plain")
            return
        target = Path(self.translate_path(self.path))
        if target.is_dir():
            target = target / "index.html"
        if target.suffix == ".html" and target.is_file():
            self._send(inject_reload(target.read_bytes()), "text/html; charset=utf-8")
            return
        super().do_GET()

    def _send(self, body: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


def preview_server(
    site_dir: Path, port: int, generation: Generation | None = None
) -> http.server.ThreadingHTTPServer:
    """A server of `site_dir` on 127.0.0.1:`port` (0: any free port); not yet serving."""
    handler = functools.partial(PreviewHandler, directory=str(site_dir), generation=generation)
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


class _Changed(FileSystemEventHandler):
    """Sets `changed` on any event that changes a watched file."""

    def __init__(self, changed: threading.Event, wanted: Callable[[Path], bool]) -> None:
        self.changed = changed
        self.wanted = wanted

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type not in _CHANGES:
            return
        paths = [event.src_path, getattr(event, "dest_path", "")]
        if any(p and self.wanted(Path(str(p))) for p in paths):
            self.changed.set()


@dataclass
class Watcher:
    """Rebuilds the site when a watched file changes, until `stop()`."""

    rebuild: Callable[[], object]  # builds the site; raises ReportgenError on bad input
    watched: Sequence[Path]  # folders followed recursively, or single files
    generation: Generation
    say: Say
    changed: threading.Event = field(default_factory=threading.Event)
    stopping: threading.Event = field(default_factory=threading.Event)

    def start(self) -> None:
        files = {p.resolve() for p in self.watched if p.is_file()}
        folders = {p.resolve() for p in self.watched if p.is_dir()}
        kinds_templates = KIND_TEMPLATES

        def wanted(path: Path) -> bool:
            path = path.resolve()
            if path in files or any(path.is_relative_to(f) for f in folders):
                return True
            return path.is_relative_to(kinds_templates) and path.suffix == ".j2"

        self.observer = Observer()
        handler = _Changed(self.changed, wanted)
        trees = folders | {kinds_templates}
        for folder in sorted(trees):
            self.observer.schedule(handler, str(folder), recursive=True)
        for parent in sorted({f.parent for f in files} - trees):  # site.yml's folder, alone
            self.observer.schedule(handler, str(parent), recursive=False)
        self.observer.start()
        self.thread = threading.Thread(target=self._loop, name="reportgen-watch", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while not self.stopping.is_set():
            if not self.changed.wait(timeout=0.2):
                continue
            # Wait for a quiet spell: an editor's save is often several writes.
            while self.changed.is_set() and not self.stopping.is_set():
                self.changed.clear()
                self.stopping.wait(QUIET_S)
            if self.stopping.is_set():
                return
            self._rebuild()

    def _rebuild(self) -> None:
        self.say("change seen: rebuilding")
        try:
            self.rebuild()
        except ReportgenError as error:
            # The previous site stays in place (the build is atomic); say why, keep watching.
            first_line = str(error).splitlines()[0] if str(error) else type(error).__name__
            self.say(f"rebuild failed, previous site kept: {first_line}")
            return
        self.generation.bump()
        self.say("rebuilt; the browser reloads")

    def stop(self) -> None:
        self.stopping.set()
        self.observer.stop()
        self.observer.join(timeout=5)
        self.thread.join(timeout=60)
