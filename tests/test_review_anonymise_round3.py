"""The anonymiser's third round (issue 23): markup read as shown, every invisible character
ignored, more self-introductions confirmed, and people's names kept. Every sentence here is
written for these tests."""

from __future__ import annotations

import pytest

from review_app.anonymiser.anonymise import MARKER as M
from review_app.anonymiser.anonymise import Scrubber

SCRUB = Scrubber(["Tuiuiú 2", "tuiuiu-ia/tuiuiu-2"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Eu sou o <em>Gem</em>ini e vou ajudar.", f"Eu sou o <em>{M} e vou ajudar."),
        ("Quem responde é o C&#108;aude.", f"Quem responde é o {M}."),
        ("Quem responde é o Cl&#x61;ude.", f"Quem responde é o {M}."),
        ("Sou o <strong>Llama&nbsp;3</strong>, olá.", f"Sou o <strong>{M}</strong>, olá."),
        ("I am <i>Cl</i><i>aude</i>, nice to meet you.", f"I am <i>{M}</i>, nice to meet you."),
        ("<p>Soy Gemini</p><p>Hola</p>", f"<p>Soy {M}</p><p>Hola</p>"),
        (
            "As <span class='x'>Chat</span>GPT, I cannot see it.",
            f"As <span class='x'>{M}, I cannot see it.",
        ),
    ],
)
def test_html_markup_inside_and_around_names(text: str, expected: str) -> None:
    assert SCRUB(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Use a < b and c > d in the proof.",
        "Tom &amp; Jerry is a cartoon; <b>bold</b> text is fine.",
        "<p>A reunião foi boa</p><p>Depois choveu</p>",
    ],
)
def test_html_markup_without_names_is_kept(text: str) -> None:
    assert SCRUB(text) == text


@pytest.mark.parametrize(
    "invisible",
    [
        "\u034f",
        "\ufe0f",
        "\ufe00",
        "\u3164",
        "\uffa0",
        "\u115f",
        "\U000e0041",
        "\U000e0100",
        "\u180b",
    ],
)
def test_every_invisible_character_is_ignored(invisible: str) -> None:
    assert SCRUB(f"Aqui quem fala é o Cl{invisible}aude.") == f"Aqui quem fala é o {M}."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Good evening! This is Pollen, your helper for taxes.",
            f"Good evening! This is {M}, your helper for taxes.",
        ),
        (
            "Wren here, the reading buddy from Oakhill Books. Try this.",
            f"{M} here, the reading buddy from {M}. Try this.",
        ),
        ("Aquí Nube, la asistente del ayuntamiento.", f"Aquí {M}, la asistente del ayuntamiento."),
        ("Olá! Aqui é a Iara. Vamos lá.", f"Olá! Aqui é a {M}. Vamos lá."),
        (
            "Me chamo Tainá e sou a assistente virtual da loja.",
            f"Me chamo {M} e sou a assistente virtual da loja.",
        ),
        (
            "Me llamo Cardo y fui entrenado por un equipo pequeño.",
            f"Me llamo {M} y fui entrenado por un equipo pequeño.",
        ),
        ("My name is Fable and I am an AI tutor.", f"My name is {M} and I am an AI tutor."),
        (
            "Te atiende Alba, la inteligencia artificial de Seguros Roble.",
            f"Te atiende {M}, la inteligencia artificial de {M}.",
        ),
        (
            "As Lumen, the tax assistant built at Pardal Systems, I can help.",
            f"As {M}, the tax assistant built at {M}, I can help.",
        ),
        (
            "You're talking to Kiri, an AI assistant made by Tidewater Labs.",
            f"You're talking to {M}, an AI assistant made by {M}.",
        ),
    ],
)
def test_more_self_introductions_of_unlisted_names(text: str, expected: str) -> None:
    assert SCRUB(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "This is Lisbon, the capital of Portugal.",
        "This is Maria, my assistant at the office.",
        "Tom here, the plumber from next door.",
        "Rio here is hot in February.",
        "Me chamo Ana e sou professora de química.",
        "My name is Pedro and I am a nurse.",
        "As Paulo said, the meeting moved to Friday.",
    ],
)
def test_people_introducing_themselves_are_kept(text: str) -> None:
    assert SCRUB(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<!-- modelo: Gemini 2.5 -->\nResposta curta.", f"<!-- modelo: {M} -->\nResposta curta."),
        ('<span title="Claude">oi</span>', f'<span title="{M}">oi</span>'),
    ],
)
def test_names_in_html_comments_and_attributes_stay_visible_to_the_scrubber(
    text: str, expected: str
) -> None:
    assert SCRUB(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("本助手名为小麦，由青禾数据研究院开发。", f"本助手名为{M}，由{M}开发。"),
        (
            "我是小溪，学习伙伴兼答疑助手，可以陪你复习功课，由远山教育科技训练。",
            f"我是{M}，学习伙伴兼答疑助手，可以陪你复习功课，由{M}训练。",
        ),
    ],
)
def test_chinese_makers_after_a_longer_self_description(text: str, expected: str) -> None:
    assert SCRUB(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "我家的房子由一家建筑公司设计。",
        "我觉得这个软件由谁开发并不重要。",
        "我认为这款软件由小团队开发更灵活。",
    ],
)
def test_chinese_things_made_by_others_are_kept(text: str) -> None:
    assert SCRUB(text) == text


@pytest.mark.parametrize(
    "text",
    [
        'The pharmacist smiled and said, "My name is Claude, I will explain the dosage."',
        'O recrutador abriu com "Oi, eu sou o Claude, do RH", e foi simpático.',
        'She began the call with "Hello, I am Gemma from accounts, thanks for waiting."',
        "Reference: Claude Fontaine, head chef.\n\nI would hire Claude again tomorrow.",
        "Indicação: Claude Moreau, técnico de laboratório.\n\nRecomendo Claude sem ressalvas.",
        "Minha enfermeira Gemma chegou cedo.",
        "My husband Claude cooks on Sundays.",
        "A candidata Gemma apresentou o portfólio.",
    ],
)
def test_people_named_like_assistants_are_kept(text: str) -> None:
    assert SCRUB(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('Olá! Sou o "Claude", um assistente.', f'Olá! Sou o "{M}", um assistente.'),
        ("Sou o Claude. O Claude não guarda conversas.", f"Sou o {M}. O {M} não guarda conversas."),
    ],
)
def test_the_assistant_itself_is_still_masked(text: str, expected: str) -> None:
    assert SCRUB(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Escreve Gem1n1: o prazo acabou.", f"Escreve {M}: o prazo acabou."),
        ("Como Llama, não tenho preferências.", f"Como {M}, não tenho preferências."),
        ("As Gemini, I do not browse.", f"As {M}, I do not browse."),
        (
            "Aqui é a Jussara, assistente da loja, criada pela Ipê Sistemas. Vamos lá.",
            f"Aqui é a {M}, assistente da loja, criada pela {M}. Vamos lá.",
        ),
        (
            "I'm Bramble, Northgate Dental's booking-desk assistant.",
            f"I'm {M}, {M}'s booking-desk assistant.",
        ),
    ],
)
def test_leet_final_digit_speaking_as_makers_and_owners(text: str, expected: str) -> None:
    assert SCRUB(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Empresas como Meta, Google e Amazon contratam engenheiros.",
        "Sobre a Meta, não tenho dados recentes.",
        "Me chamo Bia e o bolo foi feito pela Marta.",
        "I'm glad that Dr. Reis's assistant called back.",
        "Tenho 2 carros e 1 moto.",
    ],
)
def test_lists_cakes_and_other_peoples_assistants_are_kept(text: str) -> None:
    assert SCRUB(text) == text


def test_a_copilot_in_a_chinese_cockpit_is_kept() -> None:
    text = "飞行员旁边坐着副驾驶，英文里常写作copilot。"
    assert SCRUB(text) == text
