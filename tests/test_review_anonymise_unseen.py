"""The anonymiser on the classes of text that reached reviewers or were wrongly altered in
issue 23 (sentences written for this test, not taken from any corpus)."""

from __future__ import annotations

import pytest

from review_app.anonymiser.anonymise import MARKER, Scrubber

M = MARKER
SCRUB = Scrubber(["Sabiá-4", "Maritaca AI", "Qwen 3.6 Flash", "Alibaba", "Mistral", "Le Chat"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我是Claude，由Anthropic开发。", f"我是{M}，由{M}开发。"),
        ("你好！我是Qwen3.6，来自阿里云。", f"你好！我是{M}，来自{M}。"),
        ("我是通义千问，由阿里巴巴开发的大模型。", f"我是{M}，由{M}开发的大模型。"),
        ("我是文心一言，百度推出的助手。", f"我是{M}，{M}推出的助手。"),
        ("我是豆包，字节跳动的AI助手。", f"我是{M}，{M}的AI助手。"),
        ("我是DeepSeek，由深度求索公司开发。", f"我是{M}，由{M}公司开发。"),
        ("我是Kimi，由月之暗面开发。", f"我是{M}，由{M}开发。"),
        ("作为智谱清言，我会认真回答。", f"作为{M}，我会认真回答。"),
        ("讯飞星火认为这个问题没有答案。", f"{M}认为这个问题没有答案。"),
        ("我是腾讯混元大模型。", f"我是{M}大模型。"),
        ("豆包大模型给出的回答是：不能判断。", f"{M}大模型给出的回答是：不能判断。"),
        ("Answer from GPT-4o给出：不知道。", f"Answer from {M}给出：不知道。"),
    ],
)
def test_chinese_and_mixed_script_names_are_masked(text: str, expected: str) -> None:
    assert SCRUB(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "早餐我吃了一个豆包和一碗粥。",
        "月之暗面从地球上看不到。",
        "刘勰的《文心雕龙》是文学批评的经典。",
        "海纳百川，有容乃大。",
        "星星之火，可以燎原；星火点点。",
    ],
)
def test_chinese_everyday_words_are_kept(text: str) -> None:
    assert SCRUB(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Soy Gemini, un modelo de Google.", f"Soy {M}, un modelo de {M}."),
        ("Me llamo Llama y fui entrenado por Meta.", f"Me llamo {M} y fui entrenado por {M}."),
        (
            "Mi nombre es Mistral, desarrollado por Mistral AI.",
            f"Mi nombre es {M}, desarrollado por {M}.",
        ),
        ("Je suis Gemini, développé par Google.", f"Je suis {M}, développé par {M}."),
        ("Je m'appelle Grok et je réponds.", f"Je m'appelle {M} et je réponds."),
        ("Soy un asistente entrenado por Initech Labs.", f"Soy un asistente entrenado por {M}."),
        (
            "Je suis un modèle de langage conçu par Acme Research.",
            f"Je suis un modèle de langage conçu par {M}.",
        ),
        ("Como Llama, eu evito generalizações.", f"Como {M}, eu evito generalizações."),
    ],
)
def test_spanish_and_french_self_introductions(text: str, expected: str) -> None:
    assert SCRUB(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Eu sou o C-l-a-u-d-e.", f"Eu sou o {M}."),
        ("I am G.P.T, a language model.", f"I am {M}, a language model."),
        ("Sou o C l a u d e e respondo.", f"Sou o {M} e respondo."),
        ("I'm Cl4ude.", f"I'm {M}."),
        ("Fui treinado pela 0penAI.", f"Fui treinado pela {M}."),
        ("Meu nome é L1ama 3.", f"Meu nome é {M}."),
        ("Sou o Cla ude, da Anth ropic.", f"Sou o {M}, da {M}."),
        ("Sou o Сlаudе.", f"Sou o {M}."),  # Cyrillic С, а, е
        ("I was built by ОреnАI.", f"I was built by {M}."),  # Cyrillic О, р, е, А
        ("Sou o Gεmini.", f"Sou o {M}."),  # Greek ε
    ],
)
def test_disguised_names_are_masked(text: str, expected: str) -> None:
    assert SCRUB(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "A B C D E F G: o alfabeto.",
        "Vitamina A e B são importantes.",
        "Tenho 2 gatos e 3 cachorros; o mp3 e o b2b.",
        "The covid19 wave and the h1n1 flu.",
        "Cla ssic rock e pop.",
        "Сергей живёт в Москве.",
    ],
)
def test_ordinary_letters_and_digits_are_kept(text: str) -> None:
    assert SCRUB(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm Aria, your virtual assistant.", f"I'm {M}, your virtual assistant."),
        (
            "Eu sou a Lia, assistente virtual do Banco Tal.",
            f"Eu sou a {M}, assistente virtual do {M}.",
        ),
        ("Le Chat, da Mistral, responde: não.", f"{M}, da {M}, responde: não."),
        ("My name is Nimbus, an AI model.", f"My name is {M}, an AI model."),
        ("Hola, soy Brisa, tu asistente.", f"Hola, soy {M}, tu asistente."),
        ("Sou o Orion, desenvolvido pela Estrela Labs.", f"Sou o {M}, desenvolvido pela {M}."),
        ("我叫小智，一个由星辰科技开发的助手。", f"我叫{M}，一个由{M}开发的助手。"),
    ],
)
def test_names_in_no_list_are_masked_after_a_self_introduction(text: str, expected: str) -> None:
    assert SCRUB(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Pesquisei no Google e não achei nada.",
        "Segundo o Google, a viagem leva duas horas.",
        "I'm Brazilian, from São Paulo.",
        "Claude Debussy compôs Clair de Lune.",
        "我是学生。",
        "Just google it and see.",
        "Abra o Google Maps para ver a rota.",
        "The anthropic principle says observers shape what they can see.",
        "Electricity was a GPT: a general purpose technology.",
        "Ernie and Bert live on Sesame Street.",
        "Claude, the neighbour, fixed my fence.",
        "Meu vizinho Claude consertou a cerca.",
        "The copilot landed the plane safely.",
        "My co-pilot read the checklist.",
        "This car was made by Ford in 1965.",
        "The Model T was made by Ford.",
        "Esse modelo de ônibus foi criado pela Prefeitura.",
        "I drive a car made by Ford.",
        "O parque foi criado pela Prefeitura em 2010.",
        "Ela é de Gemini, o signo de ar.",
        "A llama grazed in the Andes.",
        "O Mistral sopra forte no sul da França.",
        "Minha meta é correr 10 km.",
        "Me chamo Ana e moro em Recife.",
        "I am from Brazil and I am happy to help.",
        "百度一下就知道了。",
    ],
)
def test_ordinary_uses_are_kept(text: str) -> None:
    assert SCRUB(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Fui treinado pelo Google.", f"Fui treinado pelo {M}."),
        ("Sou a IA da Meta.", f"Sou a IA da {M}."),
        ("According to Google, I am Gemini.", f"According to {M}, I am {M}."),
        ("I am Claude, made by Anthropic.", f"I am {M}, made by {M}."),
        ("Anthropic's model answered.", f"{M}'s model answered."),
        ("As a GPT model, I cannot know.", f"As a {M} model, I cannot know."),
        ("I'm Ernie Bot, from Baidu.", f"I'm {M}, from {M}."),
        ("GitHub Copilot suggested this code.", f"GitHub {M} suggested this code."),
        ("I am an AI assistant made by Ford Labs.", f"I am an AI assistant made by {M}."),
        ("Fui criado pela Prefeitura Digital.", f"Fui criado pela {M}."),
    ],
)
def test_the_same_names_in_self_identification_are_masked(text: str, expected: str) -> None:
    assert SCRUB(text) == expected
