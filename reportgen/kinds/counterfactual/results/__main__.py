"""`python -m reportgen.kinds.counterfactual.results [--check]`: write or check the schema file.

The file is generated from the results models; run this after changing a field (and bump
SCHEMA). `--check` writes nothing and exits 1 when the committed file is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

from reportgen.kinds.counterfactual.results._schema import SCHEMA_FILE, results_json_schema_text

REGENERATE = "python -m reportgen.kinds.counterfactual.results"


def main(arguments: list[str]) -> int:
    target = Path(__file__).with_name(SCHEMA_FILE)
    expected = results_json_schema_text()
    if arguments == ["--check"]:
        current = target.read_text(encoding="utf-8") if target.is_file() else ""
        if current != expected:
            print(f"{target}: stale; run {REGENERATE}", file=sys.stderr)
            return 1
        return 0
    if arguments:
        print(f"usage: {REGENERATE} [--check]", file=sys.stderr)
        return 2
    target.write_text(expected, encoding="utf-8", newline="\n")
    print(f"wrote {target}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
