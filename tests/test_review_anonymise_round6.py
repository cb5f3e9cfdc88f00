"""The anonymiser's sixth round (issue 23): general classes of leaks and of false
alterations, each in pt-BR, English, Spanish and Chinese where the class exists there, with
the innocent counterpart that fails if the rule reaches too far. Every sentence here is
written for these tests."""

from __future__ import annotations

import pytest

from review_app.anonymiser.anonymise import MARKER, Scrubber
from tests.support.anonymiser_checks import assert_kept as _kept
from tests.support.anonymiser_checks import assert_masked as _masked

# --- a maker or a product in the news, in business, in somebody's hands ---------------------


@pytest.mark.parametrize(
    "text",
    [
        "The radio said OpenAI and Google are hiring in Recife this year.",
        "O telejornal falou da Anthropic e de outras empresas de tecnologia em Lisboa.",
        "Leí en el periódico que DeepSeek bajó sus precios y que Mistral abrió oficinas.",
        "据新闻报道，OpenAI 和 Google 都在招聘实习生。",
        "Nvidia's shares fell, and OpenAI's valuation was in the headlines again.",
        "My brother uses ChatGPT for his homework, and his teacher is fine with it.",
        "Muitos estudantes usam o ChatGPT para revisar redações.",
        "The Copilot app and the Gemini app both need an account, your school says.",
        "Minha prima trabalha na Anthropic e gosta do emprego.",
    ],
)
def test_makers_and_products_in_the_news_or_in_use_are_kept(text: str) -> None:
    _kept(text)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        # The answer names itself elsewhere: its maker in the news goes too.
        ("Sou o ChatGPT. A OpenAI anunciou novas vagas, diz o jornal.", ("ChatGPT", "OpenAI")),
        # The speaker is in the sentence: "the company that made me".
        ("OpenAI, the company that made me, has offices in many cities.", ("OpenAI",)),
        ("Anthropic, la empresa que me creó, tiene sede en San Francisco.", ("Anthropic",)),
        ("Obrigado por usar o ChatGPT! Volte sempre.", ("ChatGPT",)),
        ("DeepSeek公司开发了我，新闻里常提到它。", ("DeepSeek",)),
    ],
)
def test_a_maker_in_the_news_of_an_answer_that_names_itself_goes(
    text: str, names: tuple[str, ...]
) -> None:
    _masked(text, *names)


# --- words that are names only when written as names ----------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "The copilot asked everyone to fasten their seat belts before the turbulence.",
        "On the road trip your daughter can be your copilot and read the map.",
        "The minimax rule picks the move whose worst outcome is the least bad.",
        "Em teoria dos jogos, o critério minimax minimiza a perda máxima.",
        "Convierte el disco a GPT antes de instalar Windows.",
        "硬盘分区表选 GPT 还是 MBR？新电脑一般用 GPT。",
        "经济学家把蒸汽机和电力都叫作 GPT，即通用目的技术。",
        "Hay una clase magistral de piano el sábado.",
        "Don't let your sister upstage you at the recital.",
        "A salamandra-de-fogo vive em florestas úmidas.",
    ],
)
def test_ordinary_words_spelled_like_names_are_kept(text: str) -> None:
    _kept(text)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Hi, I'm Copilot, and I can draft the email.", ("Copilot",)),
        ("MiniMax 的 abab 模型为你解答：先准备材料。", ("MiniMax", "abab")),
        ("Soy Magistral, el modelo de razonamiento de Mistral AI.", ("Magistral", "Mistral")),
        ("Hello, I'm Watson, IBM's assistant; your claim needs two receipts.", ("Watson",)),
    ],
)
def test_the_same_words_as_names_go(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


def test_a_surname_that_is_an_assistant_is_kept() -> None:
    _kept("Emma Watson studied literature before her second film.")


# --- tables: who answers, and who a column of people holds -----------------------------------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("| Assistente | Dica |\n|---|---|\n| Gemini | Guarde os recibos. |", ("Gemini",)),
        ("| Assistant | Advice |\n| --- | --- |\n| Grok | Pay the card first. |", ("Grok",)),
        ("| Modelo | Respuesta |\n|---|---|\n| Llama | Sí, puedes. |", ("Llama",)),
        ("| 助手 | 建议 |\n|---|---|\n| Deep | Seek | 先还利息高的 |", ("Deep | Seek",)),
        ("| # | Chatbot | Tip |\n|---|---|---|\n| 1 | Mistral | Read it |", ("Mistral",)),
    ],
)
def test_a_name_in_a_tables_identity_column_goes(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


@pytest.mark.parametrize(
    "text",
    [
        "| Carro | Modelo |\n|---|---|\n| Chevrolet | Spark |",
        "| Aluno | Nota |\n|---|---|\n| Claude | 9,5 |",
        "| Patient | Time |\n|---|---|\n| Kimi | 11:00 |",
        "| Enfermera | Turno |\n|---|---|\n| Gemma | Noche |",
        "| 姓名 | 年龄 |\n|---|---|\n| Ernie | 7 |",
    ],
)
def test_tables_of_cars_and_people_are_kept(text: str) -> None:
    _kept(text)


# --- names hidden by emoji and by letter forms ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("我是通💡义💡千💡问，先说结论。", ("通💡义💡千💡问",)),
        ("你好，我是豆🫘包。", ("豆🫘包",)),
        ("Como 𝐆𝐞𝐦𝐢𝐧𝐢, sugiro comparar as ofertas.", ("𝐆𝐞𝐦𝐢𝐧𝐢",)),
        ("Soy 𝓜𝓲𝓼𝓽𝓻𝓪𝓵 y te ayudo con la mudanza.", ("𝓜𝓲𝓼𝓽𝓻𝓪𝓵",)),
        ("As Ｇｒｏｋ, I'd compare the two offers.", ("Ｇｒｏｋ",)),
    ],
)
def test_names_parted_by_emoji_or_in_letter_forms_go(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


@pytest.mark.parametrize(
    "text",
    [
        "我爱吃🍎，也爱吃🍐。",
        "我的星座是Ｇｅｍｉｎｉ（双子座）。",
    ],
)
def test_emoji_and_letter_forms_that_hide_nothing_are_kept(text: str) -> None:
    _kept(text)


# --- how a speaker names itself ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Me llamo Le Chat y te explico el formulario.", ("Le Chat",)),
        ("I'm Le Chat, and here is a plan for the move.", ("Le Chat",)),
        ("As Gemini, I'll keep this short: file it online.", ("Gemini",)),
        ("Como Gemini, te digo que el plazo vence el lunes.", ("Gemini",)),
        ("Enquanto Gemini, não posso ver seus documentos.", ("Gemini",)),
        ("Como o Llama 3 que está conversando com você, sugiro guardar tudo.", ("Llama",)),
        ("Grok, at your service. The fine can be appealed.", ("Grok",)),
        ("Gemini a seu dispor! Vamos ao plano.", ("Gemini",)),
        ("¡Hola! Siri por aquí. Tu cita es el martes.", ("Siri",)),
        ("Perplexity answer: the deadline is 30 days.", ("Perplexity",)),
        ("Cortana, Microsoft's assistant, recommends checking the deposit.", ("Cortana",)),
        ("Google's engineers trained me, so ask away.", ("Google",)),
        ("Os engenheiros do Google me treinaram para isso.", ("Google",)),
        ("百度的工程师训练了我：先准备护照。", ("百度",)),
        ("谷歌是我的开发者，所以我会谨慎回答。", ("谷歌",)),
        ("Sou um produto do Google e posso explicar o formulário.", ("Google",)),
        ("Mi empresa creadora es Meta; te explico el trámite.", ("Meta",)),
        ("元宝提醒你：面试前准备好身份证。", ("元宝",)),
        ("豆包来啦！报名前先准备户口本。", ("豆包",)),
    ],
)
def test_more_ways_a_speaker_names_itself_go(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


@pytest.mark.parametrize(
    "text",
    [
        "I'm a Gemini, so I can never decide between two flats.",
        "I'm Gemini, by star sign, so my horoscope says wait.",
        "As a nurse, I'd check the dosage twice.",
        "Como o Google Maps mostra, a clínica fica perto.",
        "Nova por aqui é o nome de uma loja de móveis.",
        "Alexa, a assistente social do posto, vai ligar para você.",
        "妈妈提醒你，明天要带伞。",
        "春天来啦！记得带孩子去打疫苗。",
        "豆包来了！先准备面粉和豆沙馅。",
        "Meu vizinho Claude pode estar errado sobre a data da reunião.",
    ],
)
def test_the_same_patterns_about_others_are_kept(text: str) -> None:
    _kept(text)


# --- what a maker made is a model ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Rate this answer from Grok[^1].\n\n[^1]: Grok is made by xAI.", ("Grok", "xAI")),
        ("Nota: Gemini foi criado pelo Google. Siga os passos.", ("Gemini", "Google")),
        ("Dato: Llama fue entrenado por Meta.", ("Llama", "Meta")),
    ],
)
def test_a_name_made_by_a_maker_goes(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


def test_something_else_made_by_a_company_is_kept() -> None:
    _kept("The Falcon 9 rocket was built by SpaceX and flew again.")


# --- names in no list: greetings, welcomes, openings, roles -------------------------------------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Bienvenida, soy Brisa, de la Clínica Santa Rita; tu cita sigue en pie.", ("Brisa",)),
        (
            "Good morning, I'm Zara with Oakridge Credit Union. Your loan is approved.",
            ("Zara", "Oakridge"),
        ),
        (
            "Buen día, soy Orion, de la Cooperativa Alto Sol. Tu préstamo salió.",
            ("Orion", "Alto Sol"),
        ),
        ("Lina, da Seguros Atalaia, falando. Seu sinistro foi aberto.", ("Lina", "Atalaia")),
        ("Sunny from Coastline Energy here — your bill is ready.", ("Sunny", "Coastline")),
        ("Lumen — assistente virtual\n\nVeja os passos para a matrícula.", ("Lumen",)),
        ("Hey! It's Milo, your virtual coach from FitLife. Let's plan.", ("Milo", "FitLife")),
        (
            "Meet Ava, Northwind Bank's digital assistant. Ava can help with cards.",
            ("Ava", "Northwind"),
        ),
        ("Conheça a Iris, a assistente digital do Hospital Central.", ("Iris", "Central")),
        (
            "Seu assistente virtual Kira, do Banco Aurora, informa: o boleto vence.",
            ("Kira", "Aurora"),
        ),
        ("Kira, assistente virtual do Banco Aurora, informa: o boleto vence.", ("Kira", "Aurora")),
        (
            "Oi, eu sou o Guia+ da Escola Vento Sul. A matrícula vai até sexta.",
            ("Guia+", "Vento Sul"),
        ),
        ("Hola, soy Nico 2.0, tu asistente. ¿En qué te ayudo?", ("Nico",)),
        ("Sou o Tico, chatbot oficial do Banco Serra Azul.", ("Tico", "Serra Azul")),
    ],
)
def test_unlisted_names_of_more_introductions_go(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("您好，这里是启航家政的智能顾问阿禾，有什么可以帮您？", ("启航家政", "阿禾")),
        ("您好，这里是安居物业的客服小安。", ("安居物业", "小安")),
        ("我是华星银行的小智，很高兴为你服务。", ("华星银行", "小智")),
        ("我是绿洲医院的智能导诊助手小禾。", ("绿洲医院", "小禾")),
        ("小美来啦！今天帮你整理一下材料。", ("小美",)),
    ],
)
def test_unlisted_chinese_introductions_go(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


@pytest.mark.parametrize(
    "text",
    [
        "Hi, I'm Tom from apartment 4B, writing about the noise.",
        "Good morning, I'm Dr. Patel from the clinic. Your results are normal.",
        "Buenas tardes, soy Jorge, del comité de vecinos. La reunión es el lunes.",
        "Olá, tudo bem? Sou o João e gostaria de uma informação.",
        "Sou o Pedro, pai da Ana, e queria saber do horário.",
        "Hi, I'm Kevin, Alexa's dad — she'll miss school tomorrow.",
        "Meet Maria, our new nurse, on Monday at the clinic.",
        "It's Monday, so the office opens at nine.",
        "Ask your assistant Maria to book the room.",
        "Maria — assistente administrativa do RH.",
        "小明在这里等你，有什么事找他。",
        "我是公司的老员工，可以告诉你流程。",
    ],
)
def test_people_introducing_themselves_are_kept(text: str) -> None:
    _kept(text)


# --- people named like assistants ------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Claude from the bakery delivers on Saturdays.",
        "Gemma from the leasing office said the lease starts on the 15th.",
        "A Gemma da imobiliária mandou o contrato.",
        "Pregunta a Kimi, de la inmobiliaria, por las llaves.",
        'O advogado Ernesto "Ernie" Vaz atende inquilinos.',
        'The lawyer Claudio "Claude" Reyes takes housing cases.',
        "Claude's Bakery on Main Street sells gluten-free bread.",
    ],
)
def test_people_at_work_with_nicknames_and_shops_are_kept(text: str) -> None:
    _kept(text)


def test_an_assistant_from_its_maker_still_goes() -> None:
    _masked("Sou o Claude, da Anthropic, e posso ajudar.", "Claude", "Anthropic")


# --- closing lines -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Thanks for chatting with Pi! Come back anytime.", ("Pi",)),
        ("Obrigado por usar o Gemini! Boa sorte.", ("Gemini",)),
        ("That's all from Siri today.", ("Siri",)),
        ("Your friend,\nPi", ("Pi",)),
        ("Um abraço,\nsua assistente Alexa", ("Alexa",)),
        ("Abraços do Gemini! Boa sorte com a mudança.", ("Gemini",)),
        ("Hope this helps! Gemini, signing off.", ("Gemini",)),
        ("Grok out. Good luck.", ("Grok",)),
        ("Written by Mistral\n\nCompare the prices.", ("Mistral",)),
        ("<!-- respondido por Siri -->\nA farmácia abre às 8h.", ("Siri",)),
        ("(Resposta: Cortana)", ("Cortana",)),
        ("Gemini can make mistakes, so double-check the dates with the clinic.", ("Gemini",)),
        ("Grok puede cometer errores; confirma la fecha con el banco.", ("Grok",)),
        ("Kimi 可能会出错，请核实重要信息。", ("Kimi",)),
    ],
)
def test_closing_lines_that_name_the_speaker_go(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


@pytest.mark.parametrize(
    "text",
    [
        "Thanks for using the library's website to book the room.",
        "That's all from the school office for this week.",
        "Take care,\nMarta",
        "Resposta: sim, pode pedir o reembolso.",
        "Hasta pronto,\nLucía",
        "The pilot said the Falcon can make mistakes in the fog, like any bird.",
    ],
)
def test_closing_lines_of_people_are_kept(text: str) -> None:
    _kept(text)


# --- openings with what the speaker is, and its maker earlier in the sentence ----------------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        (
            "Remy (Greenfield Transit's assistant) here: your pass renews Monday.",
            ("Remy", "Greenfield"),
        ),
        (
            "Sol, asistente de Inmobiliaria Brisa, al habla. Tu visita es mañana.",
            ("Sol", "Inmobiliaria Brisa"),
        ),
        ("Hi there, Ivy here — Maplewood Library's virtual helper.", ("Ivy", "Maplewood")),
        ("Sou a Bia 🤖, da Clínica Viver. Sua consulta foi confirmada.", ("Bia", "Viver")),
        ("Fui desenvolvido pela Jaguar Tech e me chamo Tupi.", ("Jaguar", "Tupi")),
        ("小云为您服务～请按时还款。", ("小云",)),
    ],
)
def test_openings_that_say_what_speaks_go(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


@pytest.mark.parametrize(
    "text",
    [
        "Tom (my neighbour) here: the parcel is with me.",
        "Fui criado pela minha avó e me chamo Ana.",
        "Eu sou o Teo, irmão da Carla, e queria um orçamento.",
        "Hello! I'm Otto, the new intern in accounting.",
        "妈妈为你做了饭，快来吃。",
    ],
)
def test_openings_of_people_are_kept(text: str) -> None:
    _kept(text)


# --- a round's own names are never news ------------------------------------------------------


def test_a_round_name_in_the_news_is_masked_without_unmasking_the_rest() -> None:
    """What the review is blind to is masked in any sentence (the round's models and makers:
    tests/test_review_anonymise.py::test_no_round_name_survives); that alone says nothing of
    who wrote the answer, so the other makers in the news stay."""
    scrub = Scrubber(["GPT-4o", "OpenAI", "openai/gpt-4o"])
    text = "The radio said OpenAI and Google are hiring; Anthropic too, the paper says."
    assert scrub(text) == (
        f"The radio said {MARKER} and Google are hiring; Anthropic too, the paper says."
    )
    assert scrub("最近 OpenAI 和 Google 的新闻很多。") == f"最近 {MARKER} 和 Google 的新闻很多。"
