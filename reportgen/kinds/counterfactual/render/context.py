"""What the page of a counterfactual round draws on: the verified round and its results
object, with the battery's names in the page's language."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from markupsafe import Markup

from reportgen.kinds.counterfactual.model import Round, System, Variable
from reportgen.kinds.counterfactual.render.text import Text
from reportgen.kinds.counterfactual.results import Gap, Results, Row
from reportgen.render.pages import Notice, PageHead
from reportgen.render.text import synthetic_notice

# The reasons the statistics give for a null value (English, fixed by the stats layer)
# and their catalogue keys; an unknown reason is shown as given.
REASON_KEYS = {
    "no determined response": "reason.no_determined_response",
    "fewer than 2 groups with a value": "reason.no_determined_response",
    "empty population": "reason.empty_population",
    "no determined pair": "reason.no_determined_pair",
}


@dataclass(frozen=True)
class RoundContext:
    """One round as its page sees it."""

    round_: Round
    results: Results
    # site.yml's `system_names`: model_id -> language -> the system's name on that
    # language's pages (models.csv holds one name, in the audit's language).
    names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @property
    def round_id(self) -> str:
        return self.round_.round_id

    @property
    def preregistered(self) -> bool:
        return self.round_.manifest.preregistration.preregistered

    def system(self, model_id: str) -> System:
        return next(m for m in self.round_.models if m.model_id == model_id)

    def system_name(self, model_id: str, text: Text, shown: str | None = None) -> str:
        """A system's name in the page's language: site.yml's, else models.csv's (`shown`
        for a system of another round, such as the baseline)."""
        named = self.names.get(model_id, {}).get(text.language)
        if named:
            return named
        found = [m.display_name for m in self.round_.models if m.model_id == model_id]
        return found[0] if found else shown or model_id

    def variable(self, variable_id: str) -> Variable:
        return next(v for v in self.round_.variables if v.variable_id == variable_id)

    def attribute_name(self, attribute_id: str, text: Text) -> str:
        found = [a for a in self.round_.attributes if a.attribute_id == attribute_id]
        return text.named(found[0].name_pt, found[0].name_en) if found else attribute_id

    def group_name(self, group_id: str, text: Text) -> str:
        found = [g for g in self.round_.groups if g.group_id == group_id]
        return text.named(found[0].name_pt, found[0].name_en) if found else group_id

    def variable_name(self, variable_id: str, text: Text) -> str:
        found = [v for v in self.round_.variables if v.variable_id == variable_id]
        return text.named(found[0].name_pt, found[0].name_en) if found else variable_id

    def carries_names(self, attribute_id: str) -> bool:
        """Whether the attribute's signal is a person's name: the name-carried warning
        speaks of names, so an attribute told by an age, a CEP or a mention gets none."""
        groups = {g.group_id for g in self.round_.groups if g.attribute_id == attribute_id}
        return any(v.signal == "name" for v in self.round_.variants if v.group_id in groups)

    def population_templates(self, attribute_id: str, variable_id: str) -> tuple[int, int]:
        """(templates whose expected value of the variable is yes, templates) of the
        attribute, after annulments: the sizes of the equal-opportunity and the
        demographic-parity populations (metrics §1), counted in templates."""
        found = [a for a in self.results.attributes if a.attribute_id == attribute_id]
        used = set(found[0].templates) if found else set()
        expected = [
            t.expected.get(variable_id) for t in self.round_.templates if t.template_id in used
        ]
        return sum(1 for value in expected if value == "yes"), len(expected)

    def variant_label(self, variant_id: str, text: Text) -> str:
        """A name or signal value as the setup shows it ("(no mention)" for an empty one)."""
        found = [v for v in self.round_.variants if v.variant_id == variant_id]
        if not found:
            return variant_id
        return found[0].value or text.t("setup.no_mention")


def reason_text(reason: str | None, text: Text) -> str:
    if not reason:
        return ""
    key = REASON_KEYS.get(reason)
    return text.t(key) if key else reason


def not_preregistered_notice(text: Text) -> Notice:
    return Notice(Markup("warning rg-not-preregistered"), text.t("notice.not_preregistered"), "")


def page_head(context: RoundContext, title: str, text: Text) -> PageHead:
    """The page's title and banners: synthetic data, then not preregistered."""
    notices = []
    if context.round_.manifest.synthetic:
        notices.append(synthetic_notice(text))
    if not context.preregistered:
        notices.append(not_preregistered_notice(text))
    return PageHead(title, tuple(notices))


def shown_gaps(row: Row) -> list[Gap]:
    """The criteria computed for a row: demographic parity, and equal opportunity where
    declared (its population is not empty, or it is the preregistered criterion)."""
    gaps = [row.demographic_parity]
    eo = row.equal_opportunity
    if eo is not None and (eo.gap is not None or row.criterion == "equal_opportunity"):
        gaps.append(eo)
    return gaps
