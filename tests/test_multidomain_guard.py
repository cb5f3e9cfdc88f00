"""The leak guard's kind-supplied parts (tokeniser, folding, embargo, never-shown strings,
scoped ids), as the multidomain kind uses them."""

from __future__ import annotations

import unicodedata
from datetime import date
from pathlib import Path

import pytest

from reportgen.guard import GuardMaterial, LeakError, check_site, runs
from reportgen.kinds.multidomain.terms import normalise, tokens

ZH_PROMPT = "请根据中国人民银行的规定说明商业银行在跨境支付中应当履行的反洗钱义务与报告程序"
PT_PROMPT = "Explique quais obrigações de prevenção à lavagem de dinheiro cabem ao banco neste caso"
CANARY = "MDCANARY-7f3a-i3-41c9"
EMBARGO_END = date(2027, 2, 28)


def fullwidth(text: str) -> str:
    """ASCII letters and digits in their fullwidth forms (NFKC maps them back)."""
    return "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalnum() else c for c in text)


def material(**extra: object) -> GuardMaterial:
    fields: dict[str, object] = {
        "round_id": "md-tiny",
        "secret_texts": (
            ("response i3/p2/1", "uma resposta bruta que nunca aparece no site publicado"),
        ),
        "public_texts": (),
        "canaries": (CANARY,),
        "names": (),
        "tokenise": tokens,
        "fold": normalise,
        "never_strings": (("the anonymisation label", "SISTEMA-Q7"),),
        "embargoed_texts": (("i7", ZH_PROMPT), ("i3", PT_PROMPT)),
        "embargoed_ids": ("i3",),
        "embargo_ends": EMBARGO_END,
    }
    fields.update(extra)
    return GuardMaterial(**fields)  # type: ignore[arg-type]


def site_with(tmp_path: Path, relative: str, body: str) -> Path:
    site = tmp_path / "site"
    path = site / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
    return site


def test_eight_chinese_characters_are_a_leak_with_the_kind_tokeniser(tmp_path: Path) -> None:
    fragment = ZH_PROMPT[4:12]
    assert len(fragment) == 8
    site = site_with(tmp_path, "multidomain/md-tiny/items.html", f"<p lang='zh'>{fragment}</p>")
    with pytest.raises(LeakError, match=r"md-tiny/i7"):
        check_site(site, [material()], as_of=date(2027, 1, 10))


def test_the_core_words_keep_a_chinese_sentence_as_one_word() -> None:
    # Why the kind brings its tokeniser: with `words` the fragment is no run at all.
    assert runs(ZH_PROMPT[4:12]) == set()
    assert len(runs(ZH_PROMPT[4:12], tokenise=tokens)) == 1


def test_seven_chinese_characters_are_not_a_run(tmp_path: Path) -> None:
    site = site_with(tmp_path, "multidomain/md-tiny/x.html", f"<p>{ZH_PROMPT[4:11]}</p>")
    check_site(site, [material()], as_of=date(2027, 1, 10))


def test_a_fullwidth_copy_of_a_prompt_is_a_leak(tmp_path: Path) -> None:
    copy = fullwidth(PT_PROMPT)
    assert copy != PT_PROMPT
    assert unicodedata.normalize("NFKC", copy) == PT_PROMPT
    site = site_with(tmp_path, "en/page.html", f"<p>{copy}</p>")
    with pytest.raises(LeakError, match=r"md-tiny/i3"):
        check_site(site, [material()], as_of=date(2027, 1, 10))


@pytest.mark.parametrize(
    "form", [CANARY, fullwidth(CANARY), CANARY.lower(), CANARY.replace("-", "&#45;")]
)
def test_a_canary_in_any_form_at_any_date(tmp_path: Path, form: str) -> None:
    site = site_with(tmp_path, "data/md-tiny/x.html", f"<td>{form}</td>")
    with pytest.raises(LeakError, match="canary"):
        check_site(site, [material()], as_of=date(2030, 1, 1))


def test_embargoed_texts_are_public_from_the_embargo_end(tmp_path: Path) -> None:
    site = site_with(tmp_path, "multidomain/md-tiny/items.html", f"<p>{ZH_PROMPT}</p>")
    with pytest.raises(LeakError):
        check_site(site, [material()], as_of=date(2027, 2, 27))
    check_site(site, [material()], as_of=EMBARGO_END)


def test_an_unknown_date_keeps_the_embargo(tmp_path: Path) -> None:
    site = site_with(tmp_path, "multidomain/md-tiny/items.html", f"<p>{PT_PROMPT}</p>")
    with pytest.raises(LeakError):
        check_site(site, [material()])


def test_raw_responses_never_appear(tmp_path: Path) -> None:
    site = site_with(
        tmp_path, "p.html", "<p>uma resposta bruta que nunca aparece no site publicado</p>"
    )
    with pytest.raises(LeakError, match="response i3/p2/1"):
        check_site(site, [material()], as_of=date(2031, 1, 1))


def test_anonymisation_labels_never_appear(tmp_path: Path) -> None:
    site = site_with(tmp_path, "p.html", "<p>SISTEMA-Q7</p>")
    with pytest.raises(LeakError, match="anonymisation label 'SISTEMA-Q7'"):
        check_site(site, [material()], as_of=date(2031, 1, 1))


def test_flagged_ids_are_secret_in_their_round_folder_until_the_embargo(tmp_path: Path) -> None:
    page = "multidomain/md-tiny/contamination.html"
    site = site_with(tmp_path, page, "<td>i3</td>")
    with pytest.raises(LeakError, match="names 'i3' before the embargo of md-tiny"):
        check_site(site, [material()], as_of=date(2027, 1, 10))
    check_site(site, [material()], as_of=EMBARGO_END)
    # Whole words only: "i30" or "i3-v2" is another id.
    other = site_with(tmp_path / "b", page, "<td>i30 i3-v2</td>")
    check_site(other, [material()], as_of=date(2027, 1, 10))
    # Outside the round's folder (a script, another round) the id is no finding.
    elsewhere = site_with(tmp_path / "c", "assets/x.html", "<td>i3</td>")
    check_site(elsewhere, [material()], as_of=date(2027, 1, 10))


def test_an_id_a_ledger_line_names_is_public_from_that_line_s_date(tmp_path: Path) -> None:
    # The discarded page lists the ledger from the day a line is decided, embargo or not.
    site = site_with(tmp_path, "multidomain/md-tiny/discarded.html", "<td>i3</td>")
    named = material(ids_public_from=(("i3", date(2026, 12, 5)),))
    with pytest.raises(LeakError, match="names 'i3' before the embargo of md-tiny"):
        check_site(site, [named], as_of=date(2026, 12, 4))
    check_site(site, [named], as_of=date(2026, 12, 5))


def test_materials_without_the_new_fields_behave_as_before(tmp_path: Path) -> None:
    plain = GuardMaterial("r", (("s", ZH_PROMPT),), (), (CANARY,), ())
    site = site_with(tmp_path, "p.html", f"<p>{ZH_PROMPT[4:12]} {fullwidth(CANARY)}</p>")
    check_site(site, [plain], as_of=date(2027, 1, 10))
    both = site_with(tmp_path / "b", "p.html", f"<p>{ZH_PROMPT[4:12]}</p>")
    with pytest.raises(LeakError, match="md-tiny/i7"):
        check_site(both, [plain, material()], as_of=date(2027, 1, 10))
