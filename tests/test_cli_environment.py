"""What the command line sets for the libraries it loads before any of them is imported."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# The value NumPy read at its import: the previous setting returned by setting it again.
PROBE = (
    "import os, reportgen.cli, numpy\n"
    "from numpy._core.multiarray import _set_madvise_hugepage\n"
    "print(os.environ['NUMPY_MADVISE_HUGEPAGE'], _set_madvise_hugepage(False))\n"
)


@pytest.mark.parametrize(
    ("given", "seen"), [(None, "0 False"), ("", "0 False"), ("1", "1 True"), ("0", "0 False")]
)
def test_numpy_huge_pages_are_off_unless_the_user_asks(given: str | None, seen: str) -> None:
    """NumPy's transparent huge pages cost seconds of page faults in a build of 1,000 models
    (reportgen/cli/__init__.py); a user's own setting wins, and an empty one, which NumPy's
    import would refuse, counts as unset."""
    environment = {k: v for k, v in os.environ.items() if k != "NUMPY_MADVISE_HUGEPAGE"}
    if given is not None:
        environment["NUMPY_MADVISE_HUGEPAGE"] = given
    shown = subprocess.run(
        [sys.executable, "-c", PROBE], env=environment, capture_output=True, text=True, check=True
    )
    assert shown.stdout.strip() == seen
