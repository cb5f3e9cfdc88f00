"""The SHA-256 of a list of texts, each length-prefixed, so that no two lists give the same
bytes (["ab", "c"] and ["a", "bc"] differ): the key of every cache entry made of parts."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable


def parts_digest(parts: Iterable[str]) -> str:
    """The hex SHA-256 of `parts`, each as its UTF-8 bytes after their length (8 bytes)."""
    digest = hashlib.sha256()
    for part in parts:
        encoded = part.encode("utf-8", "surrogatepass")
        digest.update(len(encoded).to_bytes(8, "big") + encoded)
    return digest.hexdigest()
