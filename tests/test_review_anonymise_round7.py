"""The anonymiser's seventh round (issue 23): general classes of leaks and of false
alterations found on fresh5, each in pt-BR, English, Spanish and Chinese where the class
exists there, with the innocent counterpart that fails if the rule reaches too far. Every
sentence here is written for these tests (none is fresh5's), with assistants, makers and
organisations of other names."""

from __future__ import annotations

import pytest

from tests.support.anonymiser_checks import assert_kept as _kept
from tests.support.anonymiser_checks import assert_masked as _masked

# --- a letter of another alphabet or a Kangxi radical hides a name, whatever its class -------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        # Without any cue: a word written so is there to hide a name.
        ("Refunds take five days; \u13dairi checked the rules for you.", ("\u13dairi",)),
        ("O \u0184ard conferiu as regras do reembolso.", ("\u0184ard",)),
        ("Según Mistr\u0251l, el plazo es de treinta días.", ("Mistr\u0251l",)),
        ("This is \ua4dalaude: your refund is on its way.", ("\ua4dalaude",)),
        ("我是Kimi，也就是\u2f49之暗面的助手。", ("Kimi", "\u2f49之暗面")),
        ("这里是\u2f42\u2f3c\u2f00\u2f94，有问题尽管问。", ("\u2f42\u2f3c\u2f00\u2f94",)),
    ],
)
def test_look_alike_letters_hide_a_name(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


@pytest.mark.parametrize(
    "text",
    [
        "O signo de Gêmeos e o sono de Ícaro são temas de poemas.",
        "São Paulo e Bogotá têm metrôs lotados às seis da tarde.",
        "部首\u2f08和\u2f1d在字典里很常见。",
        "我的星座是Ｇｅｍｉｎｉ，所以我很爱聊天。",
    ],
)
def test_accents_radicals_and_fullwidth_in_chinese_are_kept(text: str) -> None:
    _kept(text)


# --- traditional Chinese reads as simplified ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("這裡是通義千問，請問需要什麼幫助？", ("通義千問",)),
        ("I'm 騰訊混元, and I can help with your lease.", ("騰訊混元",)),
        ("Soy 智譜清言; te explico el contrato de alquiler.", ("智譜清言",)),
        ("Segundo o 訊飛星火, o prazo é de trinta dias.", ("訊飛星火",)),
    ],
)
def test_traditional_script_names_go(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


@pytest.mark.parametrize(
    "text",
    [
        "這本書的意義很大，值得再讀一次。",
        "我們公司在騰訊大樓旁邊，新聞常常提到那裡。",
    ],
)
def test_traditional_script_without_names_is_kept(text: str) -> None:
    _kept(text)


# --- a signature at the end of a long answer: a role, a closing line, a respect ---------------

_BODY = "Compare the two offers line by line.\n\nThen sleep on it before you sign anything.\n\n"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        (_BODY + "With warm wishes for the move,\nGrok", ("Grok",)),
        ("Guarde os recibos.\n\nCompare as propostas.\n\n— sua assistente Alexa", ("Alexa",)),
        (
            "Guarda los recibos.\n\nCompara las ofertas.\n\n— firmado, tu asistente Gemini",
            ("Gemini",),
        ),
        ("先比较两份合同。\n\n不要急着签字。\n\n——您的助手 豆包 敬上", ("豆包",)),
        ("先比較兩份合同。\n\n不要急著簽字。\n\n——騰訊元寶 敬上", ("騰訊元寶",)),
    ],
)
def test_signatures_with_a_role_or_after_a_closing_line_go(
    text: str, names: tuple[str, ...]
) -> None:
    _masked(text, *names)


@pytest.mark.parametrize(
    "text",
    [
        # A draft the reader will sign, quoted or opened on a greeting to somebody.
        'Send this:\n\n"Hi, I\'m Kimi from 2C. The stairs need a light.\n\nThanks,\nKimi"',
        "Here is a note:\n\nHi Marta, the stairs need a light.\n\nWith thanks,\nClaude",
        "Para terminar,\nLlama a tu madre antes de firmar.",
        "E por fim,\nsolar é o terreno, não a casa.",
    ],
)
def test_drafts_and_ordinary_last_lines_are_kept(text: str) -> None:
    _kept(text)


# --- the speaker and its organisation where an answer opens -----------------------------------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Bexley here, from Ashford Credit Union. Your card is blocked.", ("Bexley", "Ashford")),
        ("Quill by Marlow Legal Aid speaking. Bring your lease.", ("Quill", "Marlow")),
        ("Sou a Nina, da Seguradora Porto Claro. O seu sinistro foi aberto.", ("Nina", "Porto")),
        ("Soy Leo, de Clínica Dental Sonrisa Norte. Tu cita es el lunes.", ("Leo", "Sonrisa")),
        ("Aqui é o Juca, do plano de saúde Bem Viver. Envie a guia.", ("Juca", "Bem Viver")),
        (
            "Welcome to Harbor Desk, the assistant of Keel Travel. Your bus leaves at 9.",
            ("Harbor", "Keel"),
        ),
        ("我是青松小学的伴读机器人，有问题可以问我。", ("青松小学", "伴读")),
    ],
)
def test_an_opening_speaker_and_its_organisation_go(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


@pytest.mark.parametrize(
    "text",
    [
        "Tom here, from apartment 4B. The parcel is with me.",
        "Soy Ana, de Madrid, y busco piso cerca del metro.",
        "Hi, I'm Sam from the Parents Association. We meet on Friday.",
        "Sou o Rui, da turma B, e queria saber das provas.",
        "Welcome to Lisbon, the capital of Portugal.",
        "我是青松小学的老师，想问一下报名的事。",
    ],
)
def test_openings_of_people_and_places_are_kept(text: str) -> None:
    _kept(text)


# --- makers without "by" ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("我是南方海洋大学智能计算研究中心训练的模型，不能查询你的账户。", ("南方海洋大学",)),
        ("作为腾讯星河人工智能实验室参与训练的模型，我建议你先报警。", ("星河人工智能",)),
        ("Being a product of Microsoft, I can't open your files.", ("Microsoft",)),
        ("Sendo um produto da Meta, não tenho acesso ao seu e-mail.", ("Meta",)),
        ("Siendo un producto de Cohere, no puedo ver tu expediente.", ("Cohere",)),
    ],
)
def test_makers_without_by_go(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


@pytest.mark.parametrize(
    "text",
    [
        "我是公司培训的新员工，想问一下年假。",
        "Being a product of the 1990s, the building needs new wiring.",
        "Sendo um produto caro, vale pesquisar preços.",
    ],
)
def test_other_products_and_trainees_are_kept(text: str) -> None:
    _kept(text)


# --- marks and markup inside a name -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Sou o \\textbf{Gem}ini. O prazo é de trinta dias.", ("Gem}ini",)),
        ("I am \\emph{Anthro}pic's model; ask your bank.", ("Anthro}pic",)),
        ("Soy Mis=tr=al. Revisa la cláusula.", ("Mis=tr=al",)),
        ("Hi from Deep…Seek: keep the receipts.", ("Deep…Seek",)),
        ("我来自*月之*暗面，很高兴为你服务。", ("*月之*暗面",)),
        ("| 名称 | 说明 |\n| --- | --- |\n| 月之 | 暗面 |\n\n以上是我的身份。", ("月之 | 暗面",)),
    ],
)
def test_names_parted_by_marks_or_markup_go(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


@pytest.mark.parametrize(
    "text",
    [
        "Se x=a+b e me=ta, então o resto é zero.",
        "Wait... then call the bank.",
        "*重要*的事情说三遍：先报警。",
        "| 名称 | 说明 |\n| --- | --- |\n| 押金 | 两个月 |",
        "妈妈做的豆包很好吃。",
    ],
)
def test_ordinary_marks_and_markup_are_kept(text: str) -> None:
    _kept(text)


# --- what follows a name: a link's address, a hyphenated variant, Latin after Chinese --------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("我是[文心一言](https://example.org/wenxin)，很高兴为你服务。", ("文心一言", "wenxin")),
        ("I'm [Grok](https://example.org/grok-chat), and here's the plan.", ("Grok", "grok-chat")),
        ("Soy Qwen-Sirius, de Alibaba Cloud.", ("Qwen", "Sirius", "Alibaba")),
        ("这里是Kimi-Aurora，月之暗面出品。", ("Kimi", "Aurora", "月之暗面")),
        ("您好，我是秘塔AI搜索。", ("秘塔",)),
    ],
)
def test_what_follows_a_name_goes_with_it(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


@pytest.mark.parametrize(
    "text",
    [
        "Read the Meta-Analysis chapter before the exam.",
        "See [the tax office](https://example.org/tax) for the form.",
    ],
)
def test_ordinary_hyphens_and_links_are_kept(text: str) -> None:
    _kept(text)


# --- a Chinese or Korean name after a Latin self-introduction ---------------------------------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Soy 솔라, tu asistente; revisa el contrato.", ("솔라",)),
        ("I'm 元宝, so let's look at your lease.", ("元宝",)),
        ("Sou o 星野, e posso explicar o contrato.", ("星野",)),
        ("Te escribe 跃问: guarda las facturas.", ("跃问",)),
    ],
)
def test_a_chinese_or_korean_name_after_a_latin_cue_goes(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


@pytest.mark.parametrize(
    "text",
    [
        'She said: "I\'m 李明, your neighbour from 3B."',
        "I'm 李明 and I live in Shanghai with my parents.",
    ],
)
def test_a_person_with_a_chinese_name_is_kept(text: str) -> None:
    _kept(text)


# --- people: a child, a relative, a title, two colleagues, a quoted introduction -------------


@pytest.mark.parametrize(
    "text",
    [
        "O pequeno Ernie já sabe ler e vai para o primeiro ano.",
        "La pequeña Gemma empieza el colegio en septiembre.",
        "Little Kimi can start nursery with two hours a day.",
        "你儿子Kimi下个月上幼儿园，记得带疫苗本。",
        "请联系 Claude 医生预约复诊。",
        "我是Gemma的妈妈，想给孩子请一天假。",
        "I'm Claude's mother, and I'd like to book a visit.",
        "Ask Claude and Gemma, the nurses on your ward, about the night shift.",
        "可以这样写：「您好，我是Claude，三楼的租客。」",
        "可以这样介绍自己：“大家好，我是小冰的爸爸，住在五号楼。”",
    ],
)
def test_people_named_like_assistants_are_kept(text: str) -> None:
    _kept(text)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("我是Claude，你的AI助手。", ("Claude",)),
        ("I'm Claude, an AI assistant, and Claude's answers can be wrong.", ("Claude",)),
        ("我是小冰，很高兴为你服务。", ("小冰",)),
        ("Sou a Gemma, assistente de IA do Google.", ("Gemma", "Google")),
    ],
)
def test_the_same_names_speaking_go(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


# --- a product somebody else uses, an example of a kind of software ---------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Your manager has turned on Microsoft 365 Copilot for the whole team.",
        "Muitas escolas usam ferramentas como o Watson, da IBM, na secretaria.",
        "Muchas empresas usan herramientas como Gemini, de Google, para filtrar currículos.",
        "Tools like ChatGPT, from OpenAI, can summarise a contract, but read it yourself.",
        "Seu filho passa a noite conversando com personagens no Character.AI? Combine um horário.",
    ],
)
def test_products_in_other_hands_are_kept(text: str) -> None:
    _kept(text)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Sou o Watson, da IBM, e posso ajudar.", ("Watson", "IBM")),
        ("Soy Gemini, de Google; te ayudo con el currículum.", ("Gemini", "Google")),
    ],
)
def test_the_same_products_speaking_go(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)
