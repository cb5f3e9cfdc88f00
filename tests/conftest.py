"""Session-wide test settings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True, scope="session")
def _isolated_results_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Keep the statistics cache of the test run out of the user's ~/.cache."""
    cache = tmp_path_factory.mktemp("results-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REPORTGEN_CACHE_DIR", str(cache))
        yield cache
