"""The contract between each page template and its page class (in the manner of datasette's
test_template_context.py): the variables a template uses are exactly the fields of its
page class, both ways, with included partials counting for the including template.
Templates only lay values out: no calls (builders, translators) and no filters."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import jinja2
import pytest
from jinja2 import meta, nodes
from markupsafe import Markup

from reportgen.kinds.counterfactual.render.page_types import TEMPLATES as CF_TEMPLATES
from reportgen.kinds.counterfactual.render.writer import PAGE_TEMPLATES as CF_PAGE_TEMPLATES
from reportgen.kinds.counterfactual.render.writer import WRITER as CF_WRITER
from reportgen.kinds.estigmas.render.page_types import TEMPLATES
from reportgen.kinds.estigmas.render.pages import PAGE_TEMPLATES, finished
from reportgen.kinds.multidomain.render.page_types import TEMPLATES as MD_TEMPLATES
from reportgen.kinds.multidomain.render.writer import PAGE_TEMPLATES as MD_PAGE_TEMPLATES
from reportgen.kinds.multidomain.render.writer import WRITER as MD_WRITER

ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(PAGE_TEMPLATES))


def template_variables(env: jinja2.Environment, name: str) -> set[str]:
    """The undeclared variables of a template and of every template it includes."""
    source = env.loader.get_source(env, name)[0]  # type: ignore[union-attr]
    tree = env.parse(source)
    found = set(meta.find_undeclared_variables(tree))
    for included in meta.find_referenced_templates(tree):
        assert included is not None, f"{name}: an include whose name is computed"
        found |= template_variables(env, included)
    return found


def contract_problems(env: jinja2.Environment, name: str, page_class: type) -> list[str]:
    fields = {field.name for field in dataclasses.fields(page_class)}
    used = template_variables(env, name)
    return [
        *(
            f"{name} uses {v!r}, not a field of {page_class.__name__}"
            for v in sorted(used - fields)
        ),
        *(f"{page_class.__name__}.{f} is used by no template" for f in sorted(fields - used)),
    ]


@pytest.mark.parametrize("page_class", list(TEMPLATES), ids=lambda cls: cls.__name__)
def test_template_variables_are_the_page_fields(page_class: type) -> None:
    assert contract_problems(ENV, TEMPLATES[page_class], page_class) == []


def test_every_template_has_a_page_class_and_every_partial_is_included() -> None:
    files = {path.name for path in PAGE_TEMPLATES.glob("*.j2")}
    pages = set(TEMPLATES.values())
    assert pages <= files
    partials = files - pages
    assert all(name.startswith("_") for name in partials), partials
    included: set[str] = set()
    for name in pages:
        tree = ENV.parse(ENV.loader.get_source(ENV, name)[0])  # type: ignore[union-attr]
        included |= {str(n) for n in meta.find_referenced_templates(tree)}
    assert partials == included


@pytest.mark.parametrize("name", sorted(p.name for p in PAGE_TEMPLATES.glob("*.j2")))
def test_templates_only_lay_out(name: str) -> None:
    """No call (into a table builder, a translator, getattr) and no filter (formatting)."""
    tree = ENV.parse(ENV.loader.get_source(ENV, name)[0])  # type: ignore[union-attr]
    calls = [node.lineno for node in tree.find_all(nodes.Call)]
    filters = [f"{node.name} (line {node.lineno})" for node in tree.find_all(nodes.Filter)]
    assert calls == [], f"{name}: calls on lines {calls}"
    assert filters == [], f"{name}: filters {filters}"


@dataclass(frozen=True)
class _Toy:
    head: str
    title: str


def test_the_contract_catches_a_mismatch_both_ways(tmp_path: Path) -> None:
    (tmp_path / "_part.md.j2").write_text("{{ head }}\n", encoding="utf-8")
    (tmp_path / "good.md.j2").write_text('{% include "_part.md.j2" %}{{ title }}\n', "utf-8")
    (tmp_path / "extra.md.j2").write_text("{{ head }}{{ title }}{{ stray }}\n", "utf-8")
    (tmp_path / "short.md.j2").write_text("{{ title }}\n", encoding="utf-8")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(tmp_path))
    assert contract_problems(env, "good.md.j2", _Toy) == []
    assert contract_problems(env, "extra.md.j2", _Toy) == [
        "extra.md.j2 uses 'stray', not a field of _Toy"
    ]
    assert contract_problems(env, "short.md.j2", _Toy) == ["_Toy.head is used by no template"]


def test_what_a_page_prints_is_finished() -> None:
    """Text is escaped for Markdown, Markup passes, a number or None is a template error."""
    assert finished('<b>"x"</b>') == "&#60;b&#62;&#34;x&#34;&#60;/b&#62;"
    assert finished(Markup("**bold**")) == "**bold**"
    for unfinished in (3, 0.5, None):
        with pytest.raises(TypeError, match="not a finished value"):
            finished(unfinished)


# The multidomain kind's templates: the same contract with its own page classes.

MD_ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(MD_PAGE_TEMPLATES))


@pytest.mark.parametrize("page_class", list(MD_TEMPLATES), ids=lambda cls: cls.__name__)
def test_multidomain_template_variables_are_the_page_fields(page_class: type) -> None:
    assert contract_problems(MD_ENV, MD_TEMPLATES[page_class], page_class) == []


@pytest.mark.parametrize("name", sorted(p.name for p in MD_PAGE_TEMPLATES.glob("*.j2")))
def test_multidomain_templates_only_lay_out(name: str) -> None:
    tree = MD_ENV.parse(MD_ENV.loader.get_source(MD_ENV, name)[0])  # type: ignore[union-attr]
    assert [node.lineno for node in tree.find_all(nodes.Call)] == []
    assert [node.name for node in tree.find_all(nodes.Filter)] == []
    assert name in MD_TEMPLATES.values() or name.startswith("_")


def test_what_a_multidomain_page_prints_is_finished() -> None:
    assert MD_WRITER.finished("<b>") == "&#60;b&#62;"
    assert MD_WRITER.finished(Markup("<b>")) == "<b>"
    assert MD_WRITER.finished(14) == "14"
    for unfinished in (True, 0.5, None):
        with pytest.raises(TypeError):
            MD_WRITER.finished(unfinished)


# The counterfactual kind's templates: the same contract with its own page classes.

CF_ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(CF_PAGE_TEMPLATES))


@pytest.mark.parametrize("page_class", list(CF_TEMPLATES), ids=lambda cls: cls.__name__)
def test_counterfactual_template_variables_are_the_page_fields(page_class: type) -> None:
    assert contract_problems(CF_ENV, CF_TEMPLATES[page_class], page_class) == []


@pytest.mark.parametrize("name", sorted(p.name for p in CF_PAGE_TEMPLATES.glob("*.j2")))
def test_counterfactual_templates_only_lay_out(name: str) -> None:
    tree = CF_ENV.parse(CF_ENV.loader.get_source(CF_ENV, name)[0])  # type: ignore[union-attr]
    assert [node.lineno for node in tree.find_all(nodes.Call)] == []
    assert [node.name for node in tree.find_all(nodes.Filter)] == []
    assert name in CF_TEMPLATES.values() or name.startswith("_")


def test_what_a_counterfactual_page_prints_is_finished() -> None:
    assert CF_WRITER.finished("<b>") == "&#60;b&#62;"
    assert CF_WRITER.finished(Markup("<b>")) == "<b>"
    assert CF_WRITER.finished(11) == "11"
    for unfinished in (True, 0.5, None):
        with pytest.raises(TypeError):
            CF_WRITER.finished(unfinished)
