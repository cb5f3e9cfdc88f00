"""Keep pandas out of the commands that only read archives (`summary`, `verify`).

pyarrow asks whether pandas is installed the first time it builds or converts almost
anything (`pa.array`, `pq.read_table`, `to_numpy`), and asking imports pandas: 0.3 to
0.4 s of CPU that reading an archive never uses (nothing in reportgen uses pandas). While
`pandas_left_out()` is open, `import pandas` fails (a finder first on `sys.meta_path`
refuses it), so pyarrow records pandas as absent instead; it imports pandas
again by itself when one of its pandas conversions (`to_pandas`, `from_pandas`) is used.
Until then it takes no object for a pandas one, which is right while pandas is not
loaded (no pandas object exists); a process that loads pandas later and hands pyarrow a
pandas object before any such conversion (nothing in reportgen does) would see it
converted as a plain sequence.
Nothing inside the block may need pandas: the archive reader and the scores do not, the
statistics (statsmodels imports pandas) run after the block.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib.machinery import ModuleSpec
from types import ModuleType


class _RefusePandas:
    """A meta path finder that refuses pandas and its modules."""

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError("pandas is left out while reading an archive", name=name)
        return None


@contextmanager
def pandas_left_out() -> Iterator[None]:
    """pyarrow's first look for pandas, inside the block, finds none (see the module)."""
    if "pandas" in sys.modules:
        yield
        return
    finder = _RefusePandas()
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
