"""`reportgen serve --watch`: a change to a template or site.yml rebuilds the site, open
pages learn it through the reload script, and the script is in the preview only."""

from __future__ import annotations

import html
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from reportgen.preview import GENERATION_PATH, RELOAD_SCRIPT, inject_reload
from tests.factories import CONFIG, REPO, THEME, tiny_rounds

STARTUP_S = 240.0  # the first build of the tiny rounds, on a busy machine
REBUILD_S = 120.0  # one rebuild after a change


_WITH_CTRL_C = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "


@dataclass
class Preview:
    address: str
    site: Path
    theme: Path
    config: Path
    lines: queue.Queue[str]

    def get(self, path: str) -> str:
        with urllib.request.urlopen(self.address + path.lstrip("/"), timeout=30) as response:
            return str(response.read().decode("utf-8"))

    def generation(self) -> int:
        return int(self.get(GENERATION_PATH))

    def wait_for_generation(self, after: int) -> int:
        deadline = time.monotonic() + REBUILD_S
        while time.monotonic() < deadline:
            now = self.generation()
            if now > after:
                return now
            time.sleep(0.5)
        pytest.fail(f"no rebuild within {REBUILD_S:.0f} s; output: {drain(self.lines)}")


def drain(lines: queue.Queue[str]) -> list[str]:
    found = []
    while not lines.empty():
        found.append(lines.get_nowait())
    return found


def _read_lines(stream: object, lines: queue.Queue[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        lines.put(str(line).rstrip("\n"))


@pytest.fixture(scope="module")
def preview(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Preview]:
    work = tmp_path_factory.mktemp("serve-watch")
    tiny_rounds(work / "rounds")
    theme, config = work / "overrides", work / "site.yml"
    shutil.copytree(THEME, theme)
    shutil.copyfile(CONFIG, config)
    # A shell that starts the test run in the background (CI scripts, `cmd &`) makes its
    # children ignore SIGINT, and Python then keeps ignoring it: restore Ctrl+C in the
    # preview, or the teardown's SIGINT would wait for the kill below.
    command = [
        sys.executable, "-c", _WITH_CTRL_C + "from reportgen.cli import main; main()",
        "serve", "--watch",
        "--port", "0", "--dir", str(work / "site"), "--rounds-dir", str(work / "rounds"),
        "--config", str(config), "--templates", str(theme), "--cache-dir", str(work / "cache"),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_read_lines, args=(process.stdout, lines), daemon=True).start()
    try:
        deadline, address = time.monotonic() + STARTUP_S, None
        while address is None and time.monotonic() < deadline and process.poll() is None:
            try:
                line = lines.get(timeout=1)
            except queue.Empty:
                continue
            found = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
            address = found.group(1) if found else None
        assert address is not None, f"the preview did not start: {drain(lines)}"
        yield Preview(address, work / "site", theme, config, lines)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


def test_reload_script_is_served_but_never_built(preview: Preview) -> None:
    served = preview.get("index.html")
    assert RELOAD_SCRIPT in served
    assert served.index(RELOAD_SCRIPT) < served.rindex("</body>")
    on_disk = [p for p in preview.site.rglob("*.html") if GENERATION_PATH in p.read_text("utf-8")]
    assert on_disk == []


def test_template_change_rebuilds_and_bumps_the_generation(preview: Preview) -> None:
    before = preview.generation()
    main_html = preview.theme / "main.html"
    text = main_html.read_text("utf-8")
    assert "{% block extrahead %}" in text
    main_html.write_text(
        text.replace(
            "{% block extrahead %}",
            '{% block extrahead %}<meta name="rg-watch" content="edited-template">',
            1,
        ),
        "utf-8",
    )
    preview.wait_for_generation(before)
    assert 'content="edited-template"' in preview.get("en/ranking.html")
    assert 'content="edited-template"' in (preview.site / "ranking.html").read_text("utf-8")


def test_site_yml_change_rebuilds(preview: Preview) -> None:
    before = preview.generation()
    text = preview.config.read_text("utf-8")
    assert "Errar ou omitir-se?" in text
    preview.config.write_text(
        text.replace("Errar ou omitir-se?", "Errar ou omitir-se (watch-edited)?", 1), "utf-8"
    )
    preview.wait_for_generation(before)
    assert "(watch-edited)" in html.unescape(preview.get("index.html"))


def test_inject_reload_without_a_body_appends() -> None:
    assert inject_reload(b"<p>x</p>") == b"<p>x</p>" + RELOAD_SCRIPT.encode()
    assert inject_reload(b"<body>a</body>") == b"<body>a" + RELOAD_SCRIPT.encode() + b"</body>"
