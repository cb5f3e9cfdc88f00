"""vl-convert draws with its own Liberation Sans, not the machine's copy of that family,
and the machine's other fonts stay available (reportgen/render/chart_fonts.py)."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reportgen.render import chart_fonts
from reportgen.render.chart_fonts import family_names, fontconfig_file, link_machine_fonts

REPO = Path(__file__).resolve().parents[1]


def name_table(records: list[tuple[int, int, str]]) -> bytes:
    """A `name` table of (platform, name id, text) records."""
    entries, strings = b"", b""
    for platform, name_id, text in records:
        raw = text.encode("utf-16-be" if platform in (0, 3) else "mac_roman")
        entries += struct.pack(">6H", platform, 1, 0x409, name_id, len(raw), len(strings))
        strings += raw
    return struct.pack(">HHH", 0, len(records), 6 + 12 * len(records)) + entries + strings


def sfnt(tables: dict[bytes, bytes], at: int = 0) -> bytes:
    """A font file's bytes holding `tables`, its offsets counted from `at` (a collection)."""
    directory, body = b"", b""
    start = at + 12 + 16 * len(tables)
    for tag, data in tables.items():
        directory += struct.pack(">4sIII", tag, 0, start + len(body), len(data))
        body += data
    return struct.pack(">IHHHH", 0x00010000, len(tables), 0, 0, 0) + directory + body


def font(*families: str) -> bytes:
    return sfnt({b"name": name_table([(3, 1, family) for family in families] + [(3, 2, "Bold")])})


def collection(*fonts_families: tuple[str, ...]) -> bytes:
    header_size = 12 + 4 * len(fonts_families)
    fonts, offsets = b"", []
    for families in fonts_families:
        offsets.append(header_size + len(fonts))
        fonts += sfnt({b"name": name_table([(3, 1, f) for f in families])}, at=offsets[-1])
    header = b"ttcf" + struct.pack(">HHI", 1, 0, len(offsets))
    return header + struct.pack(f">{len(offsets)}I", *offsets) + fonts


def test_family_names_are_read_from_every_platform_and_the_typographic_family(
    tmp_path: Path,
) -> None:
    path = tmp_path / "a.ttf"
    records = [(3, 1, "Noto Sans Display"), (1, 1, "Noto Sans Display"), (0, 16, "Noto Sans")]
    path.write_bytes(sfnt({b"OS/2": b"\0" * 8, b"name": name_table([*records, (3, 4, "Full")])}))
    assert family_names(path) == {"Noto Sans Display", "Noto Sans"}  # not the full name (4)
    mac = tmp_path / "mac.ttf"
    mac.write_bytes(sfnt({b"name": name_table([(1, 1, "Crème Sans")])}))
    assert family_names(mac) == {"Crème Sans"}


def test_a_collection_declares_the_families_of_all_its_fonts(tmp_path: Path) -> None:
    path = tmp_path / "a.ttc"
    path.write_bytes(collection(("Liberation Sans",), ("Other Sans", "Other Sans Alt")))
    assert family_names(path) == {"Liberation Sans", "Other Sans", "Other Sans Alt"}


@pytest.mark.parametrize(
    "content",
    [b"", b"\0\1\0\0", b"ttcf\0\1\0\0\xff\xff\xff\xff", font("A")[:30], sfnt({b"cmap": b"12"})],
    ids=["empty", "no tables", "collection of 4 billion", "cut short", "no name table"],
)
def test_a_file_that_is_not_a_readable_font_declares_no_family(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "x.ttf"
    path.write_bytes(content)
    assert family_names(path) == set()
    assert family_names(tmp_path / "missing.ttf") == set()


@given(st.binary(max_size=200), st.sampled_from([b"", b"ttcf", b"\0\1\0\0"]))
def test_family_names_never_raises(content: bytes, prefix: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "x.otf")
        path.write_bytes(prefix + content)
        assert isinstance(family_names(path), set)


def test_the_links_leave_out_vl_converts_own_families_and_keep_the_others(
    tmp_path: Path,
) -> None:
    machine, home, links = tmp_path / "usr", tmp_path / "home", tmp_path / "links"
    for folder in (machine / "truetype" / "liberation", home, links):
        folder.mkdir(parents=True)
    files = {
        machine / "truetype" / "liberation" / "LiberationSans-Regular.ttf": font("Liberation Sans"),
        machine / "truetype" / "liberation" / "LiberationSansNarrow.ttf": font(
            "Liberation Sans Narrow"
        ),
        machine / "truetype" / "Both.ttc": collection(("Liberation Sans",), ("Kept",)),
        machine / "DejaVuSans.TTF": font("DejaVu Sans"),
        home / "DejaVuSans.TTF": font("Another Sans"),  # the same name in another folder
        machine / "broken.otf": b"not a font",  # fontdb skips it; linked all the same
        machine / "README.txt": b"text",
    }
    for path, content in files.items():
        path.write_bytes(content)
    left_out = link_machine_fonts([machine, tmp_path / "missing", home], links)
    assert left_out == 2  # LiberationSans-Regular.ttf and the collection holding the family
    targets = {link.resolve() for link in links.iterdir()}
    assert targets == {
        machine / "truetype" / "liberation" / "LiberationSansNarrow.ttf",
        machine / "DejaVuSans.TTF",
        home / "DejaVuSans.TTF",
        machine / "broken.otf",
    }
    assert all(link.is_symlink() for link in links.iterdir())


def test_the_fontconfig_file_names_the_folder_even_with_markup_in_its_path(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "a & <b>"
    parsed = ElementTree.fromstring(fontconfig_file(folder).split("\n", 2)[2])
    assert [element.text for element in parsed.iter("dir")] == [str(folder)]


@pytest.mark.parametrize("before", [None, "/etc/fonts/other.conf"])
def test_the_variable_is_put_back(monkeypatch: pytest.MonkeyPatch, before: str | None) -> None:
    if before is None:
        monkeypatch.delenv("FONTCONFIG_FILE", raising=False)
    else:
        monkeypatch.setenv("FONTCONFIG_FILE", before)
    seen = []

    def fails_inside() -> None:
        with chart_fonts._environment("FONTCONFIG_FILE", "x.conf"):
            seen.append(os.environ["FONTCONFIG_FILE"])
            raise RuntimeError

    with pytest.raises(RuntimeError):
        fails_inside()
    assert seen == ["x.conf"]
    assert os.environ.get("FONTCONFIG_FILE") == before


# Each drawing process loads its fonts once, so each way of loading them gets a process.
_DRAW = """
import json, os, sys
from pathlib import Path
from reportgen.render import chart_fonts, drawing
how, folder = sys.argv[1], Path(sys.argv[2])
spec = json.loads(sys.argv[3])
if how == "prepared":
    chart_fonts.machine_font_folders = lambda: [folder]
else:  # vl-convert as it is, reading the folders of the file FONTCONFIG_FILE names
    chart_fonts.prepare = lambda: None
png = drawing.draw_png(drawing.draw_svg(spec, {}, "k" * 64))
sys.stdout.write(json.dumps([png.hex(), os.environ.get("FONTCONFIG_FILE")]))
"""


def _machines_liberation_sans() -> Path | None:
    """The folder of the machine's first Liberation Sans file."""
    for folder in chart_fonts.machine_font_folders():
        for path in sorted(folder.rglob("*.ttf")) if folder.is_dir() else ():
            if family_names(path) == {"Liberation Sans"}:
                return path.parent
    return None


def test_charts_are_drawn_with_vl_converts_copy_where_the_machine_has_its_own(
    tmp_path: Path,
) -> None:
    machines = _machines_liberation_sans()
    if machines is None:
        pytest.skip("this machine has no Liberation Sans of its own to hide")
    with_machines, empty = tmp_path / "machine", tmp_path / "empty"
    with_machines.mkdir()
    empty.mkdir()
    for path in machines.glob("*.ttf"):
        if family_names(path) == {"Liberation Sans"}:
            shutil.copy(path, with_machines / path.name)
    spec = {
        "data": {"values": [{"k": "Ação afirmativa", "v": 3}, {"k": "Dúvida plantada", "v": 2}]},
        "mark": "bar",
        "encoding": {
            "y": {"field": "k", "type": "nominal"},
            "x": {"field": "v", "type": "quantitative"},
        },
    }
    scratch = tmp_path / "scratch"
    scratch.mkdir()

    def draw(how: str, config_of: Path | None) -> subprocess.Popen[str]:
        """A process drawing the chart `how` says, vl-convert reading `config_of`'s fonts."""
        env = {k: v for k, v in os.environ.items() if k != "FONTCONFIG_FILE"}
        env.update(PYTHONPATH=str(REPO), TMPDIR=str(scratch))
        if config_of is not None:
            config = tmp_path / f"{config_of.name}.conf"
            config.write_text(fontconfig_file(config_of), encoding="utf-8")
            env["FONTCONFIG_FILE"] = str(config)
        command = [sys.executable, "-c", _DRAW, how, str(with_machines), json.dumps(spec)]
        return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)

    runs = {
        "prepared": draw("prepared", None),
        "own copy only": draw("plain", empty),
        "machine's copy first": draw("plain", with_machines),
    }
    results = {how: json.loads(run.communicate(timeout=300)[0]) for how, run in runs.items()}
    assert all(run.returncode == 0 for run in runs.values())
    prepared, variable = results["prepared"]
    assert prepared == results["own copy only"][0]
    assert variable is None  # put back as it was: unset
    assert list(scratch.iterdir()) == []  # the links' folder is gone
    if results["machine's copy first"][0] == prepared:
        pytest.skip("the machine's Liberation Sans draws as vl-convert's: nothing to tell apart")
