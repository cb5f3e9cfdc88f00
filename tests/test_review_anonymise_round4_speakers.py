"""The anonymiser's fourth round (issue 23), continued: more ways of saying who speaks and
who made it, Chinese speakers, and names given with their role, each in pt-BR, English,
Spanish and Chinese with the innocent counterpart that fails if the rule reaches too far.
Every sentence here is written for these tests."""

from __future__ import annotations

import pytest

from tests.support.anonymiser_checks import assert_kept as _kept
from tests.support.anonymiser_checks import assert_masked as _masked

# --- more ways to say who speaks and who made it ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Hey, I'm Pip — think of me as your budgeting sidekick.", "Pip"),
        ("Oi! Sou Tico, pense em mim como seu tutor de matemática.", "Tico"),
        ("你好呀，小禾在这里！有什么想问的？", "小禾"),
        ("Meus criadores no Google me ensinaram a ser breve.", "Google"),
        ("My creators at Meta want me to be brief.", "Meta"),
        ("Mis creadores de Mistral me pidieron ser breve.", "Mistral"),
        ("我出自百度，擅长中文。", "百度"),
        ("Obrigado!\n— Equipe Gemini", "Gemini"),
        ("Thanks for asking.\n— The Grok team", "Grok"),
        ("豆包为你解答：先存钱。", "豆包"),
        ('Sou a Lia, assistente da loja "Casa Bela".', "Casa Bela"),
        ("Soy Max, tu asistente de **Solvera Seguros**.", "Solvera"),
    ],
)
def test_more_speakers_and_makers_go(text: str, name: str) -> None:
    _masked(text, name)


@pytest.mark.parametrize(
    "text",
    [
        'A moça disse: "Oi, sou a Marina, atendente da Clínica Sorriso, tudo bem?"',
        'The caller said, "Hi, I\'m Dave, a representative of Northwind Energy."',
        "La mujer dijo: «Hola, soy Carmen, la recepcionista de Hotel Mirador».",
        "— Sou o Paulo, consultor da Imobiliária Lar — disse ele.",
        "他说：“我是小王，星光银行的客服。”",
        "你好，妈妈来了，快开门。",
        "这款手机属于华为。",
        "My creators at school were my teachers.",
    ],
)
def test_somebody_else_introducing_their_organisation_is_kept(text: str) -> None:
    _kept(text)


# --- who answers, said without "I am" --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Hello! Bramble speaking, the helpdesk bot for Oakridge Council.", "Oakridge"),
        ("Hola, te escribe Lía, asistente virtual de Seguros Delta.", "Lía"),
        ("Quem te escreve é a Brisa, assistente da Loja Aroeira.", "Aroeira"),
        ("Respondendo como Llama: sim, pode.", "Llama"),
        ("Assistant (Grok): yes, go ahead.", "Grok"),
        ("This reply comes from Quasar, an assistant built by Nebula Works.", "Nebula"),
        ("Consulte a Jandaia, uma IA treinada pela Tupã Labs.", "Jandaia"),
        ("Resposta gerada por Jandaia, da Jandaia IA.", "Jandaia"),
        ("Entrenado por Bosque Labs, te doy esta respuesta.", "Bosque"),
        ("本回答由豆包生成。", "豆包"),
    ],
)
def test_who_answers_without_i_am(text: str, name: str) -> None:
    _masked(text, name)


@pytest.mark.parametrize(
    "text",
    [
        "Tom speaking. I'll be late for dinner.",
        "Maria, a nurse trained by the Red Cross, helped us.",
        "Criado pela Prefeitura, o programa oferece aulas de natação.",
        "O texto foi escrito por Machado de Assis em 1899.",
        "A carta foi escrita pela Alice.",
        "Mensaje de texto escrito por Alice, tu vecina.",
        "Hablando como madre, te digo que descanses.",
        "这篇文章由张老师撰写。",
    ],
)
def test_other_speakers_and_authors_are_kept(text: str) -> None:
    _kept(text)


# --- Chinese speakers, their organisations and makers ------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("大家好，我是来自云杉科技的AI助手小杉。", "云杉科技"),
        ("大家好，我是来自云杉科技的AI助手小杉。", "小杉"),
        ("我是云杉科技推出的智能助手“小杉”。", "小杉"),
        ("作为云杉科技的AI助手，我建议你先存钱。", "云杉科技"),
        ("嗨！小杉为您服务，请问有什么需要？", "小杉"),
        ("以上回答由小杉提供。", "小杉"),
        ("我的开发者是云杉科技。", "云杉科技"),
        ("我背后的公司是字节跳动。", "字节跳动"),
        ("My developer is Google, so I know its products.", "Google"),
        ("Meu criador é a Meta, então conheço o Instagram.", "Meta"),
        ("Mi creador es Mistral, y te ayudo.", "Mistral"),
    ],
)
def test_chinese_speakers_and_makers_go(text: str, name: str) -> None:
    _masked(text, name)


@pytest.mark.parametrize(
    "text",
    [
        "他说：“我是公司的客服小王。”",
        "我是学校的老师，也是两个孩子的妈妈。",
        "以上回答由专家提供，仅供参考。",
        "你好，妈妈为你做了饭。",
        "作为公司的一员，我很自豪。",
        "My developer friend is Alice.",
    ],
)
def test_chinese_people_and_roles_are_kept(text: str) -> None:
    _kept(text)


# --- an assistant's name given with its role, in no list ---------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("¡Hola! Te saluda Nilo, el asistente de la Farmacia Ceibo.", "Nilo"),
        ("Soy la asistente virtual Nilo, de la Farmacia Ceibo.", "Farmacia Ceibo"),
        ("Sou a assistente virtual Nilo, da Farmácia Ceibo.", "Nilo"),
        ("I'm the virtual assistant Nilo, from Ceibo Pharmacy.", "Ceibo"),
        ("Nilo, a assistente virtual da Farmácia Ceibo, recomenda repouso.", "Nilo"),
        ("Oi, aqui quem fala é o robô Nilo.", "Nilo"),
        ("Estás hablando con Nilo, de Farmacia Ceibo.", "Nilo"),
        ("You're chatting with Nilo from Ceibo Pharmacy.", "Ceibo"),
        ("Drink water.\n\n*Powered by Nilo AI*", "Nilo"),
        ("I was built in-house at Ceibo Pharmacy.", "Ceibo"),
    ],
)
def test_named_roles_go(text: str, name: str) -> None:
    _masked(text, name)


@pytest.mark.parametrize(
    "text",
    [
        "Ana, a assistente da Dra. Silva, ligou ontem.",
        "If you're talking to Maria tomorrow, bring the papers.",
        "Android was developed at Google.",
        "Sou a assistente social Maria e atendo às quintas.",
        "I'm the assistant manager here.",
        "The lamp is powered by solar panels.",
    ],
)
def test_human_roles_are_kept(text: str) -> None:
    _kept(text)
