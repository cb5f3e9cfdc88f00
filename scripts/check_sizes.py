"""House rule on size: no module over 400 lines, no function over 60 lines without a
one-line reason beside it (a comment on the `def` line, or a `# long: ...` comment on
the line above it). Prints every offender and exits 1 when there is one.

    python scripts/check_sizes.py [PACKAGE_DIR ...]   (default: reportgen review_app)
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
REASON = "# long:"


def _has_reason(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
    above = lines[first - 2] if first >= 2 else ""
    return "#" in lines[node.lineno - 1] or above.strip().startswith(REASON)


def offenders(paths: list[Path]) -> list[str]:
    found: list[str] = []
    for path in sorted(p for root in paths for p in root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        if len(lines) > MAX_MODULE_LINES:
            found.append(f"{path}: {len(lines)} lines (at most {MAX_MODULE_LINES})")
        for node in ast.walk(ast.parse(text, filename=str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES and not _has_reason(lines, node):
                    found.append(
                        f"{path}:{node.lineno}: function {node.name} has {length} lines "
                        f"(at most {MAX_FUNCTION_LINES} without a '{REASON}' reason)"
                    )
    return found


def main(argv: list[str]) -> int:
    roots = [Path(a) for a in argv] or [Path("reportgen"), Path("review_app")]
    found = offenders(roots)
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
