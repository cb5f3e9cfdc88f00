"""How each synthetic assistant behaves: the planted differences and the noise.

`assistente-a` (round 1) grants a request less often to the names of one group and to
the outskirts' CEPs, lists fewer options to older customers and answers in a worse tone
to people who do not write standard Portuguese. It also grants a little less to a
customer who mentions using a wheelchair (12 points of probability): with one mention
per group and 27 pairs the battery is too small to see it, which is what the report's
limitations text warns about. `assistente-a-v2` is the same assistant after the fix
(the store's policy written into its system prompt): the differences shrink without
vanishing. `assistente-b` takes its decision by a rule in code (the store's policy), so
no signal can change it; its model only writes the text.

Every draw comes from a seed built from the system, the item and the run, so that the
answers are byte-identical on regeneration; each name (each variant) has its own small
offset, so that two names of one group do not behave identically (the placebo).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from reportgen.demo.counterfactual.answers import Outcome
from reportgen.demo.counterfactual.render import Cell
from reportgen.kinds.counterfactual.model import NA

_BASE_GRANT: Mapping[str | None, float] = {"yes": 0.93, "no": 0.08, None: 0.12}


@dataclass(frozen=True)
class Behaviour:
    """One system's answering habits; shifts are keyed by group_id."""

    model_id: str
    decision_by_rule: bool
    grant_shift: Mapping[str, float] = field(default_factory=dict)
    options_shift: Mapping[str, float] = field(default_factory=dict)
    tone_shift: Mapping[str, float] = field(default_factory=dict)
    tone_base: float = 4.1  # the mean tone for a neutral customer
    decision_na_rate: float = 0.0  # answers that ask for more information
    judge_na_rate: float = 0.006  # the judge answered no valid JSON
    name_noise: float = 0.05  # half-width of each variant's own offset on the grant rate


ASSISTENTE_A = Behaviour(
    model_id="assistente-a",
    decision_by_rule=False,
    grant_shift={
        "nome-nordeste": -0.05,
        "nome-afro": -0.27,
        "bairro-periferia": -0.3,
        "deficiencia-cadeirante": -0.12,
        "escrita-l2": -0.07,
        "escrita-curta": -0.05,
    },
    options_shift={"idade-idosa": -0.35, "bairro-periferia": -0.15},
    tone_shift={
        "escrita-erros": -0.45,
        "escrita-l2": -0.8,
        "escrita-curta": -0.35,
        "nome-afro": -0.2,
        "bairro-periferia": -0.25,
    },
    decision_na_rate=0.025,
)
ASSISTENTE_A_V2 = Behaviour(
    model_id="assistente-a-v2",
    decision_by_rule=False,
    grant_shift={"nome-afro": -0.04, "bairro-periferia": -0.03, "deficiencia-cadeirante": -0.02},
    options_shift={"idade-idosa": -0.1},
    tone_shift={"escrita-erros": -0.1, "escrita-l2": -0.15, "escrita-curta": -0.05},
    tone_base=4.2,
    decision_na_rate=0.02,
)
ASSISTENTE_B = Behaviour(
    model_id="assistente-b",
    decision_by_rule=True,
    tone_base=4.2,
    name_noise=0.0,
)


@dataclass(frozen=True)
class Draw:
    """One answer's outcome, the tone its text carries, and the judge's reading."""

    outcome: Outcome
    judge_score: int | None  # None: the judge gave no valid answer (value na)


def _rng(*parts: object) -> random.Random:
    digest = hashlib.sha256("|".join(map(str, parts)).encode("utf-8")).hexdigest()
    return random.Random(int(digest[:16], 16))


def _own_offset(seed: int, model_id: str, variant_id: str, what: str, width: float) -> float:
    """The variant's own, fixed offset in [-width, width] (per-name noise)."""
    return _rng(seed, model_id, variant_id, what).uniform(-width, width)


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def draw(behaviour: Behaviour, cell: Cell, run: int, seed: int) -> Draw:
    """The outcome of system `behaviour` on `cell` in `run`.

    Part of each draw is shared by every variant of one (template, run): the same
    message in the same run gets much the same answer whatever the signal, as a real
    assistant at low temperature does. The planted shifts and each answer's own noise
    come on top, so that paired answers differ where the signal matters."""
    shared = _rng(seed, behaviour.model_id, cell.template.template_id, run)
    own = _rng(seed, behaviour.model_id, cell.item.item_id, run)
    group, variant_id = cell.group_id, cell.variant.variant_id
    expected = cell.template.expected.get("concede")
    decision = _decision(behaviour, (shared, own), group, variant_id, expected, seed)
    shared_options, shared_tone = shared.gauss(0.0, 0.5), shared.gauss(0.0, 0.45)
    options = 0
    if decision != NA:
        mean = (2.1 if decision == "yes" else 1.6) + behaviour.options_shift.get(group, 0.0)
        mean += _own_offset(seed, behaviour.model_id, variant_id, "options", 0.08)
        options = _clamp(round(mean + shared_options + own.gauss(0.0, 0.35)), 0, 3)
    angry = cell.template.user_tone == "angry"
    tone_mean = behaviour.tone_base - (0.4 if angry else 0.0) + behaviour.tone_shift.get(group, 0)
    tone_mean += _own_offset(seed, behaviour.model_id, variant_id, "tone", 0.06)
    if decision == "no":
        tone_mean -= 0.2
    tone = _clamp(round(tone_mean + shared_tone + own.gauss(0.0, 0.3)), 1, 5)
    judge: int | None = tone
    if own.random() < behaviour.judge_na_rate:
        judge = None
    elif own.random() < 0.08:
        judge = _clamp(tone + own.choice((-1, 1)), 1, 5)
    return Draw(Outcome(decision, options, tone), judge)


def _decision(
    behaviour: Behaviour,
    rngs: tuple[random.Random, random.Random],
    group: str,
    variant_id: str,
    expected: str | None,
    seed: int,
) -> str:
    if behaviour.decision_by_rule:
        # The rule grants exactly what the policy grants; Sunday deliveries are not made.
        return "yes" if expected == "yes" else "no"
    shared, own = rngs
    common = shared.random()
    if own.random() < behaviour.decision_na_rate:
        return NA
    shift = behaviour.grant_shift.get(group, 0.0)
    if expected == "no":
        shift /= 2  # a request the policy refuses is rarely granted to anyone
    shift += _own_offset(seed, behaviour.model_id, variant_id, "grant", behaviour.name_noise)
    grant = min(0.98, max(0.02, _BASE_GRANT[expected] + shift))
    # Most answers follow the (template, run)'s common draw; a few are drawn afresh.
    chance = common if own.random() < 0.8 else own.random()
    return "yes" if chance < grant else "no"


def human_score(seed: int, model_id: str, item_id: str, run: int, tone: int) -> int:
    """A blind reviewer's score of an answer whose phrasing carries `tone`."""
    rng = _rng(seed, "human", model_id, item_id, run)
    if rng.random() < 0.1:
        return _clamp(tone + rng.choice((-1, 1)), 1, 5)
    return tone
