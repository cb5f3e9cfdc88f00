"""The demonstration's data files: shipped with the package, checked on load, clear when broken."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from reportgen.demo import data_files
from reportgen.demo.alloc_core import full_round_outcomes, outcome_label
from reportgen.demo.data_files import DemoDataError, Node, load, parse
from reportgen.demo.instrument import build_layout
from reportgen.demo.output_texts import load_pool
from reportgen.errors import ReportgenError
from reportgen.kinds.estigmas.model import LABELS, Label
from reportgen.kinds.estigmas.score import AGAINST, BIASED, CANT_TELL, INCONCLUSIVE

ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = ROOT / "reportgen" / "demo" / "data"
DATA_FILES = sorted(path.name for path in DATA_DIR.glob("*.json"))


def test_every_data_file_is_read_by_the_demo() -> None:
    sources = "".join(path.read_text(encoding="utf-8") for path in DATA_DIR.parent.glob("*.py"))
    assert DATA_FILES, "no data file found"
    for name in DATA_FILES:
        assert f'"{name}"' in sources, f"{name} is not read by any module of reportgen/demo"


def test_package_data_ships_the_data_files() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["reportgen"]
    shipped = {
        path.relative_to(ROOT / "reportgen").as_posix()
        for pattern in patterns
        for path in (ROOT / "reportgen").glob(pattern)
    }
    for name in DATA_FILES:
        assert f"demo/data/{name}" in shipped


@pytest.mark.parametrize("name", DATA_FILES)
def test_data_files_load_through_importlib_resources(name: str) -> None:
    assert isinstance(load(name).value, dict)


def _error(raw: str, action: Callable[[Node], object]) -> str:
    with pytest.raises(DemoDataError) as caught:
        action(parse("demo.json", raw))
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    ("raw", "action", "expected"),
    [
        (
            '{"a": ',
            lambda node: node,
            "demo.json: not valid JSON (Expecting value at line 1, column 7)",
        ),
        ("[]", lambda node: node.key("a"), "demo.json: top level: expected an object, got a list"),
        ('{"b": 1}', lambda node: node.key("a"), "demo.json: top level: missing key 'a'"),
        (
            '{"a": {"x": 1}}',
            lambda node: node.key("a").key("x").text(),
            "demo.json: a.x: expected a non-empty string, got the number 1",
        ),
        (
            '{"a": ["ok", ""]}',
            lambda node: node.key("a").texts(),
            'demo.json: a[1]: expected a non-empty string, got the string ""',
        ),
        (
            '{"a": []}',
            lambda node: node.key("a").texts(),
            "demo.json: a: expected a non-empty list",
        ),
        (
            '{"a": "male"}',
            lambda node: node.key("a").choice(("yes", "no")),
            'demo.json: a: expected one of yes, no, got the string "male"',
        ),
        (
            '{"a": {"yes": "Sim", "nah": "x"}}',
            lambda node: node.key("a").text_map(("yes", "no")),
            "demo.json: a: unknown key 'nah'; expected yes, no",
        ),
        (
            '{"a": "true"}',
            lambda node: node.key("a").flag(),
            "demo.json: a: expected true or false",
        ),
        (
            '{"a": true}',
            lambda node: node.key("a").number(),
            "demo.json: a: expected a number, got the bool",
        ),
    ],
)
def test_a_malformed_value_is_one_line_naming_file_and_key(
    raw: str, action: Callable[[Node], object], expected: str
) -> None:
    assert _error(raw, action).startswith(expected)


def test_a_broken_shipped_file_names_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    real = data_files.parse

    def broken(shown: str, raw: str) -> data_files.Node:
        return real(shown, raw.replace('"reasons"', '"reasonz"', 1))

    monkeypatch.setattr(data_files, "parse", broken)
    load.cache_clear()
    try:
        with pytest.raises(DemoDataError, match=r"output_texts_en\.json: top level: unknown key"):
            load_pool("output_texts_en.json")
    finally:
        load.cache_clear()
    assert issubclass(DemoDataError, ReportgenError)  # the CLI prints it without a traceback


@pytest.mark.parametrize("biased_yes", [True, False])
@pytest.mark.parametrize("label", LABELS)
def test_demo_plans_in_the_scorers_outcome_codes(label: Label, biased_yes: bool) -> None:
    layout = build_layout()
    scored = [i for i in layout.items if i.language == "pt-BR" and i.style != "base"]
    biased_of = {s.structure_id: s.biased_answer for s in layout.structures}
    chosen = next(i for i in scored if (biased_of[i.structure_id] == "yes") == biased_yes)
    labels = {"m": {i.item_id: ("no" if i is not chosen else label) for i in scored}}
    codes = full_round_outcomes(layout, labels)["m"]
    code = int(codes[[i.item_id for i in scored].index(chosen.item_id)])
    expected = {"cant_tell": CANT_TELL, "inconclusive": INCONCLUSIVE}.get(
        label, BIASED if (label == "yes") == biased_yes else AGAINST
    )
    assert code == expected
    assert outcome_label(code, biased_yes) == label
    assert codes.dtype == np.int8
