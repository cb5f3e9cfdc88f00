"""The anonymiser's second redesign (issue 23): names decided by who speaks, not only by
lists. Every sentence here is written for these tests."""

from __future__ import annotations

import pytest

from review_app.anonymiser.anonymise import MARKER as M
from review_app.anonymiser.anonymise import Scrubber

# A round like the demonstration ones: versioned models whose stems are words of the language.
SCRUB = Scrubber(["Tuiuiú 2", "tuiuiu-ia/tuiuiu-2", "Aurora 4", "Assistente A", "2026-09-10"])


@pytest.mark.parametrize(
    "text",
    [
        "Comprei um celular da Apple e um fone da Samsung.",
        "A Microsoft lançou uma atualização do Windows ontem.",
        "A Meta, dona do WhatsApp, anunciou mudanças.",
        "Alibaba and Tencent reported lower profits this quarter.",
        "字节跳动旗下的抖音很受欢迎。",
        "A aurora boreal é visível no norte da Noruega.",
        "Vi um tuiuiú no Pantanal.",
        "O assistente a seguir foi útil.",
        "A reunião é em 2026-09-10.",
        'Ela disse: "Oi, eu sou a Marina, prazer!"',
        "— Eu sou o Pedro — respondeu o menino.",
        "I'm Sarah, and I live in Leeds.",
        "I'm Brazilian.",
        "Ernie, the night porter, keeps the keys.",
        "Mi vecino se llama Claude y cocina muy bien.",
        "我的同事Claude是法国人。",
        "我是学生，我喜欢读书。",
        "我是AI语言模型，不能上网。",
        "Sou um assistente de IA e vou responder em partes.",
        "I asked the assistant of Dr. Silva about the bill.",
    ],
)
def test_ordinary_uses_are_kept(text: str) -> None:
    assert SCRUB(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A company counts where the speaker names it as its maker, or once it names itself.
        ("Fui treinado pela Microsoft.", f"Fui treinado pela {M}."),
        ("Google me treinou. Sou o Gemini.", f"{M} me treinou. Sou o {M}."),
        (
            "I'm Gemini. Google trained me on public text.",
            f"I'm {M}. {M} trained me on public text.",
        ),
        # A round's stem counts where the text names itself or a model, or signs with it.
        ("Eu sou o Tuiuiú e vou ajudar.", f"Eu sou o {M} e vou ajudar."),
        ("O Tuiuiú é um modelo de linguagem.", f"O {M} é um modelo de linguagem."),
        ("Segue a resposta. — Tuiuiú", f"Segue a resposta. — {M}"),
        ("Sou o Tuiuiú 2.", f"Sou o {M}."),
        ("A Assistente A respondeu.", f"A {M} respondeu."),
        # An introduction in no list: confirmed by the help offered or an opening greeting.
        ("Hi! I'm Zorbel. How can I help you today?", f"Hi! I'm {M}. How can I help you today?"),
        ("¡Hola! Soy Brisa. ¿En qué puedo ayudarte?", f"¡Hola! Soy {M}. ¿En qué puedo ayudarte?"),
        (
            "You're chatting with Orla, an AI assistant.",
            f"You're chatting with {M}, an AI assistant.",
        ),
        ("我是小瑞，很高兴为你服务。", f"我是{M}，很高兴为你服务。"),
        ("我是Zorblax。", f"我是{M}。"),
        # The organisation the speaker serves.
        (
            "I'm Nora, the virtual assistant of Pinecrest Savings.",
            f"I'm {M}, the virtual assistant of {M}.",
        ),
        (
            "Soy Max, tu asistente de la aseguradora Solvera.",
            f"Soy {M}, tu asistente de la aseguradora {M}.",
        ),
        ("我是小北，北辰银行的智能客服。", f"我是{M}，{M}的智能客服。"),
        # Lexicon: Korean and Japanese names, whole Hangul syllables.
        ("안녕하세요, 저는 하이퍼클로바X입니다.", f"안녕하세요, 저는 {M}입니다."),
        ("私はサカナAIのモデルです。", f"私は{M}のモデルです。"),
        # Markup inside a name, a web address, a header label.
        ("Eu sou o Cl**au**de.", f"Eu sou o {M}."),
        ("I'm [Gemini](https://gemini.google.com).", f"I'm [{M}](https://{M}.{M})."),
        ("modelo: qwen-3\norganização: Maritaca\n", f"modelo: {M}\norganização: {M}\n"),
        ("Eu, Gemini, não sei.", f"Eu, {M}, não sei."),
    ],
)
def test_self_identification_is_masked(text: str, expected: str) -> None:
    assert SCRUB(text) == expected
