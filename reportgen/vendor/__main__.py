"""Regenerate the vendored Vega bundle: `python -m reportgen.vendor`."""

from __future__ import annotations

from pathlib import Path

from reportgen.vendor import BUNDLE_NAME, _generate

if __name__ == "__main__":
    target = Path(__file__).with_name(BUNDLE_NAME)
    target.write_text(_generate(), encoding="utf-8")
    print(f"wrote {target}")
