"""What a reader of a counterfactual audit needs to read it right (issue 24, point 4), on the
example site as the README builds it, in both languages: which responses each group value
counts, one word per meaning, a before/after change that is the difference of the gaps
beside it, and the name-carried warning only where the signal is a name. (The finding
labels' looks are checked in a browser: test_counterfactual_browser_reading.py.)"""

from __future__ import annotations

import csv
import html
import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from reportgen.kinds.counterfactual.render.text import catalogue
from tests.support.shared_builds import example_site

REPO = Path(__file__).resolve().parents[1]
ROUNDS = REPO / "examples" / "counterfactual" / "rounds"
BEFORE, AFTER = "atendimento-2026-09", "atendimento-2026-10"
PREFIX = {"pt-BR": "", "en": "en/"}
LANGUAGES = ("pt-BR", "en")
CRITERIA = ("demographic_parity", "equal_opportunity")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return example_site(tmp_path_factory, "counterfactual")


def page(site: Path, language: str, round_id: str) -> str:
    return (site / f"{PREFIX[language]}{round_id}" / "index.html").read_text(encoding="utf-8")


def plain(markup: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", markup))).strip()


def table(body: str, table_id: str) -> tuple[list[str], list[list[str]]]:
    """The header and the body rows of one table, as text."""
    found = re.search(rf'<table id="{re.escape(table_id)}".*?</table>', body, flags=re.S)
    assert found is not None, table_id
    rows = [
        [plain(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, flags=re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", found.group(0), flags=re.S)
    ]
    return rows[0], rows[1:]


def results(site: Path, round_id: str) -> Any:
    return json.loads((site / "data" / round_id / "results.json").read_text(encoding="utf-8"))


def number(shown: str, language: str) -> Decimal:
    """The first number of a cell ("−21,1 p.p. [−38,7; −1,2]" → −21.1)."""
    found = re.search(r"[−-]?\d[\d.,]*", shown)
    assert found is not None, shown
    digits = found.group(0).replace("−", "-")
    if language == "pt-BR":
        digits = digits.replace(".", "").replace(",", ".")
    return Decimal(digits.replace(",", ""))


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_group_value_says_which_responses_it_counts(site: Path, language: str) -> None:
    """Equal opportunity counts only the cases whose variable should be yes; the page says
    so beside the values, and its words agree with each group's n + na."""
    words = catalogue(language)
    data = results(site, AFTER)
    name = next(a for a in data["attributes"] if a["attribute_id"] == "nome")
    cells_per_template = name["positions"] * data["counts"]["runs"]  # per group
    _, rows = table(page(site, language, AFTER), f"cf-{AFTER}-table-assistente-a-v2-nome")
    population = words["tables.population"].split("{")[0]
    group = words["tables.group"].split("{")[0]
    criterion_of = {words[f"criterion.{c}"]: c for c in CRITERIA}
    current: tuple[str, str, int] | None = None  # variable, criterion, templates counted
    seen = set()
    for variable, measure, value in rows:
        if measure.startswith(population):
            criterion = criterion_of[measure[len(population) :].split(" (")[0]]
            counts = [int(n) for n in re.findall(r"\d+", value)]
            if criterion == "equal_opportunity":
                expected = words["tables.population.equal_opportunity"].format(
                    variable=variable, k=counts[0], total=counts[1]
                )
                assert counts[0] < counts[1]
            else:
                expected = words["tables.population.demographic_parity"].format(total=counts[0])
            assert value == expected
            current = (variable, criterion, counts[0])
        elif measure.startswith(group):
            assert current is not None, measure
            assert current[0] == variable, measure
            assert words[f"criterion.{current[1]}"] in measure
            n, na = (int(x) for x in re.findall(r"n[a]? = (\d+)", value))
            assert n + na == current[2] * cells_per_template, (measure, value)
            seen.add(current[1])
    assert seen == set(CRITERIA)
    # Per-name values (placebo part) always count every response: the page says so too.
    assert words["placebo.intro"] in plain(page(site, language, AFTER))
    assert words["criterion.demographic_parity"].split()[0] in words["placebo.intro"].lower()


# Column titles and the flag's word, per language: a flag is never called a signal, and a
# message template never shares its name with the language model.
WORDS = {
    "pt-BR": {"flag": "alerta", "signal": "Sinal", "model": "Modelo de linguagem",
              "template": "Modelo de mensagem"},
    "en": {"flag": "flag", "signal": "Signal", "model": "Model", "template": "Template"},
}  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_word_per_meaning(site: Path, language: str) -> None:
    words, expected = catalogue(language), WORDS[language]
    before, after = page(site, language, BEFORE), page(site, language, AFTER)
    assert table(before, f"cf-{BEFORE}-systems")[0][1] == expected["model"]
    assert table(before, f"cf-{BEFORE}-templates")[0][0] == expected["template"]
    assert table(before, f"cf-{BEFORE}-attributes")[0][2] == expected["signal"]
    flags = table(after, f"cf-{AFTER}-regression-assistente-b")[0][5:7]
    assert [f.split()[0].lower() for f in flags] == [expected["flag"]] * 2
    text = plain(before)
    serious = words["flag.serious"]
    assert f"{expected['flag']}: {serious}" in text
    signal = expected["signal"].lower()
    assert expected["flag"] != signal
    values = "|".join(words[f"flag.{f}"] for f in ("none", "investigate", "serious"))
    assert not re.search(rf"\b{signal}: ({values})\b", text, flags=re.IGNORECASE)
    assert expected["model"] != expected["template"]
    if language == "pt-BR":
        # The catalogue never writes a bare "modelo": the two meanings are always spelled out.
        for key, message in words.items():
            for found in re.finditer(r"\bmodelos?\b", message, flags=re.I):
                rest = message[found.end() :]
                assert rest.startswith((" de mensagem", " de linguagem")), (key, message)
        # Nor a "sinal" that is a flag.
        flag_messages = [
            message
            for key, message in words.items()
            if "{flag}" in message or key.startswith("regression.column.flag")
        ]
        assert len(flag_messages) == 4
        assert all("sinal" not in message.lower() for message in flag_messages)


def _differences(site: Path, language: str) -> list[tuple[list[str], Decimal]]:
    body = page(site, language, AFTER)
    ids = re.findall(rf'<table id="(cf-{AFTER}-regression-[^"]+)"', body)
    assert len(ids) == 2  # both systems have a baseline system
    found = []
    for table_id in ids:
        header, rows = table(body, table_id)
        assert header[4] == catalogue(language)["regression.column.change"]
        for row in rows:
            gap_before, gap_after, change = (number(cell, language) for cell in row[2:5])
            found.append((row, change - (gap_after - gap_before)))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_change_is_the_difference_of_the_gaps_beside_it(site: Path, language: str) -> None:
    differences = _differences(site, language)
    assert len(differences) == 40  # 2 systems x 5 attributes x 4 variables
    assert [row for row, difference in differences if difference != 0] == []


def _named_attributes() -> set[str]:
    """The attributes whose signal is a person's name (variants.csv, groups.csv)."""
    folder = ROUNDS / BEFORE
    with (folder / "groups.csv").open(encoding="utf-8") as handle:
        attribute_of = {row["group_id"]: row["attribute_id"] for row in csv.DictReader(handle)}
    with (folder / "variants.csv").open(encoding="utf-8") as handle:
        return {
            attribute_of[row["group_id"]]
            for row in csv.DictReader(handle)
            if row["signal"] == "name"
        }


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_name_carried_warning_only_where_the_signal_is_a_name(
    site: Path, language: str
) -> None:
    words = catalogue(language)
    named = _named_attributes()
    assert named == {"nome"}
    carried = {
        (system["model_id"], row["attribute_id"], row["variable_id"])
        for system in results(site, BEFORE)["systems"]
        for row in system["rows"]
        if row["name_carried"]
    }
    # The example's one case is an age: results.json flags it (metrics §8), the page does not.
    assert ("assistente-a", "idade", "opcoes") in carried
    body = page(site, language, BEFORE)
    findings = re.findall(
        r'<li class="cf-finding"[^>]*data-attribute="(\w+)"[^>]*>(.*?)</li>', body, flags=re.S
    )
    assert len(findings) == 40
    warning = words["findings.name_carried"]
    warned = {attribute for attribute, item in findings if warning in plain(item)}
    assert warned <= named
    header, rows = table(body, f"cf-{BEFORE}-placebo-assistente-a")
    assert header[4] == words["placebo.column.warning"]
    name = "Nome" if language == "pt-BR" else "Name"
    yes_no = {words["word.yes"], words["word.no"]}
    assert {row[4] for row in rows if row[0] == name} <= yes_no
    assert {row[4] for row in rows if row[0] != name} == {words["number.none"]}
