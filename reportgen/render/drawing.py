"""Charts drawn with vl-convert: each spec's SVG and each SVG's PNG, kept between builds,
and drawn by a pool of processes when a build has many to draw.

A spec fully determines its SVG, and an SVG its PNG (set in vl-convert's own Liberation
Sans before the machine's fonts: `chart_fonts`): both are kept in the cache directory
under the hash of what produced them (`svg_key`, `png_key`), so a rebuild draws only what
changed. Chart builders ask for a `Drawing` (a spec, its locale and its key) and read its
`svg` or `png` when they need the text; `DrawingCache.start_all` starts every missing one,
in worker processes over the machine's cores when there are at least `POOL_MIN` of them
(a round of a thousand models has some four thousand), in this process otherwise. The
build goes on making its pages while the workers draw; reading a drawing waits for it.
What is drawn is the same either way: the workers run the same functions (`draw_svg`,
`draw_png`; tests/test_drawing_pool.py compares the two).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import multiprocessing
import os
import re
import weakref
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

from reportgen.atomic import write_atomic
from reportgen.render import chart_fonts
from reportgen.vendor import VEGA_LITE_VERSION
from reportgen.workers import pool_size, workers_for

PNG_SCALE = 2  # twice the SVG's size: sharp on high-density screens and in slides
# Fewer missing drawings than this are drawn in this process: starting the workers (a
# fresh interpreter each, importing vl-convert) costs about a second.
POOL_MIN = 64
CHUNK = 16  # drawings handed to a worker at a time

# Vega numbers the ids of gradients and clip paths with a counter that runs for the whole
# process ("gradient_3"), so the same chart got other ids in another build of the same
# process. They are renamed after the chart's own key: stable, and still unique when
# several charts are inlined in one page.
_VEGA_ID = re.compile(r'id="((?:gradient|clip|pattern|mask)_?\d+)"')


def stable_ids(svg: str, key: str) -> str:
    """`svg` with Vega's counter-numbered ids replaced by ids derived from `key`."""
    ids = dict.fromkeys(_VEGA_ID.findall(svg))  # in order of appearance, once each
    renamed = {old: f"rg-{key[:12]}-{n}" for n, old in enumerate(ids)}
    for old, new in renamed.items():
        svg = re.sub(rf'(?<=[#"]){re.escape(old)}(?=["\)])', new, svg)
    return svg


@functools.cache
def drawing_software() -> str:
    """vl-convert's version, read once: the metadata look-up costs milliseconds, and a
    build asks for a key four thousand times at a thousand models."""
    return version("vl-convert-python")


# Kept drawings made before the fonts were chosen as chart_fonts says are drawn again.
FONTS = "vl-convert's own Liberation Sans first"


def svg_key(spec: dict[str, Any], locale: dict[str, Any]) -> str:
    """The hash an SVG is kept under: its spec, its number locale and the drawing software."""
    material = [spec, locale, VEGA_LITE_VERSION, drawing_software(), FONTS]
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


def png_key(svg: str) -> str:
    return hashlib.sha256(f"{PNG_SCALE}\n{FONTS}\n{svg}".encode()).hexdigest()


def draw_svg(spec: dict[str, Any], locale: dict[str, Any], key: str) -> str:
    import vl_convert

    chart_fonts.prepare()
    rendered = vl_convert.vegalite_to_svg(spec, vl_version=VEGA_LITE_VERSION, format_locale=locale)
    return stable_ids(str(rendered), key)


def draw_png(svg: str) -> bytes:
    import vl_convert

    chart_fonts.prepare()
    return bytes(vl_convert.svg_to_png(svg, scale=PNG_SCALE))


Job = tuple[str, dict[str, Any], dict[str, Any], bool]  # key, spec, locale, with its PNG


def _draw(job: Job) -> tuple[str, bytes | None]:
    """A worker's task: the SVG of a spec, and its PNG when asked."""
    key, spec, locale, with_png = job
    svg = draw_svg(spec, locale, key)
    return svg, draw_png(svg) if with_png else None


@dataclass(frozen=True, eq=False)
class Drawing:
    """A chart's drawing, drawn when first read (or beforehand by `DrawingCache.draw_all`)."""

    key: str
    spec: dict[str, Any] = field(repr=False)
    locale: dict[str, Any] = field(repr=False)
    cache: DrawingCache = field(repr=False)

    @property
    def svg(self) -> str:
        return self.cache.svg(self)

    @property
    def png(self) -> bytes:
        return self.cache.png(self.svg)

    def write_svg(self, target: Path) -> None:
        """`svg` into `target` (UTF-8), a new file (a link to the cache's when it can)."""
        self.cache.write_svg(self, target)

    def write_png(self, target: Path) -> None:
        """`png` into `target`, a new file (a link to the cache's when it can)."""
        self.cache.write_png(self.svg, target)


class DrawingCache:
    """The drawings of one build: in memory, and in `directory` between builds (None: none)."""

    def __init__(self, directory: Path | None) -> None:
        self._empty(directory)

    def _empty(self, directory: Path | None) -> None:
        self.directory = directory
        self._svgs: dict[str, str] = {}
        self._pngs: dict[str, bytes] = {}  # only those the directory could not keep
        self._pending: dict[str, _Batch] = {}  # key -> the batch a worker is drawing it in
        self._pool: ProcessPoolExecutor | None = None
        self._same_bytes: set[str] = set()  # keys whose kept SVG file holds the text's bytes

    def drawing(self, spec: dict[str, Any], locale: dict[str, Any]) -> Drawing:
        return Drawing(svg_key(spec, locale), spec, locale, self)

    def rebound(self, drawing: Drawing) -> Drawing:
        """`drawing` (made by another process's cache) as a drawing of this cache."""
        return Drawing(drawing.key, drawing.spec, drawing.locale, self)

    # A cache pickles as its folder (with a drawing made in a forked process): what it
    # holds in memory, its workers and what they draw are its own process's.
    def __getstate__(self) -> dict[str, Any]:
        return {"directory": self.directory}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._empty(state["directory"])

    def _path(self, key: str, suffix: str) -> Path | None:
        return self.directory / f"{key}.{suffix}" if self.directory is not None else None

    def _kept_svg(self, key: str) -> str | None:
        if key in self._svgs:
            return self._svgs[key]
        path = self._path(key, "svg")
        try:
            kept = path.read_bytes() if path is not None else None
        except OSError:
            kept = None
        if kept is None:
            return None
        # As read_text reads it (universal newlines); a file whose bytes are the text's
        # own can be linked into the site without reading it again (`write_svg`).
        text = kept.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        if b"\r" not in kept:
            self._same_bytes.add(key)
        self._svgs[key] = text
        return text

    def _keep(self, key: str, suffix: str, content: str | bytes) -> bool:
        """Write `content` into the directory; False when there is none or it failed."""
        path = self._path(key, suffix)
        if path is None:
            return False
        with contextlib.suppress(OSError):  # an unwritable cache only costs time
            path.parent.mkdir(parents=True, exist_ok=True)
            data = content.encode("utf-8") if isinstance(content, str) else content
            write_atomic(path, data)
            return True
        return False

    def _store(self, drawing: Drawing, svg: str, png: bytes | None) -> None:
        self._svgs[drawing.key] = svg
        if self._keep(drawing.key, "svg", svg):
            self._same_bytes.add(drawing.key)
        if png is not None and not self._keep(png_key(svg), "png", png):
            self._pngs[png_key(svg)] = png

    def svg(self, drawing: Drawing) -> str:
        self._wait_for(drawing.key)
        kept = self._kept_svg(drawing.key)
        if kept is None:
            kept = draw_svg(drawing.spec, drawing.locale, drawing.key)
            self._store(drawing, kept, None)
        return kept

    def _has_png(self, svg: str) -> bool:
        path = self._path(png_key(svg), "png")
        return png_key(svg) in self._pngs or (path is not None and path.is_file())

    def png(self, svg: str) -> bytes:
        key = png_key(svg)
        path = self._path(key, "png")
        if key in self._pngs:
            return self._pngs[key]
        if path is not None and path.is_file():
            return path.read_bytes()
        png = draw_png(svg)
        if not self._keep(key, "png", png):
            self._pngs[key] = png
        return png

    def write_svg(self, drawing: Drawing, target: Path) -> None:
        svg = self.svg(drawing).encode("utf-8")
        # The kept file is compared before it is linked: the text read from it had its
        # line ends translated, and the site gets the bytes of the text, as it always did.
        path = self._path(drawing.key, "svg")
        same = drawing.key in self._same_bytes or (path is not None and _holds(path, svg))
        if path is None or not same or not link_new(path, target):
            write_new(target, svg)

    def write_png(self, svg: str, target: Path) -> None:
        key = png_key(svg)
        path = self._path(key, "png")
        # `png` returns the kept file's bytes unless it holds the PNG in memory.
        if key in self._pngs or path is None or not link_new(path, target):
            write_new(target, self.png(svg))

    def write_data(self, data: bytes, suffix: str, target: Path) -> None:
        """`data` (a chart's CSV) into `target`, a new file: a link to the copy kept under
        the data's own SHA-256, kept now if it was not (a rebuild's chart files are then
        all links, where writing four thousand CSV files cost seconds of system time)."""
        path = self._path(hashlib.sha256(data).hexdigest(), suffix)
        if (
            path is None
            or not (path.is_file() or self._keep(path.stem, suffix, data))
            or not link_new(path, target)
        ):
            write_new(target, data)

    def missing(self, drawings: Iterable[Drawing], with_png: bool) -> list[Drawing]:
        """The drawings (once each) whose SVG, or PNG when `with_png`, is not kept yet."""
        unique = {d.key: d for d in drawings}
        return [
            d
            for d in unique.values()
            if (svg := self._kept_svg(d.key)) is None or (with_png and not self._has_png(svg))
        ]

    def draw_all(self, drawings: Sequence[Drawing], *, with_png: bool = True) -> int:
        """Draw every drawing not kept yet (and its PNG when `with_png`); how many were."""
        started = self.start_all(drawings, with_png=with_png)
        self.finish()
        return started

    def start_all(
        self, drawings: Sequence[Drawing], *, with_png: bool = True, background: bool = False
    ) -> int:
        """Start drawing every drawing not kept yet (and its PNG when `with_png`); how many.

        A batch of `POOL_MIN` or more goes to the worker processes and this returns at
        once: the build makes its pages meanwhile, and reading a drawing that is still
        being drawn waits for it (`finish` waits for them all). A smaller batch is drawn
        here and now, unless `background`: a caller with much else to do meanwhile (a site
        of many pages) hides a worker's start, so even a few drawings go to one (a
        rebuild after one model is added draws about six, some seconds' work). Drawings
        already on their way are not started again."""
        todo = [d for d in self.missing(drawings, with_png) if d.key not in self._pending]
        jobs: list[Job] = [(d.key, d.spec, d.locale, with_png) for d in todo]
        workers = pool_size()
        if not todo or (len(todo) < POOL_MIN and not background) or workers < 2:
            for drawing, (svg, png) in zip(todo, map(_draw, jobs), strict=True):
                self._store(drawing, svg, png)
            return len(todo)
        if self._pool is None:
            context = multiprocessing.get_context("spawn")  # no fork of a process with threads
            # A few drawings (a rebuild's) go to one worker: each worker's start costs
            # about a second of CPU that the build, making its pages, would miss.
            self._pool = ProcessPoolExecutor(
                max_workers=workers_for(len(jobs), CHUNK),
                mp_context=context,
                initializer=_pin_worker,
                initargs=(context.Value("i", 0),),
            )
            # A build that fails before `finish` does not leave the workers drawing on.
            weakref.finalize(self, self._pool.shutdown, cancel_futures=True)
        for start in range(0, len(jobs), CHUNK):
            future = self._pool.submit(_draw_chunk, jobs[start : start + CHUNK])
            batch = _Batch(todo[start : start + CHUNK], future)
            for drawing in batch.drawings:
                self._pending[drawing.key] = batch
        return len(todo)

    def _wait_for(self, key: str) -> None:
        """Store the batch that is drawing `key`, once its worker is done (if it is one)."""
        batch = self._pending.get(key)
        if batch is None:
            return
        results = batch.future.result()
        for drawing, (svg, png) in zip(batch.drawings, results, strict=True):
            self._store(drawing, svg, png)
            self._pending.pop(drawing.key, None)

    def finish(self) -> None:
        """Wait for every drawing started, keep them, and stop the workers."""
        try:
            for key in list(self._pending):
                self._wait_for(key)
        finally:
            if self._pool is not None:
                self._pool.shutdown(cancel_futures=True)
                self._pool = None
            self._pending.clear()


def _holds(path: Path, data: bytes) -> bool:
    try:
        return path.read_bytes() == data
    except OSError:
        return False


# A chart's files in the site are hard links to the cache's, not copies: a link is a
# name, not a file (a warm rebuild of 1,000 models writes 8,000 drawings, ~300 MB, where a
# link costs a hundredth of a write). Neither side can change the other: the cache
# replaces a file by a new one (`write_atomic`), never writes into one, and the build
# writes its site into a new folder, every file new (`write_new`: never into an existing
# file, which may be one of these links).
# A build's site folder is new, so the target is not there: it is created first, and
# unlinked only when it was there after all (a system call costs tens of microseconds on
# a virtual machine, and a rebuild of 1,000 models writes 12,000 chart files).
def link_new(source: Path, target: Path) -> bool:
    """Make `target` a new name of the file `source`; False where that fails (no
    `source`, another file system, a file system without links)."""
    try:
        os.link(source, target)
    except FileExistsError:
        target.unlink()
        return link_new(source, target)
    except OSError:
        return False
    return True


def write_new(target: Path, data: bytes) -> None:
    """Write `data` into a new file `target`, never into the file that was there."""
    try:
        with target.open("xb") as created:
            created.write(data)
    except FileExistsError:
        target.unlink()
        write_new(target, data)


@dataclass(frozen=True, eq=False)
class _Batch:
    """Drawings handed to one worker at once, and the future of their SVGs and PNGs."""

    drawings: list[Drawing]
    future: Future[list[tuple[str, bytes | None]]]


def _pin_worker(started: Any) -> None:
    """Keep this worker, and the threads vl-convert starts in it, on one core of its own.

    vl-convert maps a font file of the machine's afresh for every glyph it looks up in it
    (chart_fonts keeps Liberation Sans, the one nearly every chart's text is set in, in
    memory; other families still come from files); a process whose threads run on several
    cores pays for each unmap on every core it runs on. Pinned one to a core, the workers
    drew a chart with about a quarter less CPU time (bench/bench_site.py, 1,000 models,
    measured before chart_fonts). `started` counts the workers started, to give each the
    next core."""
    if not hasattr(os, "sched_setaffinity"):
        return
    with started.get_lock():
        index = started.value
        started.value += 1
    cores = sorted(os.sched_getaffinity(0))
    with contextlib.suppress(OSError):  # a core taken away meanwhile: left unpinned
        os.sched_setaffinity(0, {cores[index % len(cores)]})


def _draw_chunk(jobs: list[Job]) -> list[tuple[str, bytes | None]]:
    return [_draw(job) for job in jobs]
