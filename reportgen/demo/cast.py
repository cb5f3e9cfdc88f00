"""The models of the two demonstration rounds (models.csv rows).

The seven models of the full round are the ones the article evaluated; the continuous
round adds Muse Spark 1.1 and twenty placeholders whose names say they are invented
(provider "Demo"), so that no real product is credited with made-up behaviour.
"""

from __future__ import annotations

from datetime import date

from reportgen.model import Model

FULL_ROUND_DATE = date(2026, 6, 24)

FULL_ROUND_MODELS: tuple[Model, ...] = (
    Model("qwen-3-6-flash", "Qwen 3.6 Flash", "Alibaba", "qwen3.6-flash", "", FULL_ROUND_DATE),
    Model(
        "llama-4-maverick",
        "Llama 4 Maverick",
        "Meta",
        "meta-llama/llama-4-maverick",
        "",
        FULL_ROUND_DATE,
    ),
    Model("sabia-4", "Sabiá-4", "Maritaca", "sabia-4", "", FULL_ROUND_DATE),
    Model("gpt-5-4-mini", "GPT 5.4-Mini", "OpenAI", "gpt-5.4-mini", "", FULL_ROUND_DATE),
    Model(
        "gemini-2-5-flash-lite",
        "Gemini 2.5 Flash Lite",
        "Google",
        "gemini-2.5-flash-lite",
        "",
        FULL_ROUND_DATE,
    ),
    Model(
        "deepseek-v4-flash",
        "DeepSeek V4 Flash",
        "DeepSeek",
        "deepseek-v4-flash",
        "",
        FULL_ROUND_DATE,
    ),
    Model("sabiazinho-4", "Sabiazinho-4", "Maritaca", "sabiazinho-4", "", FULL_ROUND_DATE),
)

MUSE_SPARK = Model(
    "muse-spark-1-1", "Muse Spark 1.1", "Meta", "muse-spark-1.1", "", date(2026, 7, 19)
)

# Invented names (stars, winds, birds): plainly placeholders, never real products.
DEMO_NAMES: tuple[str, ...] = (
    "Aurora",
    "Boreal",
    "Cirrus",
    "Delta",
    "Estrela",
    "Farol",
    "Garoa",
    "Horizonte",
    "Ipê",
    "Jangada",
    "Kepler",
    "Lume",
    "Maré",
    "Nimbus",
    "Orvalho",
    "Pampa",
    "Quasar",
    "Restinga",
    "Sertão",
    "Tucano",
)


def _slug(name: str) -> str:
    ascii_name = name.lower().replace("ê", "e").replace("é", "e").replace("ã", "a")
    return "demo-" + ascii_name


def _demo_model(position: int, name: str) -> Model:
    # Spread the evaluations over the window of the snapshot: 2026-07-01 .. 2026-07-18.
    evaluated_on = date(2026, 7, 1 + (position * 17) // (len(DEMO_NAMES) - 1))
    return Model(
        model_id=_slug(name),
        display_name=f"Demo {name}",
        provider="Demo",
        api_identifier=f"{_slug(name)}-v1",
        snapshot="",
        evaluated_on=evaluated_on,
    )


DEMO_MODELS: tuple[Model, ...] = tuple(
    _demo_model(position, name) for position, name in enumerate(DEMO_NAMES)
)

# Continuous-round evaluation dates of the original seven (re-run on the subsample).
_CONTINUOUS_DATES: tuple[date, ...] = tuple(date(2026, 7, day) for day in (1, 1, 2, 3, 3, 4, 5))

CONTINUOUS_ROUND_MODELS: tuple[Model, ...] = (
    *(
        Model(m.model_id, m.display_name, m.provider, m.api_identifier, m.snapshot, day)
        for m, day in zip(FULL_ROUND_MODELS, _CONTINUOUS_DATES, strict=True)
    ),
    MUSE_SPARK,
    *DEMO_MODELS,
)
