"""An on-disk cache of results objects, keyed by a round's frozen bytes and the caller's settings.

A results object is any pydantic model; a kind computes it, this module only stores and
loads it. One file per key, `results-<key>.json`, holding the model's JSON form. The key is
the SHA-256 of length-prefixed parts: the SHA-256 of the round's SHA256SUMS bytes, the
SHA-256 of its annulment ledger, the package version, the revision of the code that
computes the results (`code_revision`), then the caller's parameters (its results schema,
bootstrap settings and anything else its results depend on). The
directory is the caller's, else `$REPORTGEN_CACHE_DIR`, else `~/.cache/reportgen`. An
entry that cannot be read back as the model is ignored, recomputed and overwritten.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import reportgen
from reportgen.atomic import write_atomic
from reportgen.digest import parts_digest
from reportgen.errors import InputError

if TYPE_CHECKING:  # only a bound: `reportgen summary` reads its answers without pydantic
    from pydantic import BaseModel

    from reportgen.model import Manifest

CACHE_ENV = "REPORTGEN_CACHE_DIR"

ResultsT = TypeVar("ResultsT", bound="BaseModel")
ResultsT_co = TypeVar("ResultsT_co", bound="BaseModel", covariant=True)
RoundT = TypeVar("RoundT", bound="ReplicatedRound")
RoundT_contra = TypeVar("RoundT_contra", bound="ReplicatedRound", contravariant=True)
Advance = Callable[[int], None]  # bootstrap replicates done since the last call


class CacheableRound(Protocol):
    """What the cache reads from a round: its folder (for SHA256SUMS) and its ledger's hash."""

    @property
    def path(self) -> Path: ...

    @property
    def ledger_sha256(self) -> str: ...


def default_cache_dir() -> Path:
    configured = os.environ.get(CACHE_ENV)
    return Path(configured) if configured else Path.home() / ".cache" / "reportgen"


# The core code every kind's results go through (reading the archive, the cache itself).
_CORE_SOURCES = tuple(Path(__file__).resolve().parents[1] / name for name in ("archive", "results"))
# Folders of a kind that only present results: a change there cannot change a statistic.
_PRESENTATION = frozenset({"render", "templates", "locales"})


@cache
def code_revision(*folders: Path) -> str:
    """SHA-256 of the Python sources under `folders` (paths and bytes, presentation folders
    left out). The package version alone stayed 0.1.0 across hundreds of commits, so a
    changed statistic could have been served from an entry an older code wrote."""
    digest = hashlib.sha256()
    for folder in folders:
        for source in sorted(folder.rglob("*.py")):
            relative = source.relative_to(folder)
            if _PRESENTATION.intersection(relative.parts):
                continue
            for part in (f"{folder.name}/{relative.as_posix()}".encode(), source.read_bytes()):
                digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()


def _kind_folder(round_type: type) -> Path | None:
    """The folder of the code that computes the results of a `round_type`: its kind's
    package under reportgen/kinds, else (a kind defined elsewhere, e.g. in tests) the
    folder of the module defining the type."""
    module_name = round_type.__module__
    parts = module_name.split(".")
    if parts[:2] == ["reportgen", "kinds"] and len(parts) > 2:
        package = importlib.import_module(".".join(parts[:3]))
        return Path(next(iter(package.__path__))).resolve()
    module_file = getattr(sys.modules.get(module_name), "__file__", None)
    return Path(module_file).resolve().parent if module_file else None


def cache_key(round: CacheableRound, parameters: Sequence[str]) -> str:
    """The key of `round`'s results computed with `parameters` (hex SHA-256)."""
    sums_path = round.path / "SHA256SUMS"
    sums = sums_path.read_bytes() if sums_path.is_file() else b""
    kind_folder = _kind_folder(type(round))
    revision = code_revision(*_CORE_SOURCES, *([kind_folder] if kind_folder else []))
    parts = [hashlib.sha256(sums).hexdigest(), round.ledger_sha256, reportgen.__version__, revision]
    return parts_digest([*parts, *parameters])


def cache_path(directory: Path, key: str) -> Path:
    return directory / f"results-{key}.json"


def cached_results(
    results_type: type[ResultsT],
    round: CacheableRound,
    parameters: Sequence[str],
    compute: Callable[[], ResultsT],
    cache_dir: Path | None = None,
) -> ResultsT:
    """The results of `round` read from the cache, else `compute()`d and stored there."""
    directory = default_cache_dir() if cache_dir is None else cache_dir
    path = cache_path(directory, cache_key(round, parameters))
    try:
        return results_type.model_validate_json(path.read_bytes())
    except (OSError, ValueError):  # pydantic's ValidationError is a ValueError
        pass  # absent or corrupt: recompute and overwrite
    results = compute()
    with contextlib.suppress(OSError):  # an unwritable cache only costs time on the next run
        write_json(path, results.model_dump(mode="json", by_alias=True), indent=None)
    return results


class _Manifest(Protocol):
    @property
    def bootstrap_replicates(self) -> int: ...


class ReplicatedRound(CacheableRound, Protocol):
    """A round whose manifest says how many bootstrap replicates its results take."""

    @property
    def manifest(self) -> _Manifest: ...


def replicate_count(round_: ReplicatedRound, replicates: int | None) -> int:
    """The bootstrap replicates asked for, else the round's own (bootstrap.replicates);
    InputError, naming round.json, when fewer than one."""
    count = round_.manifest.bootstrap_replicates if replicates is None else replicates
    if count < 1:
        raise InputError(
            f"{round_.path / 'round.json'}: bootstrap.replicates must be at least 1, got {count}"
        )
    return count


def results_header(schema: str, kind: str, manifest: Manifest, replicates: int) -> dict[str, Any]:
    """The fields every results object starts with: its format (`schema`), the round, its
    `kind` (or variant), whether it is synthetic, the package version, and the bootstrap's
    replicates and seed."""
    return {
        "schema": schema,
        "round_id": manifest.round_id,
        "kind": kind,
        "synthetic": manifest.synthetic,
        "package_version": reportgen.__version__,
        "replicates": replicates,
        "seed": manifest.bootstrap_seed,
    }


class ResultsLoader(Protocol[RoundT_contra, ResultsT_co]):
    """A kind's `load_results`: the round's results, from the cache when it holds them."""

    def __call__(
        self,
        round_: RoundT_contra,
        replicates: int | None = None,
        cache_dir: Path | None = None,
        advance: Advance | None = None,
    ) -> ResultsT_co: ...


def results_loader(
    results_type: type[ResultsT],
    parameters: Callable[[RoundT, int], Sequence[str]],
    compute: Callable[[RoundT, int, Advance | None], ResultsT],
) -> ResultsLoader[RoundT, ResultsT]:
    """A kind's `load_results(round_, replicates, cache_dir, advance)`: `cached_results`
    under the key `parameters(round_, count)`, else `compute(round_, count, advance)`,
    where count is `replicates`, by default the round's own (bootstrap.replicates)."""

    def load_results(
        round_: RoundT,
        replicates: int | None = None,
        cache_dir: Path | None = None,
        advance: Advance | None = None,
    ) -> ResultsT:
        count = round_.manifest.bootstrap_replicates if replicates is None else replicates
        return cached_results(
            results_type,
            round_,
            parameters(round_, count),
            lambda: compute(round_, count, advance),
            cache_dir,
        )

    return load_results


def write_json(path: Path, data: Mapping[str, Any], *, indent: int | None = 1) -> None:
    """Write atomically: a reader sees the old file or the whole new one. `indent=None`
    writes one line, through the json module's C encoder (with an indent it encodes in
    Python: a second for the 9 MB results of 1,000 models)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, ensure_ascii=False, indent=indent, allow_nan=False)
    write_atomic(path, text + "\n")
