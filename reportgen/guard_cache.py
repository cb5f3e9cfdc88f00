"""The leak guard's clean verdicts kept between builds, so a rebuild scans only what changed.

The guard (`reportgen.guard`) reads every file of the site for canaries and runs of secret
words; a rebuild after one model is added changes a few hundred of tens of thousands of
files. What the guard says of a file depends only on the file's bytes, its path in the
site (its folders and suffix) and the secret index (the secret runs, canaries, names, ids,
and the code that looks for them). So a file found clean is remembered under the SHA-256
of its path and bytes, in a list kept per fingerprint of the indexes
(`<cache_dir>/<fingerprint>.keys`, the keys of the last build's clean files); a file whose
key is listed there is not scanned again. Only clean verdicts are kept: a file with a
problem is scanned, and reported, every time, and an index whose tokeniser or fold cannot
be named (a lambda, a closure) gets no fingerprint and no cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import itertools
import json
import multiprocessing
import os
import pickle
import signal
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

from reportgen import guard, guard_search
from reportgen.atomic import write_atomic
from reportgen.errors import Problem
from reportgen.guard import (
    GuardMaterial,
    LeakError,
    SecretIndex,
    file_text,
    reads,
    scan_file,
    scan_text,
    secret_indexes,
)
from reportgen.workers import fork_allowed, pool_size, workers_for

T = TypeVar("T")


def _function_identity(function: Callable[..., object] | None) -> list[str] | None:
    """A named function's module, name and source file's SHA-256; None for one that
    cannot be named again (a lambda or a closure: two of them may differ in behaviour)."""
    if function is None:
        return ["none"]
    name = getattr(function, "__qualname__", "")
    module = sys.modules.get(getattr(function, "__module__", "") or "")
    if not name or "<" in name or module is None:
        return None
    try:
        source = Path(inspect.getfile(module)).read_bytes()
    except (TypeError, OSError):
        return None
    return [module.__name__, name, hashlib.sha256(source).hexdigest()]


def index_fingerprint(indexes: Sequence[SecretIndex]) -> str | None:
    """The SHA-256 of everything the guard's verdicts depend on besides each file (None:
    an index that cannot be fingerprinted)."""
    # The guard's code: its verdicts change with it.
    material: list[object] = [
        Path(inspect.getfile(module)).read_bytes().hex() for module in (guard, guard_search)
    ]
    for index in indexes:
        functions = [_function_identity(index.tokenise), _function_identity(index.fold)]
        if None in functions:
            return None
        material.append(
            {
                "runs": sorted(index.run_source.items()),
                "canaries": sorted(index.canaries),
                "markup_names": sorted(index.markup_names),
                "never": sorted(index.never_strings),
                "scoped": sorted((k, sorted(v)) for k, v in index.scoped_ids.items()),
                "folders": sorted((k, sorted(v)) for k, v in index.id_folders.items()),
                "functions": functions,
            }
        )
    encoded = json.dumps(material, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(encoded).hexdigest()


def file_key(relative: str, data: bytes) -> str:
    """The key of one file's verdict: its path in the site and its bytes."""
    digest = hashlib.sha256()
    name = relative.encode("utf-8")
    digest.update(len(name).to_bytes(8, "big") + name)
    digest.update(data)
    return digest.hexdigest()


def _read_keys(path: Path) -> frozenset[str]:
    try:
        return frozenset(path.read_text(encoding="ascii").split())
    except (OSError, ValueError):  # absent or unreadable: every file is scanned
        return frozenset()


def _keep_keys(path: Path, keys: Iterable[str]) -> None:
    with contextlib.suppress(OSError):  # an unwritable cache only costs time
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, "".join(f"{key}\n" for key in sorted(set(keys))))


def scan_site_cached(
    site_dir: Path,
    indexes: Sequence[SecretIndex],
    cache_dir: Path | None,
    early: EarlyScan | None = None,
) -> tuple[list[Problem], int]:
    """Every problem under `site_dir`, the same as `guard.scan_site`, and how many files
    were scanned; files found clean by an earlier scan with the same indexes are skipped,
    and so are those `early` found clean (made with `indexes`) and files the guard never
    reads (`guard.reads`)."""
    fingerprint = index_fingerprint(indexes) if cache_dir is not None else None
    store = cache_dir / f"{fingerprint}.keys" if cache_dir and fingerprint else None
    known = _read_keys(store) if store is not None else frozenset()
    early_clean = early.clean_keys() if early is not None else frozenset()
    if store is not None:  # without keys of its own, the scan has nothing to match them to
        known |= early_clean
    files = [(relative, size) for relative, size in _site_files(site_dir) if reads(relative)]
    relatives = [relative for relative, _ in files]
    _forked.update(site=site_dir, indexes=indexes)
    try:
        with _workers(len(files)) as pool:
            keys = (
                _share(pool, _key_chunk, _key_of, relatives, _by_size(files, 8_000_000, 500))
                if store is not None
                else [""] * len(files)
            )
            todo = [n for n, key in enumerate(keys) if key not in known]
            # The biggest files first, each alone: none is left for the end while the other
            # workers wait (a rebuild's big pages and downloads are a few megabytes each).
            order = sorted(todo, key=lambda n: -files[n][1])
            chunks = _by_size([files[n] for n in order], 1_000_000, _CHUNK)
            scanned = _share(pool, _scan_chunk, _scan_here, [relatives[n] for n in order], chunks)
    finally:
        _forked.clear()
    found = dict(zip(order, scanned, strict=True))
    problems = [problem for n in todo for problem in found[n]]
    clean = [key for n, key in enumerate(keys) if not found.get(n)]
    if store is not None:
        _keep_keys(store, clean)
    return problems, len(todo)


def _site_files(site_dir: Path) -> list[tuple[str, int]]:
    """Every file under `site_dir` (its path there, and its size), by path."""
    files = []
    for path in site_dir.rglob("*"):
        with contextlib.suppress(OSError):  # a dangling link is no file
            status = path.stat()
            if stat.S_ISREG(status.st_mode):
                files.append((path.relative_to(site_dir).as_posix(), status.st_size))
    return sorted(files)


def _by_size(files: Sequence[tuple[str, int]], most_bytes: int, most_files: int) -> list[int]:
    """The lengths of consecutive chunks of `files`, each of at most `most_files` files and,
    past its first file, at most `most_bytes` bytes."""
    lengths: list[int] = []
    count = size = 0
    for _, file_size in files:
        if count and (count == most_files or size + file_size > most_bytes):
            lengths.append(count)
            count = size = 0
        count, size = count + 1, size + file_size
    return [*lengths, count] if count else lengths


# From this many files, they are shared between forked processes (a rebuild after one
# model is added reads fourteen thousand files and scans some two thousand pages).
FORK_MIN = 200
_CHUNK = 50
_forked: dict[str, Any] = {}  # what the forked workers read: the site and the indexes


@contextlib.contextmanager
def _workers(files: int) -> Iterator[ProcessPoolExecutor | None]:
    """Forked workers for `files` files, or None: the files are then read here.

    The workers are forked, so they share the indexes as they are here (building them
    again in each would cost what it saves). A thread holding a lock at the fork would
    leave it held for good in the child, so a process running another Python thread (the
    build has stopped its pools by now), or a system without fork, scans here. The
    libraries' own native threads (BLAS, Arrow, vl-convert) may still run: the children
    call none of those libraries, only Python's own file reading, hashing, `re` and sets."""
    workers = workers_for(files, _CHUNK)
    if files < FORK_MIN or workers < 2 or not fork_allowed():
        yield None
        return
    # With fork, the executor starts its processes before its own thread.
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        yield pool


def _share(
    pool: ProcessPoolExecutor | None,
    chunk_function: Callable[[Sequence[str]], list[T]],
    one_function: Callable[[str], T],
    relatives: Sequence[str],
    lengths: Sequence[int],
) -> list[T]:
    """`one_function` of each of `relatives`, in order: by the workers, a chunk of each of
    `lengths` at a time, or here. A worker that dies (out of memory, a signal) breaks the
    pool instead of hanging the build, and the files are then read here."""
    if pool is not None:
        starts = list(itertools.accumulate(lengths, initial=0))
        chunks = [relatives[a:b] for a, b in itertools.pairwise(starts)]
        with contextlib.suppress(BrokenProcessPool, OSError):
            return [result for chunk in pool.map(chunk_function, chunks) for result in chunk]
    return [one_function(relative) for relative in relatives]


def _key_of(relative: str) -> str:
    return file_key(relative, (_forked["site"] / relative).read_bytes())


def _scan_here(relative: str) -> list[Problem]:
    path = _forked["site"] / relative
    return [problem for index in _forked["indexes"] for problem in scan_file(path, relative, index)]


def _key_chunk(relatives: Sequence[str]) -> list[str]:
    return [_key_of(relative) for relative in relatives]


def _scan_chunk(relatives: Sequence[str]) -> list[list[Problem]]:
    return [_scan_here(relative) for relative in relatives]


class EarlyScan:
    """The clean verdicts on some of the files a site will hold, reached before it is whole.

    A round's downloads are made before the pages are written, and one core is left idle
    for seconds while MkDocs runs: a child forked with the downloads once the build's own
    pages are written, at the lowest priority (it gets almost nothing while the build's
    processes take both cores), scans them in the time the build leaves, and the final
    scan skips those it found clean (a file's key is its path in the site and its bytes,
    the same then and there). Whatever
    goes wrong costs only time: no verdict comes back, and the final scan reads those files
    with the others. Forked only where the final scan forks its workers (Linux, two cores,
    no other Python thread), with a raw fork, which starts no thread here either."""

    def __init__(self, materials: Iterable[GuardMaterial], as_of: date | None = None) -> None:
        self.indexes = secret_indexes(materials, as_of)
        self._child: tuple[int, int] | None = None  # its pid, and the pipe it answers in

    def start(self, files: Mapping[str, bytes]) -> None:
        """Scan `files` (path in the site -> bytes) in a forked child."""
        if not files or pool_size() < 2 or not fork_allowed() or self._child is not None:
            return
        answer, reply = os.pipe()
        try:
            pid = os.fork()
        except OSError:  # no process to be had: the final scan reads them
            os.close(answer)
            os.close(reply)
            return
        if pid == 0:  # the child: never returns
            os.close(answer)
            _scan_and_exit(reply, self.indexes, files)
        os.close(reply)
        self._child = pid, answer

    def clean_keys(self) -> frozenset[str]:
        """The keys of the files found clean (waiting for them); none if anything failed."""
        if self._child is None:
            return frozenset()
        pid, answer = self._child
        self._child = None
        with os.fdopen(answer, "rb") as pipe:
            said = pipe.read()
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            return frozenset()
        with contextlib.suppress(pickle.UnpicklingError, EOFError, ValueError, TypeError):
            return frozenset(pickle.loads(said))
        return frozenset()

    def close(self) -> None:
        """Stop the child, if it still runs (the build failed before the guard)."""
        if self._child is not None:
            pid, answer = self._child
            self._child = None
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(answer)


def _scan_and_exit(reply: int, indexes: Sequence[SecretIndex], files: Mapping[str, bytes]) -> None:
    """The early scan's whole life: scan, answer, exit (1 on any error) without cleaning up:
    the buffers, files and `finally` blocks it inherited are the build's."""
    code = 1
    try:
        with contextlib.suppress(OSError):
            os.nice(19)  # the cores the build leaves idle, not the ones it works on
        said = pickle.dumps(_early_clean_keys(indexes, files), protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(reply, "wb") as pipe:
            pipe.write(said)
        code = 0
    finally:
        os._exit(code)


def _early_clean_keys(indexes: Sequence[SecretIndex], files: Mapping[str, bytes]) -> list[str]:
    """The keys of the files in which no index finds anything."""
    clean = []
    for relative, data in files.items():
        text = file_text(relative, data)
        if text is not None and not any(scan_text(relative, text, i) for i in indexes):
            clean.append(file_key(relative, data))
    return clean


def check_site_cached(
    site_dir: Path,
    materials: Iterable[GuardMaterial],
    *,
    as_of: date | None = None,
    cache_dir: Path | None = None,
    early: EarlyScan | None = None,
) -> int:
    """`guard.check_site` with the verdicts kept in `cache_dir` (None: none kept); raises
    LeakError as it does. Returns how many files were scanned. `early`, made with the same
    materials and date, gives its indexes and the files it found clean."""
    indexes = early.indexes if early is not None else secret_indexes(materials, as_of)
    problems, scanned = scan_site_cached(site_dir, indexes, cache_dir, early)
    if problems:
        raise LeakError(problems)
    return scanned
