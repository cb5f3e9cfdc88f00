"""Results objects shared by every kind of round: the on-disk cache and the JSON writer;
`reportgen.results.schema`, the JSON form and JSON Schema of a results model (loaded
apart: it needs pydantic, which an answer from the cache does not).

A kind computes its own results model (a pydantic model); this package stores and loads
any such model under a key made of the round's frozen bytes and the kind's parameters. It
names no kind. The read-only commands' answers (`reportgen summary`'s text) are cached
beside them, by the archive's frozen bytes (`cached_answer`).
"""

from reportgen.results._answers import cached_answer, frozen_digest
from reportgen.results._cache import (
    CACHE_ENV,
    CacheableRound,
    cache_key,
    cache_path,
    cached_results,
    default_cache_dir,
    replicate_count,
    results_header,
    write_json,
)

__all__ = [
    "CACHE_ENV",
    "CacheableRound",
    "cache_key",
    "cache_path",
    "cached_answer",
    "cached_results",
    "default_cache_dir",
    "frozen_digest",
    "replicate_count",
    "results_header",
    "write_json",
]
