"""The series across multidomain rounds (issue 21, point 7; Art. 2(d), 11, 17), computed
over two small rounds in memory: the hand-written round of tests/support/multidomain_site.py
and a second one with a known change of its bank. Also the optional bank keys of
round.json (read, written, refused) and a build of one round (no history page)."""

from __future__ import annotations

import html
import json
import re
from dataclasses import replace
from datetime import date
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import main
from reportgen.kinds.multidomain.archive_bank import check_revisions
from reportgen.kinds.multidomain.model import BankRevision, Round
from reportgen.kinds.multidomain.render.context import RoundContext
from reportgen.kinds.multidomain.render.sections_series import series_nav, series_pages
from reportgen.kinds.multidomain.render.series import series
from reportgen.kinds.multidomain.render.site_pages import MultidomainSite
from reportgen.kinds.multidomain.render.text import Text
from reportgen.kinds.multidomain.render.writer import WRITER
from reportgen.kinds.multidomain.results import Results
from reportgen.kinds.multidomain.write import write_round
from tests.support.multidomain_site import tiny_results, tiny_round

AFTER = date(2027, 3, 25)  # after the embargo of both rounds
DURING = date(2027, 1, 10)  # the first round's embargo still on: i3 (flagged) is hidden


def _hashed(round_: Round) -> Round:
    """The support round gives every item one hash; here each item has its own."""
    items = tuple(
        replace(i, content_sha256=f"{i.item_id:0>8}".ljust(64, "0")) for i in round_.items
    )
    return replace(round_, items=items)


def _rounds() -> tuple[Round, Round]:
    first = _hashed(tiny_round())
    by_id = {item.item_id: item for item in first.items}
    # Bank "2": a is revised as a-r1 (declared), f is removed, i3 is removed, g is added.
    revised = replace(by_id["a"], item_id="a-r1", content_sha256="a1" * 32, canary="C-a-r1")
    added = replace(by_id["f"], item_id="g", content_sha256="b2" * 32, canary="C-g")
    kept = [i for i in first.items if i.item_id not in ("a", "f", "i3")]
    manifest = replace(
        first.manifest,
        round_id="tiny-2026-12",
        collected_on=date(2026, 12, 3),
        ended_on=date(2026, 12, 10),
        previous_round=first.round_id,
        bank_version="2",
        bank_revisions=(BankRevision("a-r1", "a"),),
    )
    return first, replace(first, manifest=manifest, items=(revised, *kept, added))


def _second_results(results: Results) -> Results:
    """The same participants, the first two swapped in rank."""
    first, second, *rest = results.participants
    swapped = (second.model_copy(update={"rank": 1}), first.model_copy(update={"rank": 2}))
    return results.model_copy(update={"participants": (*swapped, *rest)})


def _contexts(as_of: date) -> tuple[RoundContext, RoundContext]:
    first, second = _rounds()
    results = tiny_results()
    return (
        RoundContext(second, _second_results(results), as_of),  # given out of order
        RoundContext(first, results, as_of),
    )


def test_register_lists_exactly_the_changed_items() -> None:
    found = series(_contexts(AFTER))
    assert [c.round_id for c in found.contexts] == ["md-tiny", "tiny-2026-12"]
    assert [(v.number, v.version, v.round_ids) for v in found.versions] == [
        (1, None, ("md-tiny",)),
        (2, "2", ("tiny-2026-12",)),
    ]
    (step,) = found.steps
    assert [(r.old_id, r.new_id) for r in step.revised] == [("a", "a-r1")]
    assert step.revised[0].new_sha256 == "a1" * 32
    assert step.added == (("g", "b2" * 32),)
    assert [item_id for item_id, _ in step.removed] == ["f", "i3"]
    assert step.kept == 1  # i7


def test_scores_and_ranks_per_round_are_each_rounds_own() -> None:
    contexts = _contexts(AFTER)
    found = series(contexts)
    by_round = {c.round_id: c.results for c in contexts}
    for participant in found.participants:
        for context, standing in zip(found.contexts, participant.standings, strict=True):
            assert standing is not None
            own = next(
                p
                for p in by_round[context.round_id].participants
                if p.model_id == participant.model_id
            )
            assert (standing.rank, standing.primary, standing.global_score) == (
                own.rank,
                own.primary,
                own.global_score,
            )
    p3 = next(p for p in found.participants if p.model_id == "p3")
    assert [s.rank for s in p3.standings if s] == [1, 2]
    assert all(s is not None and s.change == Fraction(0) for s in p3.standings[1:])


def test_embargoed_ids_are_counted_not_named() -> None:
    found = series(_contexts(DURING))
    assert not found.shows_id("i3")
    assert found.shows_id("f")
    for language, hidden in (("en", "1 more item(s) of this list"), ("pt-BR", "Mais 1 item(ns)")):
        pages = dict(series_pages(found, Text(language)))
        markdown = html.unescape(WRITER.render(pages["series/bank-versions.md"]))
        assert not re.search(r"(?<![\w-])i3(?![\w-])", markdown)
        assert hidden in markdown
        assert "0000000f".ljust(64, "0") in markdown  # f is named, with its hash
    after = WRITER.render(
        dict(series_pages(series(_contexts(AFTER)), Text("en")))["series/bank-versions.md"]
    )
    assert re.search(r"(?<![\w-])i3(?![\w-])", after)


def test_one_round_has_no_series() -> None:
    first, _ = _rounds()
    site = MultidomainSite((RoundContext(first, tiny_results(), AFTER),))
    assert site.series is None
    assert not any(entry.startswith("series/") for entry in site.nav)
    first, _ = _rounds()
    # The second round: the first again under another id (every page needs its tables).
    manifest = replace(first.manifest, round_id="md-tiny-2", collected_on=date(2026, 12, 3))
    again = replace(first, manifest=manifest)
    two = MultidomainSite(
        (RoundContext(first, tiny_results(), AFTER), RoundContext(again, tiny_results(), AFTER))
    )
    assert two.series is not None
    assert set(series_nav(two.series)) <= set(two.nav)


def test_bank_keys_are_written_read_and_checked(tmp_path: Path) -> None:
    from reportgen.demo.multidomain.tiny import tiny_round as real_tiny

    round_ = real_tiny(tmp_path / "x")
    assert round_.manifest.bank_version is None
    assert check_revisions(round_) == []
    test_item = next(i for i in round_.items if not i.calibration)
    bad = replace(
        round_,
        manifest=replace(
            round_.manifest,
            bank_version="1.1",
            bank_revisions=(BankRevision("nope", test_item.item_id),),
        ),
    )
    problems = check_revisions(bad)
    assert [where for where, _ in problems] == [
        "multidomain.bank_revisions[0].item_id",
        "multidomain.bank_revisions[0].revises",
    ]
    target = tmp_path / round_.round_id
    good = replace(round_, manifest=replace(round_.manifest, bank_version="1.1"))
    write_round(good, target)
    block = json.loads((target / "round.json").read_text(encoding="utf-8"))["multidomain"]
    assert block["bank_version"] == "1.1"
    assert "bank_revisions" not in block
    result = CliRunner().invoke(main, ["verify", str(target)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"bank_version": ""}, "multidomain.bank_version"),
        ({"bank_revisions": [{"item_id": "a"}]}, "multidomain.bank_revisions[0]"),
        ({"bank_revisions": [{"item_id": "a", "revises": "a"}]}, "cannot revise itself"),
    ],
)
def test_bad_bank_keys_are_refused(tmp_path: Path, value: dict[str, object], message: str) -> None:
    from reportgen.demo.multidomain.tiny import write_tiny_round

    target = write_tiny_round(tmp_path)
    data = json.loads((target / "round.json").read_text(encoding="utf-8"))
    data["multidomain"].update(value)
    (target / "round.json").write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(target)])
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_bank_keys_across_rounds() -> None:
    from reportgen.kinds.multidomain.archive_across import check_across

    first, second = _rounds()
    assert [p.where for p in check_across([first, second])] == []
    same_name = replace(first, manifest=replace(first.manifest, bank_version="2"))
    problems = check_across([same_name, second])
    assert [(p.file, p.where) for p in problems] == [
        ("tiny-2026-12/round.json", "multidomain.bank_version")
    ]
    unknown = (BankRevision("a-r1", "zz"),)
    elsewhere = replace(second, manifest=replace(second.manifest, bank_revisions=unknown))
    (problem,) = check_across([first, elsewhere])
    assert problem.where == "multidomain.bank_revisions[0].revises"
    assert "no earlier round" in problem.message


def test_the_guard_looks_for_embargoed_ids_in_the_series_folder(tmp_path: Path) -> None:
    from reportgen.guard import GuardMaterial, LeakError, check_site

    def material(folders: tuple[str, ...]) -> GuardMaterial:
        return GuardMaterial(
            round_id="r1",
            secret_texts=(),
            public_texts=(),
            canaries=(),
            names=(),
            embargoed_ids=("i-secret-1",),
            embargo_ends=date(2027, 1, 1),
            id_folders=folders,
        )

    page = tmp_path / "en" / "series" / "bank-versions.html"
    page.parent.mkdir(parents=True)
    page.write_text("<td>i-secret-1</td>", encoding="utf-8")
    check_site(tmp_path, [material(())], as_of=date(2026, 12, 1))  # not looked for there
    with pytest.raises(LeakError, match="i-secret-1"):
        check_site(tmp_path, [material(("series",))], as_of=date(2026, 12, 1))
    check_site(tmp_path, [material(("series",))], as_of=date(2027, 1, 1))  # embargo over


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_sources_of_two_rounds_have_the_history_one_round_none(
    tmp_path: Path, language: str
) -> None:
    first, _ = _rounds()
    # The second round: the first again under another id (every page needs its tables).
    manifest = replace(first.manifest, round_id="md-tiny-2", collected_on=date(2026, 12, 3))
    again = replace(first, manifest=manifest)
    two = MultidomainSite(
        (RoundContext(first, tiny_results(), AFTER), RoundContext(again, tiny_results(), AFTER))
    )
    written = {
        p.relative_to(tmp_path / "two").as_posix()
        for p in two.write_sources(tmp_path / "two", language)
    }
    assert {"series/index.md", "series/bank-versions.md", "series/p1.md"} <= written
    first_page = (tmp_path / "two" / "md-tiny" / "index.md").read_text(encoding="utf-8")
    assert "(../series/index.md)" in first_page
    home = (tmp_path / "two" / "index.md").read_text(encoding="utf-8")
    assert "(series/index.md)" in home
    one = MultidomainSite((RoundContext(first, tiny_results(), AFTER),))
    written = {
        p.relative_to(tmp_path / "one").as_posix()
        for p in one.write_sources(tmp_path / "one", language)
    }
    assert not any(path.startswith("series/") for path in written)
    assert "series" not in (tmp_path / "one" / "md-tiny" / "index.md").read_text(encoding="utf-8")
    assert "series/index.md" not in (tmp_path / "one" / "index.md").read_text(encoding="utf-8")
