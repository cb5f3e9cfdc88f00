"""Two built sites compared file by file, byte for byte (the same site made two ways)."""

from __future__ import annotations

import filecmp
from pathlib import Path


def site_files(site: Path) -> set[str]:
    """Every file under `site`, as its path there."""
    return {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}


def site_differences(one: Path, other: Path) -> tuple[set[str], list[str]]:
    """Files only one site has, and files both have with other bytes."""
    mine, theirs = site_files(one), site_files(other)
    changed = [
        name
        for name in sorted(mine & theirs)
        if not filecmp.cmp(one / name, other / name, shallow=False)
    ]
    return mine ^ theirs, changed
