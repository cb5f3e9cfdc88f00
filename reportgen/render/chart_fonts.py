"""The fonts vl-convert draws charts with: its own Liberation Sans before the machine's.

vl-convert (1.9) carries a copy of Liberation Sans, the family it sets text in when a
chart asks for "sans-serif", and keeps it in memory. But it loads the machine's fonts
first, so where the machine also has Liberation Sans, the machine's faces win, and fontdb
maps such a file from disk afresh for every glyph it looks up: some thousand maps and
unmaps of LiberationSans-Regular.ttf for one per-model chart (strace), about half of the
chart's drawing time, nearly all of it in the kernel (perf).

So a process, before it draws its first chart, lets vl-convert load the machine's fonts
from a folder of links to them that leaves out the faces of vl-convert's own families
(fontdb reads the folders from fontconfig's `FONTCONFIG_FILE`), then puts the variable
back. The machine's other fonts still serve for characters Liberation Sans lacks. The
SVGs are the same as before (the two copies have the same advance widths); the PNGs are
drawn with vl-convert's copy wherever the build runs, rather than with the machine's.
Elsewhere than Linux fontdb does not read fontconfig, and nothing changes.
"""

from __future__ import annotations

import contextlib
import os
import struct
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from xml.sax.saxutils import escape

# The families vl-convert 1.9 carries (vl-convert-rs/fonts): its four Liberation Sans faces.
OWN_FAMILIES = frozenset({"Liberation Sans"})
FONT_SUFFIXES = frozenset({".ttf", ".ttc", ".otf", ".otc"})
_FAMILY_NAME_IDS = (1, 16)  # the family, and the typographic family of large families

_prepared = False
_lock = threading.Lock()


def machine_font_folders() -> list[Path]:
    """The folders fontdb reads on Linux (/etc/fonts/fonts.conf's, and its own fallback)."""
    home = Path(os.environ.get("HOME", "/nonexistent"))
    data_home = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return [
        Path("/usr/share/fonts"),
        Path("/usr/local/share/fonts"),
        data_home / "fonts",
        home / ".fonts",
    ]


def family_names(path: Path) -> set[str]:
    """The family names a font file (or every font of a collection) declares.

    Read from the `name` table as fontdb reads them (name ids 1 and 16, every platform);
    a file that cannot be read or parsed declares none."""
    try:
        with path.open("rb") as font:
            return _collection_families(font.read())
    except (OSError, struct.error, UnicodeDecodeError, ValueError):
        return set()


def _collection_families(data: bytes) -> set[str]:
    if data[:4] == b"ttcf":
        (count,) = struct.unpack_from(">I", data, 8)
        offsets = struct.unpack_from(f">{count}I", data, 12)
    else:
        offsets = (0,)
    families: set[str] = set()
    for offset in offsets:
        families |= _font_families(data, offset)
    return families


def _font_families(data: bytes, offset: int) -> set[str]:
    (table_count,) = struct.unpack_from(">H", data, offset + 4)
    for entry in range(table_count):
        entry_at = offset + 12 + 16 * entry
        tag, _checksum, start, _length = struct.unpack_from(">4sIII", data, entry_at)
        if tag == b"name":
            return _name_table_families(data, start)
    return set()


def _name_table_families(data: bytes, start: int) -> set[str]:
    _format, count, strings = struct.unpack_from(">HHH", data, start)
    families: set[str] = set()
    for record in range(count):
        platform, _encoding, _language, name_id, length, at = struct.unpack_from(
            ">6H", data, start + 6 + 12 * record
        )
        if name_id not in _FAMILY_NAME_IDS:
            continue
        raw = data[start + strings + at : start + strings + at + length]
        # Unicode and Windows names are UTF-16; Macintosh ones are Mac Roman.
        families.add(raw.decode("utf-16-be" if platform in (0, 3) else "mac_roman"))
    return families


def link_machine_fonts(folders: list[Path], into: Path) -> int:
    """Links in `into` to every font file under `folders` but those of `OWN_FAMILIES`.

    Returns how many were left out."""
    left_out = linked = 0
    for folder in folders:
        for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
            if path.suffix.lower() not in FONT_SUFFIXES or not path.is_file():
                continue
            if family_names(path) & OWN_FAMILIES:
                left_out += 1
                continue
            # Numbered: two folders may hold files of one name.
            with contextlib.suppress(OSError):
                (into / f"{linked:05d}-{path.name}").symlink_to(path.resolve())
                linked += 1
    return left_out


def fontconfig_file(folder: Path) -> str:
    return (
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
        f"<fontconfig><dir>{escape(str(folder))}</dir></fontconfig>\n"
    )


@contextlib.contextmanager
def _environment(name: str, value: str) -> Iterator[None]:
    before = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if before is None:
            del os.environ[name]
        else:
            os.environ[name] = before


def prepare() -> None:
    """Have vl-convert load its fonts as the module's docstring says, once a process.

    Must run before this process's first drawing: vl-convert loads the fonts once, at
    its first conversion. Nothing else in the process reads the variable meanwhile:
    vl-convert holds the interpreter while it loads them."""
    global _prepared
    if _prepared:
        return
    with _lock:
        if _prepared:
            return
        if sys.platform.startswith("linux"):
            _load_fonts()
        _prepared = True


def _load_fonts() -> None:
    import vl_convert

    with tempfile.TemporaryDirectory(prefix="reportgen-fonts-") as scratch:
        links = Path(scratch, "fonts")
        links.mkdir()
        link_machine_fonts(machine_font_folders(), links)
        config = Path(scratch, "fonts.conf")
        config.write_text(fontconfig_file(links), encoding="utf-8")
        with _environment("FONTCONFIG_FILE", str(config)):
            # Any conversion loads the fonts; fontdb keeps each link's target, so the
            # folder can go once they are loaded.
            vl_convert.svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')
