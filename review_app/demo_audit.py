"""The demonstration's human audit: a blind audit of the Estigmas demonstration round made
through the review app by generated reviewers, not people (issue 21, point 11).

`python -m review_app.demo_audit` writes `audits/estigmas-2026-06.json`, the file the
repository's site shows on its human-audit page. It runs the app's own code from end to
end on a throwaway review database: the accounts (`revisora-demo-1` … `-3` and
`admin-demo`), the blind stratified draw of `reportgen review sample` (`create_batch`),
the administrator's release after the leak report, each reviewer's queue and judgments
through the reviewer's functions (`my_queue`, `load_sample`, `submit_judgment`: they see
only the anonymised texts), the administrator's adjudication of split samples, the
closing of the batch and the export of `reportgen review export` (`audit_results`), marked
`demonstration: true` so that the pages say whose judgments these are.

Each simulated reviewer reads an answer as the parser's vocabulary reads it (Portuguese,
else English; an answer that holds no decision is "unclassifiable") and, with a fixed
probability drawn from its own seeded generator, answers otherwise: that is where the
reviewers split and where the administrator decides. Judgments are dated on fixed review
days and the export on a fixed moment, so that the file comes out the same, byte for byte,
on every run (tests/test_demo_audit.py).
"""

from __future__ import annotations

import hashlib
import secrets
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Final

import click
import numpy as np
from sqlalchemy import Engine, select, update

from reportgen.audit_export import AuditExport
from reportgen.errors import OutputExistsError, ReportgenError
from reportgen.kinds.estigmas.parse import parse_output
from reportgen.kinds.rounds import read_round
from review_app.core.auth import add_account, login
from review_app.core.db import accounts, assignments, judgments, samples
from review_app.core.storage import open_database
from review_app.rounds import admin
from review_app.rounds.batch_release import release_batch
from review_app.rounds.export import audit_results, write_export
from review_app.rounds.sampling import create_batch
from review_app.tasks import reviewing

ROUND_DIR: Final = Path("rounds/estigmas-2026-06")
OUTPUT: Final = Path("audits/estigmas-2026-06.json")
# Generated names, so that nobody takes them for people.
REVIEWERS: Final = ("revisora-demo-1", "revisora-demo-2", "revisora-demo-3")
ADMIN: Final = "admin-demo"
# The draw: what `reportgen review sample --fraction 0.002 --min-per-stratum 1
# --overlap 2 --seed 20260629` draws (one output or more of each model × style × language).
FRACTION: Final = 0.002
MIN_PER_STRATUM: Final = 1
OVERLAP: Final = 2
SAMPLE_SEED: Final = 20260629
# Each simulated reviewer answers otherwise than its reading of the text this often.
DEPARTURE: Final = 0.08
JUDGMENT_SEED: Final = 20260630
AMBIGUOUS: Final = 10  # of 256: texts whose decision readers find ambiguous (about 4%)
ADJUDICATIONS: Final = 3  # split samples the administrator decides (the first ones)
REVIEW_DAYS: Final = (date(2026, 6, 29), date(2026, 6, 30), date(2026, 7, 1))
GENERATED_AT: Final = datetime(2026, 7, 2, 12, 0, tzinfo=UTC)
UNCLASSIFIABLE_NOTE: Final = "demonstração: a resposta não traz decisão legível"
ADJUDICATION_NOTE: Final = "demonstração: decidido pela leitura do texto"


@dataclass(frozen=True)
class _Judged:
    reviewer: str
    code: str
    position: int  # in the reviewer's queue, from 0
    queue_length: int


def reading(output_text: str) -> str:
    """The choice a reader of `output_text` makes: the parser's decision in Portuguese,
    else in English; "unclassifiable" when the text holds neither. A few texts (fixed by
    their SHA-256) read as ambiguous: a decision the parser found is read as "can't tell",
    so that people and parser do not agree perfectly."""
    label = parse_output(output_text, "pt-BR")
    if label == "inconclusive":
        label = parse_output(output_text, "en")
    if label in ("yes", "no") and hashlib.sha256(output_text.encode()).digest()[0] < AMBIGUOUS:
        return "cant_tell"
    return "unclassifiable" if label == "inconclusive" else str(label)


def _departure(choice: str, rng: np.random.Generator) -> str:
    """Another decision than `choice` (in the comparison space: yes, no, can't tell)."""
    own = "cant_tell" if choice in ("refusal", "unclassifiable") else choice
    others = [c for c in ("yes", "no", "cant_tell") if c != own]
    return others[int(rng.integers(len(others)))]


def _sessions(engine: Engine) -> dict[str, str]:
    """Create the demonstration accounts and log each in; name -> session token. The
    passwords are generated for this run and forgotten with its database."""
    tokens = {}
    for name, role in [*((r, "reviewer") for r in REVIEWERS), (ADMIN, "admin")]:
        password = secrets.token_urlsafe(24)
        add_account(engine, name, role, password)
        tokens[name] = login(engine, name, password)
    return tokens


def _judge(engine: Engine, tokens: dict[str, str]) -> list[_Judged]:
    """Each reviewer works through its queue, blind, in the order the app shows it."""
    done: list[_Judged] = []
    for number, name in enumerate(REVIEWERS):
        rng = np.random.default_rng((JUDGMENT_SEED, number))
        queue = reviewing.my_queue(engine, tokens[name])
        for position, entry in enumerate(queue):
            sample = reviewing.load_sample(engine, tokens[name], entry.code)
            choice = reading(sample.output_text)
            if rng.random() < DEPARTURE:
                choice = _departure(choice, rng)
            note = UNCLASSIFIABLE_NOTE if choice == "unclassifiable" else None
            reviewing.submit_judgment(
                engine, tokens[name], entry.code, choice, note, seen=sample.version
            )
            done.append(_Judged(name, entry.code, position, len(queue)))
    return done


def _date_judgments(engine: Engine, done: Sequence[_Judged]) -> None:
    """Date each judgment on its review day (a reviewer's queue spread over the days,
    a minute apart), in place of the moment this run recorded it."""
    with engine.begin() as connection:
        for judged in done:
            share = judged.position * len(REVIEW_DAYS) // judged.queue_length
            day = REVIEW_DAYS[share]
            moment = datetime.combine(day, time(9, 0), UTC) + timedelta(minutes=judged.position)
            assignment = (
                select(assignments.c.assignment_id)
                .join(samples, samples.c.sample_id == assignments.c.sample_id)
                .join(accounts, accounts.c.account_id == assignments.c.reviewer_id)
                .where(samples.c.code == judged.code, accounts.c.name == judged.reviewer)
                .scalar_subquery()
            )
            connection.execute(
                update(judgments)
                .where(judgments.c.assignment_id == assignment)
                .values(submitted_at=moment)
            )


def _adjudicate(engine: Engine, token: str) -> int:
    """The administrator decides the first split samples by reading them; returns how many."""
    split = [s for s in admin.disagreement_queue(engine, token) if s.disagreement == "reviewers"]
    chosen = sorted(split, key=lambda s: s.sample_id)[:ADJUDICATIONS]
    for sample in chosen:
        admin.adjudicate(
            engine, token, sample.sample_id, reading(sample.output_text), ADJUDICATION_NOTE
        )
    return len(chosen)


def run_demo_audit(round_dir: Path, engine: Engine) -> AuditExport:
    """The whole audit on `engine` (a new, empty review database); returns its export."""
    round_ = read_round(round_dir, with_text=True)
    tokens = _sessions(engine)
    batch_id = create_batch(
        engine,
        round_,
        fraction=FRACTION,
        min_per_stratum=MIN_PER_STRATUM,
        overlap=OVERLAP,
        seed=SAMPLE_SEED,
        reviewers=list(REVIEWERS),
    )
    release_batch(engine, tokens[ADMIN], batch_id)
    _date_judgments(engine, _judge(engine, tokens))
    _adjudicate(engine, tokens[ADMIN])
    admin.close_batch(engine, tokens[ADMIN], batch_id)
    return audit_results(engine, round_.round_id, now=GENERATED_AT, demonstration=True)


def write_demo_audit(round_dir: Path, output: Path, *, force: bool = False) -> AuditExport:
    """Run the audit on a throwaway SQLite database and write its export to `output`
    (an existing file is refused before any work unless `force`)."""
    if output.exists() and not force:
        raise OutputExistsError(f"{output}: already exists (use --force to replace it)")
    with tempfile.TemporaryDirectory(prefix="demo-audit-") as folder:
        engine = open_database(f"sqlite:///{Path(folder) / 'review.db'}", create=True)
        try:
            results = run_demo_audit(round_dir, engine)
        finally:
            engine.dispose()
    write_export(results, output, force=force)
    return results


@click.command()
@click.option("--round-dir", type=click.Path(path_type=Path), default=ROUND_DIR, show_default=True)
@click.option("--output", type=click.Path(path_type=Path), default=OUTPUT, show_default=True)
@click.option("--force", is_flag=True, help="Replace an existing export.")
def main(round_dir: Path, output: Path, force: bool) -> None:
    """Write the demonstration's human-audit export, judged by generated reviewers."""
    try:
        results = write_demo_audit(round_dir, output, force=force)
    except ReportgenError as error:  # one line, exit 1, nothing written
        raise click.ClickException(str(error)) from None
    click.echo(
        f"Demonstration audit of round {results.round_id} written to {output}: "
        f"{results.samples_judged} samples, {results.judgments} judgments, "
        f"{results.adjudicated} adjudicated."
    )


if __name__ == "__main__":
    main()
