"""The anonymiser's fourth round (issue 23): general classes of leaks and of false
alterations, each in pt-BR, English, Spanish and Chinese with the innocent counterpart that
fails if the rule reaches too far. Every sentence here is written for these tests."""

from __future__ import annotations

import pytest

from review_app.anonymiser.anonymise import MARKER as M
from tests.support.anonymiser_checks import SCRUB
from tests.support.anonymiser_checks import assert_kept as _kept
from tests.support.anonymiser_checks import assert_masked as _masked

# --- people named like assistants --------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Se a professora de inglês, a Gemma, der aula em casa, peça um horário fixo.",
        "A Kimi, sua gatinha, precisa de vacina todo ano.",
        "If Ernie, your brother-in-law, offers a ladder, accept it.",
        "Claude, their landlord, fixed the boiler on Sunday.",
        "Tu compañera Gemma dejó las llaves en la recepción.",
        "En el club todos llamaban Ernie a mi tío Ernesto.",
        "Ask Claude whether he can drive you to the station.",
        "Ontem a Gemma avisou que ela vai se atrasar.",
        "Si Kimi, tu cuñado, trae la parrilla, compra más carbón.",
        "克劳德明天来吃饭，他会带一瓶酒。",
        "克劳德·德彪西是法国作曲家。",
        "Nome: Alice Ferreira\nIdade: 41",
    ],
)
def test_people_named_like_assistants_are_kept(text: str) -> None:
    _kept(text)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Sou o Claude, e ele é o seu professor.", "Claude"),
        ("I'm Gemma, and she asked me about the trip.", "Gemma"),
        ("Soy Kimi, un asistente; ella me preguntó por el tren.", "Kimi"),
        ("我是克劳德，由一家AI公司开发。", "克劳德"),
    ],
)
def test_an_assistant_speaking_of_a_person_still_goes(text: str, name: str) -> None:
    _masked(text, name)


# --- a name hidden is a name, whatever its class ------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Bom dia! Aqui fala o \u202einimeG\u202c, pode perguntar.",
            f"Bom dia! Aqui fala o {M}, pode perguntar.",
        ),
        ("Greetings from Mis\u2060tral: pack light.", f"Greetings from {M}: pack light."),
        ("Saludos de Gr\u200bok: lleva paraguas.", f"Saludos de {M}: lleva paraguas."),
        ("我是通·义·千·问，孩子择校先看学区。", f"我是{M}，孩子择校先看学区。"),
        ("本回答来自月 之 暗 面的模型。", f"本回答来自{M}的模型。"),
        ("I'm CIaude, happy to help.", f"I'm {M}, happy to help."),
        ("Gracias a L\u0406ama, todo salió bien.", f"Gracias a {M}, todo salió bien."),
        ("Soy Cl@ude y te ayudo con eso.", f"Soy {M} y te ayudo con eso."),
        ("I am G\u20acmini, ask away.", f"I am {M}, ask away."),
        ("Aqui é o G+e+m+i+n+i, pode falar.", f"Aqui é o {M}, pode falar."),
        ("Hola, soy C~l~a~u~d~e.", f"Hola, soy {M}."),
        ("Hi, I'm Clau-\nde, and I can help.", f"Hi, I'm {M}, and I can help."),
        ("Sou o Gem\nini e posso ajudar.", f"Sou o {M} e posso ajudar."),
        ("**G**rok aqui, pode falar.", f"**{M} aqui, pode falar."),
        ("你好，**Ki**mi为你服务。", f"你好，**{M}为你服务。"),
    ],
)
def test_hidden_names_go(text: str, expected: str) -> None:
    assert SCRUB(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "La llama del fogón estaba baja y el guiso tardó.",
        "Illinois e Iowa plantam muito milho.",
        "Use a, b e c como variáveis; x + y = z.",
        "Escreva para ana@exemplo.org se precisar.",
        "Choose option A | B | C in the form.",
        "我 爱 你 是 一 句 很 常 见 的 话。",
        "Sou de Gêmeos e\nnasci em junho.",
        "O nome da aula é\nClaudete, como a professora.",
    ],
)
def test_ordinary_marks_and_letters_are_kept(text: str) -> None:
    _kept(text)


# --- self-introductions in other languages and greetings ----------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Ciao, sono Mistral! Sigo em português: regue a planta.", "Mistral"),
        ("Hallo, ich bin Gemini. Now in English: rest well.", "Gemini"),
        ("Hello from Grok: the train leaves at nine.", "Grok"),
        ("Olá da Gemini! O bolo precisa de mais açúcar.", "Gemini"),
        ("Saludos desde Mistral: lleva abrigo.", "Mistral"),
        ("Quem te escreve é o Grok; vamos ao orçamento.", "Grok"),
        ("Quien te responde es Gemini; vamos al grano.", "Gemini"),
        ("Me llaman Grok, y te ayudo con la mudanza.", "Grok"),
        ("I go by Mistral, and here is the plan.", "Mistral"),
        ("你可以叫我豆包，很高兴为你服务。", "豆包"),
    ],
)
def test_more_self_introductions(text: str, name: str) -> None:
    _masked(text, name)


@pytest.mark.parametrize(
    "text",
    [
        "Tive sono na aula e a Nova Escola fechou cedo.",
        "Hello from Lisbon: the weather is lovely.",
        "Hello from Lisbon!",
        "Hello from Falcon Heights!",
        "Saludos desde Sevilla, donde hace calor.",
        "我的朋友叫Kimi，他是厨师。",
        "妈妈叫我回家，帮她做饭。",
    ],
)
def test_greetings_and_sleep_are_kept(text: str) -> None:
    _kept(text)


# --- labels, tables, lists and signatures ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("| campo | valor |\n|---|---|\n| Assistente | Grok 3 |\n", "Grok"),
        ("| Model | Mistral |\n| Topic | tax |", "Mistral"),
        ("**回答者：**「元宝」\n\n先说结论。", "元宝"),
        ("模型：豆包\n\n建议先存钱。", "豆包"),
        ("- Nome: Gemini\n- Criador: Google", "Gemini"),
        ("**Nombre:** Grok\n**Creador:** xAI", "Grok"),
        ("**Modelo:** Mistral\n\nRespuesta: sí.", "Mistral"),
        ("Abraços,\nGemini", "Gemini"),
        ("Best regards,\nGrok", "Grok"),
        ("Un saludo,\n— Mistral", "Mistral"),
        ("Seu assistente, Gemini, recomenda descanso.", "Gemini"),
        ("## 豆包的建议\n\n1. 先查征信。", "豆包"),
    ],
)
def test_labelled_and_signed_names_go(text: str, name: str) -> None:
    _masked(text, name)


@pytest.mark.parametrize(
    "text",
    [
        "| Empresa | Cargo |\n|---|---|\n| Google | analista |",
        "Nome: Alice Souza\nCidade: Recife",
        "Abraços,\nAna",
        "Best,\nAlice Walker",
        "- Name: Maria\n- Age: 30",
        "我们去动物园看羊驼，孩子很开心。",
    ],
)
def test_ordinary_labels_and_signatures_are_kept(text: str) -> None:
    _kept(text)


# --- makers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("The engineers at Cohere trained me to keep answers short.", "Cohere"),
        ("Alibaba Cloud built me for customer questions.", "Alibaba"),
        ("Me creó el equipo de Cohere y te ayudo con el presupuesto.", "Cohere"),
        ("Me treinou a equipe da Meta, e eu sigo as regras.", "Meta"),
        ("谷歌训练了我，所以我会说很多语言。", "谷歌"),
        ("Esta resposta foi escrita pelo Gemini.", "Gemini"),
        ("This answer was written by Mistral.", "Mistral"),
        ("Funciono con tecnología de Gemini.", "Gemini"),
        ("Este assistente usa tecnologia do Gemini.", "Gemini"),
        ("This assistant is powered by Llama.", "Llama"),
        ("作为由星河智能开发的AI，我不能上网。", "星河智能"),
        ("I'm OpenAI's model, here to help.", "OpenAI"),
        ("O Gemini foi treinado pelo Google e responde em português.", "Google"),
        ("Este modelo foi treinado pelo Google.", "Google"),
        ("Yo fui entrenado por Google.", "Google"),
    ],
)
def test_makers_go(text: str, name: str) -> None:
    _masked(text, name)


@pytest.mark.parametrize(
    "text",
    [
        "Many people sell sofas on Facebook Marketplace, which is owned by Meta.",
        "O WhatsApp, que é controlado pela Meta, mudou as regras.",
        "Instagram, que fue comprado por Meta, cambió su diseño.",
        "My car is based on the Tesla model from 2019.",
        "这款手机基于骁龙芯片，续航不错。",
        "Veja a [Meta](https://www.ibge.gov.br/metas) do IBGE.",
        "Read [the manual](https://example.org/llama) first.",
        "My coach trained me for the marathon.",
        "This laptop runs on Windows and was made by Lenovo.",
        "O celular foi fabricado pela Samsung e desenvolvido pela Google.",
        "El teléfono fue desarrollado por Google el año pasado.",
    ],
)
def test_makers_of_other_things_are_kept(text: str) -> None:
    _kept(text)


# --- the organisation an assistant serves, and the model it runs on -------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Oi, aqui é a Lila, atendente virtual da Farmácia Ipê! Posso ajudar.", "Farmácia Ipê"),
        ("Bom dia, sou o Dito, o atendente digital da Seguradora Aroeira.", "Aroeira"),
        ("¡Hola! Soy Nico, el ayudante de ventas de Librería La Ceiba.", "La Ceiba"),
        ("Soy Tina, la asistente de reservas escolares de la agencia Rumbosur.", "Rumbosur"),
        ("I'm Moss, the booking assistant that Harrow Dental uses for its clinics.", "Harrow"),
        (
            "Hi! I'm Juno from the Brightwater Library help desk, an AI made by Quillon.",
            "Brightwater",
        ),
        (
            "I'm Fern, an AI tutor created by Oakline Learning for the Marsh Trust's office.",
            "Marsh Trust",
        ),
        ("Hola, soy Spark de iFlytek.", "iFlytek"),
        ("我是阿福，福星银行手机银行里的智能助理。", "福星银行"),
        ("I'm the shop's assistant, running on the abab model.", "abab"),
        ("Funciono com o modelo Tatu, treinado aqui.", "Tatu"),
        ("Estoy basado en el modelo Quimera.", "Quimera"),
        ("我基于星河大模型，可以帮你。", "星河"),
    ],
)
def test_own_organisations_and_models_go(text: str, name: str) -> None:
    _masked(text, name)


@pytest.mark.parametrize(
    "text",
    [
        "A atendente da Padaria Central disse que o pão sai às seis.",
        "I asked the assistant at Harrow Dental about the bill.",
        "El ayudante de cocina de Casa Lucio renunció.",
        "My laptop is running on the same model as yours.",
        "这家银行的客服很耐心。",
    ],
)
def test_other_peoples_organisations_are_kept(text: str) -> None:
    _kept(text)


# --- "an AI called X" ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I'm an AI called Claude.", "Claude"),
        ("Sou uma assistente virtual chamada Bruma.", "Bruma"),
        ("Soy un asistente llamado Grok.", "Grok"),
        ("I'm an AI assistant called Zorbel, and I can help.", "Zorbel"),
        ("我是一个叫小溪的助手。", "小溪"),
        ("我是一个叫Kimi的助手。", "Kimi"),
    ],
)
def test_an_assistant_called_something_goes(text: str, name: str) -> None:
    _masked(text, name)


@pytest.mark.parametrize(
    "text",
    [
        "There is a chatbot called Gemini that my nephew uses.",
        "My friend's dog is called Claude.",
        "Conheci uma moça chamada Gemma na feira.",
        "Tengo un perro llamado Ernie.",
    ],
)
def test_somebody_else_called_something_is_kept(text: str) -> None:
    _kept(text)


# --- what real models write besides -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("As an AI developed by Vantor Labs, I cannot browse.", "Vantor"),
        ("My training data (as GPT-4) ends in 2023.", "GPT"),
        ("I run as claude-3-5-sonnet-20241022 today.", "claude"),
        ('```python\nclient.create(model="gpt-4o-mini")\n```', "gpt"),
        ("Veja https://api.anthropic.com/v1/messages para detalhes.", "anthropic"),
        ("Consulta https://chat.deepseek.com/ para más.", "deepseek"),
        ("本助手基于豆包大模型。", "豆包"),
        ("- 名称：豆包\n- 开发者：字节跳动", "字节跳动"),
        ("Soy Llama, de Meta.", "Meta"),
        ("[Gemini](https://gemini.google.com) aqui para ajudar.", "[Gemini]"),
        ("[Grok](https://grok.com/) te responde.", "[Grok]"),
    ],
)
def test_what_real_models_write(text: str, name: str) -> None:
    _masked(text, name)
