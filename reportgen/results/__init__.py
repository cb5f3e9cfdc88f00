"""Results objects shared by every kind of round: the on-disk cache and the JSON writer.

A kind computes its own results model (a pydantic model); this package stores and loads
any such model under a key made of the round's frozen bytes and the kind's parameters. It
names no kind.
"""

from reportgen.results._cache import (
    CACHE_ENV,
    CacheableRound,
    cache_key,
    cache_path,
    cached_results,
    default_cache_dir,
    write_json,
)

__all__ = [
    "CACHE_ENV",
    "CacheableRound",
    "cache_key",
    "cache_path",
    "cached_results",
    "default_cache_dir",
    "write_json",
]
