"""The held-out anonymiser corpus (issue 23, tests/data/anonymiser/heldout/) is well formed,
and the checker that bench/bench_anonymiser_corpus.py measures it with sees names through
their disguises. The anonymiser's own figures on it are the bench's, not asserted here."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.anonymiser_corpus import (
    Corpus,
    CorpusError,
    Entry,
    altered_stretches,
    display_order,
    fold,
    measure,
    read_corpus,
    still_there,
)
from tests.support.anonymiser_corpus_classes import (
    HELDOUT,
    INNOCENT_CLASSES,
    SELF_IDENTIFYING_CLASSES,
)
from tests.support.corpus_checks import check_languages_per_class, check_listed, check_part

_MINIMA = {"at_least": 210, "per_language_at_least": 45}


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return read_corpus(HELDOUT)


def test_self_identifying_answers_are_well_formed(corpus: Corpus) -> None:
    check_part(corpus.self_identifying, "si", SELF_IDENTIFYING_CLASSES, **_MINIMA)
    check_listed(corpus.self_identifying, "names")


def test_innocent_answers_use_watched_words(corpus: Corpus) -> None:
    check_part(corpus.innocent, "in", INNOCENT_CLASSES, **_MINIMA)
    check_listed(corpus.innocent, "watched")


def test_every_class_has_answers_in_several_languages(corpus: Corpus) -> None:
    check_languages_per_class(corpus)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("Claude", "Sou o \u0421l\u0430ud\u0435, prazer."),  # Cyrillic С, а, е
        ("OpenAI", "created by \u041ep\u0435n\u0410\u0406"),  # Cyrillic О, е, А, І
        ("Llama", "I'm Ll\u03b1m\u03b1."),  # Greek alpha
        ("Meta", "um modelo da \u041c\u0435ta"),  # Cyrillic М (no lower-case look-alike)
        ("Claude", "I'm C l a u d e."),
        ("Claude", "Sou o C-l-a-u-d-e."),
        ("GPT-4o", "Aqui é o G.P.T-4o."),
        ("Claude", "I'm **Cl**aude."),
        ("Claude", "我是Claude，由Anthropic开发。"),
        ("Anthropic", "我是Claude，由Anthropic开发。"),
        ("通义千问", "你好，我是通义千问。"),
        ("通义千问", "你好，我是通-义-千-问。"),
        ("Claude", "Sou o Cla\u200bude."),
        ("Gemini", "Olá! Eu sou o \uff27\uff45\uff4d\uff49\uff4e\uff49."),
        ("Claude", "Sou o \u202eedualC\u202c."),  # shown as "Claude"
        ("GPT", "eu sou o gpt4"),
        ("Sabiá", "Sou o SABIA-4."),
    ],
)
def test_checker_sees_disguised_names(name: str, text: str) -> None:
    assert still_there(name, text)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("Meta", "a metade do caminho"),
        ("Claude", "Sou o [SISTEMA]."),
        ("Gemini", "Sou o [SISTEMA] 2.5."),
        ("Sabiá-4", "sabia-44 dias"),
        ("豆包", "我是[SISTEMA]。"),
        ("Claude", "Claudxe"),  # a word character inside is no separator
    ],
)
def test_checker_does_not_see_absent_names(name: str, text: str) -> None:
    assert not still_there(name, text)


def test_fold_keeps_chinese_and_maps_lookalikes() -> None:
    assert fold("我是\u0421laude") == "我是claude"
    assert fold("〇一口") == "〇一口"
    assert display_order("a\u202ecba\u202c d") == "aabc d"


def _entry(entry_id: str, text: str, names: tuple[str, ...] = ()) -> Entry:
    language, difficulty = ("en", "homoglyph") if names else ("zh", "cjk_ordinary")
    return Entry(entry_id, language, difficulty, text, names, () if names else ("x",))


def test_measure_counts_leaks_and_alterations() -> None:
    corpus = Corpus(
        Path("x"),
        (
            _entry("si-1", "I'm Claude.", ("Claude",)),
            _entry("si-2", "I'm Cl\u0430ude.", ("Claude",)),  # Cyrillic а: not replaced
        ),
        (_entry("in-1", "Claude Monet"), _entry("in-2", "豆包")),
    )
    measurement = measure(corpus, lambda text: text.replace("Claude", "[SISTEMA]"))
    assert str(measurement.removed) == "1/2 = 50.0 %"
    assert [f.entry.entry_id for f in measurement.leaks] == ["si-2"]
    assert str(measurement.altered) == "1/2 = 50.0 %"
    assert str(measurement.altered_by["language"]["zh"]) == "1/2 = 50.0 %"
    assert measurement.alterations[0].what == ("'Claude' -> '[SISTEMA]'",)


def test_altered_stretches_compare_whole_words() -> None:
    assert altered_stretches("uma conta Microsoft", "uma conta [SISTEMA]") == (
        "'Microsoft' -> '[SISTEMA]'",
    )


def test_malformed_corpus_names_file_and_line(tmp_path: Path) -> None:
    lines = '{"text": "ok", "names": ["a"]}\n{"text": 3}\n'
    (tmp_path / "self_identifying.jsonl").write_text(lines, encoding="utf-8")
    (tmp_path / "innocent.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(CorpusError, match=r"self_identifying\.jsonl:2: .*must be strings"):
        read_corpus(tmp_path)


def test_development_corpus_reads_with_its_own_file_names() -> None:
    development = read_corpus(HELDOUT.parent)
    assert development.self_identifying
    assert development.innocent[0].entry_id == "ordinary:1"
