"""The review app served for the tests that talk to it over HTTP or drive it in a real
browser: `reportgen review serve` on a free port, this checkout's code."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A port no one listens on now (the server binds it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def served_review_app(database_url: str, folder: Path, *options: str) -> Iterator[str]:
    """The app's address while `reportgen review serve` (with `options`) runs on
    `database_url` in `folder`: this checkout's code, whatever is installed."""
    port = free_port()
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(REPOSITORY), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    environment.pop("REVIEW_TRUSTED_PROXIES", None)
    command = [sys.executable, "-c", "from reportgen.cli import main; main()"]
    process = subprocess.Popen(
        [*command, "review", "serve", "--port", str(port), "--db", database_url, *options],
        cwd=folder,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    address = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{address}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("`reportgen review serve` did not start")
                time.sleep(0.5)
        yield address
    finally:
        _stop(process)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the server and the Streamlit process it started (one process group)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
