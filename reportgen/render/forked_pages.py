"""A later language's pages written in a forked process while this one writes the first.

A rebuild of a big round spends most of its time in one process, and some seven seconds
of it writing the pages of its two languages (their contexts, then their Markdown), one
after the other, while the second core has little to do: the kept pages leave few to
convert, and few charts are new. A site that can (`ForkableSite`: the Estigmas site)
writes a later language in a child forked before the first language is started. The
child holds the statistics and page data as they are here (a fork copies memory only
where one side writes), writes its pages into the same sources folder, and hands back
what those pages deferred (reportgen/render/deferred.py) and what the site keeps of them
(the charts, which this process draws), pickled into a file beside the sources; this
process takes them in once its own language is written (`ForkedLanguage.join`), then
reads the pages back as it reads any page written without being told
(reportgen/render/shell_convert.py).

A fork copies only the thread that calls it, and a lock another thread held stays held
in the child for good; so the child is forked only while this process runs no other
Python thread (the workers that convert pages or draw charts are started after it, or
not at all). The child's work is Python code, numpy and file writing. Whatever goes
wrong in the child (an error in a page, a signal, a lack of memory) costs only time: its
language is written again here, where an error, if any, is raised as it would have been.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import shutil
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeGuard, runtime_checkable

from reportgen.render import deferred, pages
from reportgen.render.site_source import SiteSource
from reportgen.workers import fork_allowed, pool_size


@runtime_checkable
class ForkableSite(SiteSource, Protocol):
    """A site whose pages of one language can be written in another process."""

    def before_fork(self) -> None:
        """Make now what the pages of every language read and would otherwise each make
        (the child could not hand it back in time to spare this process the work)."""
        ...

    def write_pages(self, pages_dir: Path, language: str) -> object:
        """What `write_sources` writes, without starting or keeping anything else: what
        it would keep is returned (picklable) for `adopt_pages`."""
        ...

    def adopt_pages(self, language: str, state: object) -> None:
        """Keep what `write_pages` returned in another process, as `write_sources` would."""
        ...


def may_fork(site: SiteSource) -> TypeGuard[ForkableSite]:
    """Whether a later language of `site` may be written in a forked child now (it is then
    a `ForkableSite`)."""
    return isinstance(site, ForkableSite) and pool_size() >= 2 and fork_allowed()


@dataclass
class ForkedLanguage:
    """One language being written by a forked child (`start`), taken in by `join`."""

    site: ForkableSite
    pages_dir: Path
    language: str
    handback: Path  # the file the child leaves its state and deferred blocks in
    pid: int | None  # None once reaped

    @classmethod
    def start(
        cls, site: ForkableSite, pages_dir: Path, language: str, handback: Path
    ) -> ForkedLanguage:
        """Fork a child that writes `language`'s pages into `pages_dir` and leaves what it
        hands back in the file `handback` (outside the sources); ask `may_fork` first."""
        site.before_fork()
        try:
            pid = os.fork()
        except OSError:  # no process to be had (a limit, memory): `join` writes it here
            return cls(site, pages_dir, language, handback, None)
        if pid == 0:  # the child: never returns
            _write_and_exit(site, pages_dir, language, handback)
        return cls(site, pages_dir, language, handback, pid)

    def join(self) -> bool:
        """Wait for the child and take in its pages' deferred blocks and the site's state;
        if it failed, write the language again here. Whether the child's pages were taken."""
        state: tuple[object, dict[str, str]] | None = None
        if self.pid is not None:
            _, status = os.waitpid(self.pid, 0)
            self.pid = None
            if os.waitstatus_to_exitcode(status) == 0:
                with contextlib.suppress(OSError, pickle.UnpicklingError, EOFError, ValueError):
                    state = pickle.loads(self.handback.read_bytes())
        self.handback.unlink(missing_ok=True)
        if state is None:
            shutil.rmtree(self.pages_dir, ignore_errors=True)
            self.pages_dir.mkdir(parents=True)
            self.site.write_sources(self.pages_dir, self.language)
            return False
        site_state, blocks = state
        deferred.adopt(blocks)
        self.site.adopt_pages(self.language, site_state)
        return True

    def stop(self) -> None:
        """Stop the child, if it still runs (the build failed meanwhile)."""
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.pid = None
        self.handback.unlink(missing_ok=True)


def _write_and_exit(site: ForkableSite, pages_dir: Path, language: str, handback: Path) -> None:
    """The child's whole life: write the pages, leave what it hands back, and exit, with
    1 on any error (an exception in flight included), without cleaning up: the buffers,
    files and `finally` blocks it inherited are the parent's."""
    code = 1
    try:
        # Its own deferred blocks, and no listener: the parent's taker reads these pages
        # back once the child is done.
        with deferred.collecting() as blocks, pages.listening(_nobody):
            state = site.write_pages(pages_dir, language)
        handback.write_bytes(pickle.dumps((state, blocks), protocol=pickle.HIGHEST_PROTOCOL))
        code = 0
    finally:
        os._exit(code)


def _nobody(_path: Path, _text: str) -> None:
    pass
