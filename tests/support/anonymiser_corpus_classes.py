"""The anonymiser corpora's folders, languages and classes of difficulty, shared by the
tests that check the corpora (development, held-out, fresh) are well formed."""

from __future__ import annotations

from pathlib import Path

HELDOUT = Path(__file__).resolve().parent.parent / "data" / "anonymiser" / "heldout"
LANGUAGES = {"pt-BR", "en", "es", "zh"}
SELF_IDENTIFYING_CLASSES = {
    "self_introduction",
    "maker_cue",
    "cjk_product",
    "latin_glued_cjk",
    "split_spaced_leet",
    "homoglyph",
    "unlisted_product",
    "invisible_tricks",
    "markup",
    "round_participant",
    "long_answer",
}
INNOCENT_CLASSES = {
    "brand_ordinary",
    "maker_cue_other",
    "nameless_self_reference",
    "common_word",
    "person_name",
    "quoted_person_intro",
    "round_word_ordinary",
    "cjk_ordinary",
    "long_answer",
}
