"""The navigation: which pages each role's accounts see, in order.

The app's own pages come first, then each kind's: what its review part declares
(`KindReview.pages`, found through the registry of review parts: the built-in kinds in
their order, then any registered one), so that the app names no kind; the accounts page
comes last.
"""

from __future__ import annotations

from collections.abc import Callable

from reportgen.kinds import review_kind_names, review_part
from review_app.pages.accounts import accounts_page
from review_app.pages.admin import batches_page, calibration_page, disagreements_page
from review_app.pages.contest import contest_page, decide_page
from review_app.pages.reviewer import guidelines_page, review_page

Pages = dict[str, dict[str, Callable[[], None]]]
# The app's own pages per role; each kind's (its review part's `pages`) come after them,
# the accounts page last.
APP_PAGES: Pages = {
    "reviewer": {
        "page_review": review_page,
        "page_contest": contest_page,
        "page_guidelines": guidelines_page,
    },
    "admin": {
        "page_calibration": calibration_page,
        "page_disagreements": disagreements_page,
        "page_contestations": decide_page,
        "page_batches": batches_page,
    },
    "participant": {"page_contest": contest_page, "page_guidelines": guidelines_page},
}
LAST_PAGES: Pages = {"admin": {"page_accounts": accounts_page}}


def pages_of(role: str) -> dict[str, Callable[[], None]]:
    """The pages the role's accounts see, in the navigation's order: the app's, then
    each kind's (through the registry of review parts, built-in kinds first)."""
    pages = dict(APP_PAGES.get(role, {}))
    for kind in review_kind_names():
        pages.update({page.key: page.show for page in review_part(kind).pages if page.role == role})
    pages.update(LAST_PAGES.get(role, {}))
    return pages
