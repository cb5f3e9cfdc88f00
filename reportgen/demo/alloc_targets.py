"""Integer targets of the demonstration label plan (see allocate.py).

The counts below were chosen so that the full round reproduces the article's printed
figures (docs/article-figures.md) once computed as metrics.md says; the tests
recompute every figure from the allocation, so a change here that breaks one fails there.
Per-style tuples are (original, doubt, positive); each style holds one third of the items.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

QWEN = "qwen-3-6-flash"
LLAMA = "llama-4-maverick"
SABIA = "sabia-4"
GPT = "gpt-5-4-mini"
GEMINI = "gemini-2-5-flash-lite"
DEEPSEEK = "deepseek-v4-flash"
SABIAZINHO = "sabiazinho-4"
FULL_MODEL_IDS: tuple[str, ...] = (QWEN, LLAMA, SABIA, GPT, GEMINI, DEEPSEEK, SABIAZINHO)


@dataclass(frozen=True)
class StyleCounts:
    """Per style (original, doubt, positive): biased answers and cant_tell answers."""

    biased: tuple[int, int, int]
    cant_tell: tuple[int, int, int]


# Whole round, all 7,626 scored items of a model. Positive cant_tell is the omission count O.
FULL_TOTALS: Mapping[str, StyleCounts] = {
    QWEN: StyleCounts((280, 247, 196), (650, 672, 330)),
    LLAMA: StyleCounts((270, 241, 242), (598, 622, 350)),
    SABIA: StyleCounts((167, 149, 80), (1128, 1160, 810)),
    GPT: StyleCounts((123, 111, 55), (1460, 1488, 1021)),
    GEMINI: StyleCounts((88, 76, 36), (1560, 1592, 1132)),
    DEEPSEEK: StyleCounts((401, 360, 305), (548, 570, 356)),
    SABIAZINHO: StyleCounts((41, 37, 21), (2125, 2145, 1858)),
}

# The pt-BR items that have an English realisation (331, 331, 332 of them): the language
# study's means over the seven models come out of these counts. In English six models say
# cant_tell more often in both regimes, Sabiá-4 and Sabiazinho-4 among them (the article
# saw the same direction in both models built for Brazilian Portuguese); GPT 5.4-Mini is
# the exception.
PAIRED_PT: Mapping[str, StyleCounts] = {
    QWEN: StyleCounts((43, 29, 29), (90, 81, 39)),
    LLAMA: StyleCounts((46, 33, 34), (83, 80, 45)),
    SABIA: StyleCounts((27, 18, 11), (158, 146, 104)),
    GPT: StyleCounts((11, 15, 3), (192, 193, 139)),
    GEMINI: StyleCounts((7, 3, 6), (207, 200, 158)),
    DEEPSEEK: StyleCounts((56, 45, 40), (74, 65, 44)),
    SABIAZINHO: StyleCounts((4, 5, 2), (278, 276, 246)),
}
PAIRED_EN: Mapping[str, StyleCounts] = {
    QWEN: StyleCounts((19, 14, 13), (158, 151, 108)),
    LLAMA: StyleCounts((16, 18, 19), (151, 145, 106)),
    SABIA: StyleCounts((7, 10, 8), (207, 199, 165)),
    GPT: StyleCounts((6, 6, 5), (190, 186, 134)),
    GEMINI: StyleCounts((3, 3, 3), (254, 261, 220)),
    DEEPSEEK: StyleCounts((20, 21, 14), (137, 140, 111)),
    SABIAZINHO: StyleCounts((3, 4, 2), (283, 283, 251)),
}

# Biased answers on local-stigma items (211 over the seven models); split over styles
# in proportion to the model's own style profile.
LOCAL_BIASED: Mapping[str, int] = {
    QWEN: 46,
    LLAMA: 52,
    SABIA: 28,
    GPT: 18,
    GEMINI: 10,
    DEEPSEEK: 52,
    SABIAZINHO: 5,
}

# Per-stigma biased counts the article prints; placed before everything else.
NAMED_BIASED: tuple[tuple[str, str, int], ...] = (
    (GPT, "favelado", 14),
    (GPT, "nordestino", 10),
    (SABIA, "umbandista-candomblecista", 8),
)

# Outputs the parser could not classify, all in style `original`.
INCONCLUSIVE_OUTPUTS: Mapping[str, int] = {DEEPSEEK: 2}


@dataclass(frozen=True)
class Propensity:
    """Log-weight effects that decide WHERE a model errs (not how often)."""

    peril: float  # per band step (low -> medium -> high) on the biased weight
    male_bias: float  # + raises bias on male targets, - on female ones
    male_omission: float  # raises cant_tell on male targets
    structure_scale: float  # SD of the model's own structure effects
    stigma_scale: float  # SD of the model's own stigma effects
    axis_contrast: tuple[str, ...]  # axes whose stigmas differ for this model


PROPENSITY: Mapping[str, Propensity] = {
    QWEN: Propensity(0.55, 0.25, 0.6, 0.25, 0.55, ("race",)),
    LLAMA: Propensity(0.5, 0.25, 0.7, 0.25, 0.55, ("origin",)),
    SABIA: Propensity(0.5, -0.6, 0.3, 0.3, 0.55, ()),
    GPT: Propensity(0.6, 0.3, 0.3, 0.8, 0.35, ("origin",)),
    GEMINI: Propensity(0.7, -0.6, 0.3, 0.6, 0.35, ()),
    DEEPSEEK: Propensity(0.55, 0.2, 0.4, 0.25, 0.55, ("origin",)),
    SABIAZINHO: Propensity(0.3, 0.3, 0.6, 0.3, 0.55, ()),
}
# GPT and Gemini fail in opposite places (their structure profiles are mirrored).
MIRRORED_STRUCTURES: tuple[tuple[str, str], ...] = ((GEMINI, GPT),)

# (model, structure or stigma, log-weight) added to a model's biased and cant_tell weights
# beyond its random effects. Neighbours in the ranking that lean in opposite directions on
# one structure (or stigma) swap when it is left out. The article saw Llama swap with
# Sabiá-4 (here: leaving out q06 or q14) and GPT with Gemini (here: leaving out depressão,
# the one stigma that reorders, or one of the nine structures where their mirrored profiles
# differ most); it kept the order in 100 of 101 stigma and 16 of 27 structure analyses.
# (On an axis stigma a stigma lean would reach cant_tell only: axis stigmas keep their own
# bias effects, see allocate.py.)
STRUCTURE_LEANS: tuple[tuple[str, str, float], ...] = (
    (SABIA, "q06", 1.8),
    (LLAMA, "q06", -1.2),
    (SABIA, "q14", 1.8),
    (LLAMA, "q14", -1.2),
)
STIGMA_LEANS: tuple[tuple[str, str, float], ...] = (
    (GEMINI, "depressao", 1.5),
    (GPT, "depressao", -1.0),
)
