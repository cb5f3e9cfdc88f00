"""reportgen: publishes the Estigmas benchmark from frozen round archives.

`__version__` is looked up in the installed metadata on first use (importlib.metadata
takes a noticeable share of a command as short as `reportgen --help`).
"""

from __future__ import annotations

__version__: str  # set by __getattr__ on first use


def __getattr__(name: str) -> str:
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("reportgen")
    except PackageNotFoundError:  # running from a source tree that was never installed
        found = "0.0.0+unknown"
    globals()["__version__"] = found
    return found
