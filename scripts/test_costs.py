"""Merges the CPU seconds recorded by a test run into tests/module_costs.json.

    mkdir /tmp/costs
    REPORTGEN_TEST_COSTS_DIR=/tmp/costs bash scripts/test.sh -p tests.support.module_costs
    python scripts/test_costs.py /tmp/costs

The file orders the modules for the workers (tests/support/module_costs.py); modules that
ran replace their old figures, the others keep theirs, and modules no longer in tests/
are dropped.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COSTS = REPO / "tests" / "module_costs.json"


def merged(folder: Path) -> dict[str, float]:
    """The recorded costs of `folder`, merged with those already in COSTS."""
    costs: dict[str, float] = {}
    if COSTS.is_file():
        costs = json.loads(COSTS.read_text(encoding="utf-8"))["cpu_seconds"]
    measured: dict[str, float] = defaultdict(float)
    for lines in sorted(folder.glob("costs-*.jsonl")):
        for line in lines.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            measured[record["module"]] += record["cpu_s"]
    costs.update(measured)
    return {
        module: round(seconds, 1)
        for module, seconds in sorted(costs.items())
        if (REPO / module).is_file()
    }


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python scripts/test_costs.py FOLDER (the REPORTGEN_TEST_COSTS_DIR of a run)")
        return 2
    document = {
        "about": "CPU seconds of each test module, longest first to the workers "
        "(tests/support/module_costs.py); made by scripts/test_costs.py",
        "measured_on": date.today().isoformat(),
        "cpu_seconds": merged(Path(argv[0])),
    }
    COSTS.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"{COSTS}: {len(document['cpu_seconds'])} modules")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
