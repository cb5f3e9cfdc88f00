"""Fingerprint a built site, or compare a site with a recorded fingerprint.

The fingerprint holds, for each HTML page, the text a reader sees (scripts, styles and
markup removed, whitespace collapsed) and, for each CSV download, the SHA-256 of its
bytes. Used to show that a refactoring leaves the published site unchanged.

    python scripts/site_fingerprint.py record SITE_DIR FINGERPRINT.json
    python scripts/site_fingerprint.py compare SITE_DIR FINGERPRINT.json

`compare` prints every page whose text differs (with the first differing words) and
every CSV whose bytes differ, and exits 1 when anything differs.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import sys
from html.parser import HTMLParser
from pathlib import Path

_SKIPPED = {"script", "style", "noscript", "template"}


class _VisibleText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.words.extend(data.split())


def visible_text(html: str) -> str:
    parser = _VisibleText()
    parser.feed(html)
    parser.close()
    return " ".join(parser.words)


def fingerprint(site: Path) -> dict[str, dict[str, str]]:
    pages = {
        str(p.relative_to(site)): visible_text(p.read_text(encoding="utf-8"))
        for p in sorted(site.rglob("*.html"))
    }
    csvs = {
        str(p.relative_to(site)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(site.rglob("*.csv"))
    }
    return {"pages": pages, "csv": csvs}


def compare(site: Path, recorded_path: Path) -> int:
    recorded = json.loads(recorded_path.read_text(encoding="utf-8"))
    current = fingerprint(site)
    differences = 0
    for section in ("pages", "csv"):
        old, new = recorded[section], current[section]
        for name in sorted(set(old) | set(new)):
            if name not in new:
                print(f"{section}: {name}: missing from the new site")
            elif name not in old:
                print(f"{section}: {name}: new in this site")
            elif old[name] != new[name]:
                print(f"{section}: {name}: differs")
                if section == "pages":
                    diff = difflib.ndiff(old[name].split(), new[name].split())
                    changed = [d for d in diff if d[:1] in "+-"][:20]
                    print("    " + " ".join(changed))
            else:
                continue
            differences += 1
    total = len(current["pages"]) + len(current["csv"])
    print(f"{differences} differences in {total} pages and CSV files")
    return 1 if differences else 0


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[0] not in ("record", "compare"):
        print(__doc__, file=sys.stderr)
        return 2
    site, path = Path(argv[1]), Path(argv[2])
    if argv[0] == "record":
        path.write_text(json.dumps(fingerprint(site), ensure_ascii=False, indent=0), "utf-8")
        return 0
    return compare(site, path)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
