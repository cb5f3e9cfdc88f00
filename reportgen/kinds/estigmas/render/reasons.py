"""Why a statistic is not computable, in the page's language.

The statistics layer states its reasons in English (they are stored with the results and
read in the downloads); a page says them in its own language. A reason this module does
not know is shown as given.
"""

from __future__ import annotations

import re

from reportgen.i18n import Translator

# (pattern of the statistics layer's reason, catalogue key); named groups are the key's
# parameters (counts go through the locale formatter).
_REASONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"no biased responses in the table"), "stats.reason.no_biased"),
    (re.compile(r"every response in the table is biased"), "stats.reason.all_biased"),
    (re.compile(r"needs at least two groups, found (?P<found>\d+)"), "stats.reason.few_groups"),
    (re.compile(r"needs at least 3 models, found (?P<found>\d+)"), "stats.reason.few_models"),
    (re.compile(r"no scored items in: (?P<groups>.+)"), "stats.reason.no_items_in"),
)


def reason_text(reason: str | None, tr: Translator) -> str:
    """The page's words for a reason of the statistics layer ("" when there is none)."""
    if not reason:
        return ""
    for pattern, key in _REASONS:
        if match := pattern.fullmatch(reason):
            params = {
                name: tr.integer(int(value)) if value.isdigit() else value
                for name, value in match.groupdict().items()
            }
            return tr(key, **params)
    return reason
