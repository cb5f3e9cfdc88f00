"""axe-core (vendored in tests/vendor, never fetched) as the browser tests run it: on the whole
document, every rule that can report a serious or critical violation, each violation as
"rule (impact): targets".

A violation's impact is its rule's: axe sets the impact of every check of a rule that has
one to the rule's own (test_browser_axe.py checks it on this version). A rule of a lesser
impact can never report a blocking violation, so it is not run: the same verdict, without
the minor and moderate rules' work (`region` and `hidden-content` walk every element).
A rule without an impact of its own is run.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

VENDOR = Path(__file__).resolve().parents[1] / "vendor"
AXE = VENDOR / "axe.min.js"
BLOCKING = ("serious", "critical")

_RUN_AXE = """async ({blocking, every}) => {
  const lesser = every ? [] : axe._audit.rules.filter(
    rule => rule.impact && !blocking.includes(rule.impact));
  const rules = Object.fromEntries(lesser.map(rule => [rule.id, {enabled: false}]));
  const results = await axe.run(document, {resultTypes: ['violations'], rules});
  return results.violations.map(v =>
    `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`);
}"""
_BLOCKING = re.compile(rf"\S+ \(({'|'.join(BLOCKING)})\)")


def violations(page: Any, *, every_rule: bool = False) -> list[str]:
    """axe's violations on `page` as "rule (impact): targets": of the rules that can find a
    serious or critical one, or of every rule axe runs by default (`every_rule`)."""
    page.add_script_tag(path=str(AXE))
    found: list[str] = page.evaluate(_RUN_AXE, {"blocking": list(BLOCKING), "every": every_rule})
    return found


def blocking(page: Any) -> list[str]:
    """axe's serious and critical violations on `page`."""
    return [v for v in violations(page) if _BLOCKING.match(v)]


def rule_impacts(page: Any) -> dict[str, str | None]:
    """Each rule of the axe loaded on `page` and its impact (None where it has none)."""
    impacts: dict[str, str | None] = page.evaluate(
        "Object.fromEntries(axe._audit.rules.map(rule => [rule.id, rule.impact || null]))"
    )
    return impacts
