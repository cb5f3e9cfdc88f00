"""Streamlit's AppTest runs the app's script as `__main__`: it puts the script's module in
`sys.modules["__main__"]` and leaves it there after the run. A later test in the same
process that starts a process pool with the "spawn" method (the site's drawing pool,
reportgen/render/drawing.py) then makes every child run that script again from its
temporary file, and the pool breaks (tests/test_drawing_pool.py failed so after
tests/test_review_plain_text.py on one worker). tests/conftest.py puts the worker's own
`__main__` back after every test."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def kept_main_module() -> Iterator[None]:
    """Whatever runs inside, `sys.modules["__main__"]` is the same module after it."""
    main = sys.modules.get("__main__")
    try:
        yield
    finally:
        if main is not None:
            sys.modules["__main__"] = main
