"""`python -m reportgen.kinds.schemas [--check] [KIND ...]`: write (or check) the
`results.schema.json` of every kind (or of the kinds named) that declares a results
object (`Stages.results_schema`).

Each file is generated from the kind's results models; run this after changing a field
(and bump the kind's SCHEMA). `--check` writes nothing and exits 1 when a committed file
is stale.
"""

from __future__ import annotations

import sys

from reportgen.kinds import get_kind, kind_names
from reportgen.kinds._stages import load_results_schema

REGENERATE = "python -m reportgen.kinds.schemas"


def main(arguments: list[str]) -> int:
    check = "--check" in arguments
    names = [argument for argument in arguments if argument != "--check"]
    unknown = sorted(set(names) - kind_names())
    if unknown or any(name.startswith("-") for name in names):
        print(f"usage: {REGENERATE} [--check] [KIND ...]", file=sys.stderr)
        return 2
    status = 0
    for name in names or sorted(kind_names()):
        stages = get_kind(name).stages
        schema = None if stages is None else load_results_schema(stages)
        if schema is None:
            continue
        target, expected = schema.path(), schema.text()
        if check:
            current = target.read_text(encoding="utf-8") if target.is_file() else ""
            if current != expected:
                print(f"{target}: stale; run {REGENERATE} {name}", file=sys.stderr)
                status = 1
            continue
        target.write_text(expected, encoding="utf-8", newline="\n")
        print(f"wrote {target}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
