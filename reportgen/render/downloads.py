"""What every kind's downloads share: how a number is written in full precision, how a
results object becomes results.json, and how a round's files are written under
`data/<round_id>/` with `SHA256SUMS` (the format of `sha256sum`, so that `sha256sum -c`
checks them) listing each of them.

A kind decides which files a round has and their columns; the bytes of each file are
the kind's, this module only writes them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reportgen.archive._checksums import digests_of
from reportgen.results.exact import Exact

SUMS_FILE = "SHA256SUMS"


def full(value: Exact | float | None) -> str | None:
    """A number in full precision (the float nearest an exact value, as `repr`)."""
    if value is None:
        return None
    return repr(value.value if isinstance(value, Exact) else float(value))


def boolean(value: bool | None) -> str | None:
    """A yes/no cell as JSON writes it ("true" / "false"), empty when unknown."""
    return None if value is None else ("true" if value else "false")


def json_text(value: Mapping[str, Any]) -> str:
    """A results object as results.json: sorted keys, one-space indent, UTF-8 as is."""
    return json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def sums_text(digests: Mapping[str, str]) -> str:
    """`SHA256SUMS` in the format of `sha256sum` (two spaces, then the file name), in the
    order of the downloads (an archive's lists its files sorted)."""
    return "".join(f"{digest}  {name}\n" for name, digest in digests.items())


def write_round_files(site_dir: Path, round_id: str, files: Mapping[str, bytes]) -> list[Path]:
    """`files` and their SHA256SUMS under `site_dir/data/<round_id>/`, in that order."""
    folder = site_dir / "data" / round_id
    folder.mkdir(parents=True, exist_ok=True)
    every = {**files, SUMS_FILE: sums_text(digests_of(files)).encode("utf-8")}
    written = []
    for name, data in every.items():
        target = folder / name
        target.write_bytes(data)
        written.append(target)
    return written
