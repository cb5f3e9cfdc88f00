"""Where a built site goes: the output folder checked, the staging folder beside it, and
the swap that replaces the old site by the new one (reportgen/build.py).

Everything is built in the staging folder; the output folder is replaced only once the
new site is whole, so a failed build leaves the previous site as it was.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from reportgen.errors import OutputExistsError, ReportgenError

SITE_MARKER = ".reportgen-site"  # marks a directory this command may replace


class OutputNotWritableError(ReportgenError):
    """The output folder cannot be written (a file in the way, no permission, no such place)."""


def check_output(out_dir: Path) -> None:
    """Refuse an output folder that holds something other than a site this command built."""
    if out_dir.exists() and (
        not out_dir.is_dir() or (any(out_dir.iterdir()) and not (out_dir / SITE_MARKER).exists())
    ):
        raise OutputExistsError(
            f"{out_dir}: exists and was not written by `reportgen build`; refusing to replace it"
        )


def make_staging(out_dir: Path) -> Path:
    """The staging folder beside `out_dir` (created before any work, so a bad --out fails fast)."""
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(dir=out_dir.parent, prefix=f".{out_dir.name}-staging-"))
    except OSError as error:
        in_the_way = next((p for p in out_dir.parents if p.exists() and not p.is_dir()), None)
        detail = (
            f"{in_the_way} is a file, not a folder"
            if in_the_way is not None
            else f"cannot create a folder in {out_dir.parent}: {error.strerror or error}"
        )
        raise OutputNotWritableError(f"{out_dir}: cannot write the site there ({detail})") from None


def swap(built: Path, out_dir: Path, staging: Path) -> None:
    """Replace `out_dir` by `built`; the old site is moved aside first and restored on failure."""
    aside = staging / "previous"
    had_previous = out_dir.exists()
    if had_previous:
        out_dir.rename(aside)
    try:
        built.rename(out_dir)
    except OSError:
        if had_previous:
            aside.rename(out_dir)
        raise
