"""The Art. 26 audit walked end to end on the demonstration round (issue 13's "Done when").

The round (examples/multidomain/rounds/reg-2026-1) is copied into the test's folder
without its ledger: the state before its audit. The CLI draws the audit sample; every
audited response but one is scored through the app's own `submit_scores` with the jury's
final score rounded (so that none diverges); the one left is the first of h1's queue, the
sample the reviewer meets on logging in, walked by hand (AppTest or a real browser) with
a score that diverges by more than 1.0. After the invalidation the CLI exports, freezes
the export into the archive and builds the site, which `check_site` reads.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from sqlalchemy import Engine, select
from streamlit.testing.v1 import AppTest

from reportgen.archive import LEDGER_FILE
from reportgen.cli import main
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.review.format import decimal_text
from reportgen.kinds.multidomain.review.round import read_md_round
from reportgen.kinds.multidomain.score import jury_outcomes
from reportgen.kinds.multidomain.terms import active_items
from review_app.core.auth import add_account, login
from review_app.core.db import accounts, assignments, samples
from review_app.core.unblinding import sample_keys
from review_app.tasks.rubric import submit_scores
from tests.review.databases import unsynced_engine
from tests.review.helpers import PASSWORD

REPO = Path(__file__).resolve().parents[2]
DEMO_ROUND = REPO / "examples" / "multidomain" / "rounds" / "reg-2026-1"
SITE_CONFIG = REPO / "examples" / "multidomain" / "site.yml"
ROUND_ID = "reg-2026-1"
AFTER_EMBARGO = "2027-03-20"  # the items' page is published (embargo ends 2027-02-18)
REVIEWERS = ("h1", "h2")  # the round's human reviewers (judges.csv): accounts of that name
SOURCE_LABEL = {"pt-BR": "auditoria", "en": "audit"}
ANNULLED_LABEL = {"pt-BR": "anulado", "en": "voided"}
SITE_PREFIX = {"pt-BR": "", "en": "en/"}
# The jury's labels of participants ("SISTEMA-07", "sistema_7"): never on a reviewer's page.
# A sample code is "SISTEMA-" and six letters or digits, so it does not match.
JURY_LABEL = re.compile(r"(?<![^\W_])sistema[\-_.:#](?:\d{1,3}|[a-z])(?![^\W_])", re.IGNORECASE)


@dataclass(frozen=True)
class Walked:
    """The audited response scored by hand: what the admin later sees (unblinded)."""

    code: str
    reviewer: str
    item_id: str
    model_id: str
    run: int
    criteria: tuple[str, ...]  # criterion ids, in the page's order
    score: int  # given to every criterion: h − F is more than 1.0 away
    final: Fraction
    forbidden: tuple[str, ...]  # what its reviewer must never meet (`identities`)
    weights: Mapping[str, int]  # every active item's weight (the site's `possible`)


def demo_round_before_audit(folder: Path) -> Path:
    """A copy of the demonstration round under `folder`, without its ledger."""
    round_dir = folder / ROUND_ID
    shutil.copytree(DEMO_ROUND, round_dir)
    (round_dir / LEDGER_FILE).unlink()
    return round_dir


def cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def prepare_audit(
    engine: Engine, url: str, round_dir: Path, languages: Mapping[str, str] | None = None
) -> Walked:
    """Accounts (admin and the round's human reviewers, each in its `languages` entry,
    else pt-BR), the audit sample drawn by the CLI and every response but one scored;
    the response left."""
    chosen = languages or {}
    tokens = {
        name: _account(engine, name, role, chosen.get(name, "pt-BR"))
        for name, role in (("admin", "admin"), *((name, "reviewer") for name in REVIEWERS))
    }
    cli("review", "sample", str(round_dir), "--task", "audit", "--seed", "5", "--db", url)
    cli("review", "release-batch", "1", "--yes", "--db", url)  # after its leak report
    round_ = read_md_round(round_dir, with_text=False)
    finals = {key: outcome.final for key, outcome in jury_outcomes(round_).items()}
    with engine.connect() as connection:
        rows = connection.execute(
            select(
                samples.c.code,
                samples.c.criteria,
                sample_keys.c.item_id,
                sample_keys.c.model_id,
                sample_keys.c.run,
                accounts.c.name,
                assignments.c.position,
            )
            .join(sample_keys, sample_keys.c.sample_id == samples.c.sample_id)
            .join(assignments, assignments.c.sample_id == samples.c.sample_id)
            .join(accounts, accounts.c.account_id == assignments.c.reviewer_id)
            .order_by(accounts.c.name, assignments.c.position)
        ).all()
    first = rows[0]  # h1's first sample: the page opens on it
    final = finals[(first.item_id, first.model_id, first.run)]
    walked = Walked(
        code=first.code,
        reviewer=first.name,
        item_id=first.item_id,
        model_id=first.model_id,
        run=first.run,
        criteria=tuple(c["criterion_id"] for c in first.criteria),
        score=0 if final >= Fraction(5, 2) else 5,
        final=final,
        forbidden=identities(round_, final),
        weights={item.item_id: item.weight for item in active_items(round_.items)},
    )
    unsynced = unsynced_engine(url)
    try:
        for row in rows[1:]:
            rounded = int(finals[(row.item_id, row.model_id, row.run)] + Fraction(1, 2))
            scores = {c["criterion_id"]: rounded for c in row.criteria}
            submit_scores(unsynced, tokens[row.name], row.code, scores)
    finally:
        unsynced.dispose()
    return walked


def identities(round_: Round, final: Fraction) -> tuple[str, ...]:
    """What a reviewer must never meet: the cast's ids, names, providers, API identifiers,
    snapshots and organisations, the judges' names, and the walked response's final score
    (as a fraction and with two decimals in either language)."""
    names = {
        value
        for model in round_.models
        for value in (
            model.model_id,
            model.display_name,
            model.provider,
            model.api_identifier,
            model.snapshot,
            model.organization,
        )
    }
    names |= {
        value
        for judge in round_.judges
        for value in (judge.display_name, judge.provider, judge.api_identifier)
    }
    if final.denominator > 1:
        names |= {str(final), *(decimal_text(final, 2, lang) for lang in ("pt-BR", "en"))}
    return tuple(sorted(name for name in names if name))


def app_text(at: AppTest) -> str:
    """All that AppTest sees of a page: its elements' protos and the session state."""
    parts: list[str] = []

    def walk(node: Any) -> None:
        parts.append(str(getattr(node, "proto", "")))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    parts.append(repr(at.session_state.to_dict()))
    return "\n".join(parts)


def leaks(text: str, forbidden: tuple[str, ...], code: str = "") -> list[str]:
    """The identities (and jury labels) found in `text`, case-insensitively; `code`: the
    sample on screen."""
    folded = text.casefold()
    found = [name for name in forbidden if name.casefold() in folded]
    # The sample's own code is no jury label, nor is the heading's anchor made of it
    # ("SISTEMA-6AH2YB" gives "sistema-6-ah-2-yb"): compared without hyphens.
    own = code.replace("-", "").casefold()
    labels = [
        text[max(0, m.start() - 40) : m.end() + 40]  # where it was, for the failure
        for m in JURY_LABEL.finditer(text)
        if not own
        or not text[m.start() : m.start() + 40].replace("-", "").casefold().startswith(own)
    ]
    return found + labels


def _account(engine: Engine, name: str, role: str, language: str) -> str:
    add_account(engine, name, role, PASSWORD, language=language)
    return login(engine, name, PASSWORD)


def freeze_export(round_dir: Path, url: str, folder: Path) -> None:
    """`review export` and `review freeze-export` (which verifies the archive)."""
    export = folder / "export"
    cli("review", "export", str(round_dir), "--output", str(export), "--db", url)
    cli("review", "freeze-export", str(export), str(round_dir), "--db", url)


def freeze_and_build(round_dir: Path, url: str, folder: Path) -> Path:
    """`freeze_export`, then `build --as-of` after the embargo; the site's folder."""
    site = folder / "site"
    freeze_export(round_dir, url, folder)
    # The audit's ledger line is dated today: a build speaking for an earlier date would
    # neither list nor apply it (docs/multidomain.md), so the later of the two dates.
    as_of = max(AFTER_EMBARGO, datetime.now(UTC).date().isoformat())
    cli(
        "build", str(round_dir), "--config", str(SITE_CONFIG), "--out", str(site),
        "--cache-dir", str(folder / "cache"), "--as-of", as_of,
    )  # fmt: skip
    return site


def _page(site: Path, language: str, stem: str) -> str:
    path = site / f"{SITE_PREFIX[language]}{ROUND_ID}" / f"{stem}.html"
    return html.unescape(path.read_text(encoding="utf-8"))


def _rows(page: str, table_id: str) -> list[list[str]]:
    """The body rows of the table `table_id`, as cell texts."""
    table = page.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody", 1)[1]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.DOTALL)
    ]


def check_site(site: Path, walked: Walked, audit_id: str) -> None:
    """The ledger table names the item (source audit, citing `audit_id` and the
    divergence in the page's decimals) in both languages, the items' page marks it
    annulled, and no score counts it."""
    item_id = walked.item_id
    for language in ("pt-BR", "en"):
        ledger = _rows(_page(site, language, "discarded"), f"md-{ROUND_ID}-ledger")
        assert [row[:2] for row in ledger] == [[item_id, SOURCE_LABEL[language]]], ledger
        assert audit_id in ledger[0][3]
        assert decimal_text(abs(walked.score - walked.final), 2, language) in ledger[0][3]
        # The items are listed one page per domain (items-<domain>.html).
        folder = site / f"{SITE_PREFIX[language]}{ROUND_ID}"
        (items,) = [
            page
            for page in (_page(site, language, p.stem) for p in folder.glob("items-*.html"))
            if f'id="{item_id}"' in page
        ]
        heading = items.split(f'id="{item_id}"', 1)[1][:2000]
        assert ANNULLED_LABEL[language] in heading
    results = json.loads((site / "data" / ROUND_ID / "results.json").read_text(encoding="utf-8"))
    check_counts(results, walked)


def check_results(round_dir: Path, walked: Walked, folder: Path) -> None:
    """What `check_site` reads of the results, from `reportgen stats` on the frozen round
    without building the site (the site's pages of an annulment are walked once, on
    SQLite: a build reads the frozen archive, not the database it came from)."""
    out = folder / "results.json"
    cli("stats", str(round_dir), "--out", str(out), "--cache-dir", str(folder / "cache"))
    check_counts(json.loads(out.read_text(encoding="utf-8")), walked)


def check_counts(results: Mapping[str, Any], walked: Walked) -> None:
    """The audited item annulled, and no score counting it."""
    item_id = walked.item_id
    counts = results["counts"]
    assert counts["annulled_by_source"] == {"audit": 1}
    assert counts["scored_items"] == len(walked.weights) - 1
    assert counts["possible"] == sum(walked.weights.values()) - walked.weights[item_id]
