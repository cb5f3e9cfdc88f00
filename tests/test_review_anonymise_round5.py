"""The anonymiser's fifth round (issue 23): general classes of leaks and of false
alterations, each in pt-BR, English, Spanish and Chinese with the innocent counterpart that
fails if the rule reaches too far. Every sentence here is written for these tests."""

from __future__ import annotations

import pytest

from tests.support.anonymiser_checks import SCRUB
from tests.support.anonymiser_checks import assert_kept as _kept
from tests.support.anonymiser_checks import assert_masked as _masked

# --- a name parted by markup, a table's border, an emoji or an escape ----------------------


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        ("| Quem responde | Empresa |\n| --- | --- |\n| Gem | ini | Google |", ("Gem | ini",)),
        ("Assinado: `Deep`-`Seek`. Guarde o recibo.", ("`Deep`-`Seek`",)),
        ("I'm `Claude`, from ~~Anth~~ropic. Keep the receipt.", ("~~Anth~~ropic",)),
        ("Hola, soy Gem\U0001f31fini y te ayudo con el alquiler.", ("Gem\U0001f31fini",)),
        ("Sou o Cl\\aude e vou explicar o boleto.", ("Cl\\aude",)),
        ("我是Cl\U0001f916aude，可以帮你写简历。", ("Cl\U0001f916aude",)),
    ],
)
def test_names_parted_by_markup_go(text: str, pieces: tuple[str, ...]) -> None:
    _masked(text, *pieces)


@pytest.mark.parametrize(
    "text",
    [
        "| Sigla | Sentido |\n| --- | --- |\n| me | ta |",  # short cells join by chance
        "Abra C:\\Users\\me\\ta e copie o arquivo.",
        "Use `x`-`y` para o intervalo e ~~a~~b para riscar.",
        "Me encanta \U0001f31f esa serie y la foto a\U0001f31fb.",
        "用 `a`-`b` 表示区间。",
    ],
)
def test_markup_between_ordinary_pieces_is_kept(text: str) -> None:
    _kept(text)


# --- names as values of identity keys in code and data --------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ('```json\n{"model": "gemini", "temperatura": 0.2}\n```', "gemini"),
        ("```yaml\nassistant: grok\nidioma: es\n```", "grok"),
        ("{'modelo': 'llama', 'respuesta': 'sí'}", "llama"),
        ('配置如下：{"model": "gemini"}', "gemini"),
        ('resposta = cliente.chat(model="llama", texto=pergunta)', "llama"),
        ("| campo | valor |\n|---|---|\n| modelo | gemini |", "gemini"),
    ],
)
def test_names_as_identity_values_in_code_go(text: str, name: str) -> None:
    _masked(text, name)


@pytest.mark.parametrize(
    "text",
    [
        '{"animal": "llama", "cor": "azul"}',
        "```yaml\ntitulo: a meta do trimestre\n```",
        '{"signo": "gemini", "mes": "junio"}',
        '数据：{"动物": "llama"}',
        'fazenda.adicionar(animal="llama", idade=3)',
        "| animal | color |\n|---|---|\n| llama | gris |",
    ],
)
def test_everyday_words_under_other_keys_are_kept(text: str) -> None:
    _kept(text)


# --- signatures: under a rule, with their maker, and a drafted letter's ----------------------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Boa sorte com a mudança!\n\n---\nGemini", ("Gemini",)),
        ("Good luck with the move.\n\n— Gemini, Google", ("Gemini", "Google")),
        ("Suerte con la mudanza.\n\n— Grok (xAI)", ("Grok", "xAI")),
        ("祝搬家顺利。\n\n——豆包（字节跳动）", ("豆包", "字节跳动")),
    ],
)
def test_signatures_with_rules_and_makers_go(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


@pytest.mark.parametrize(
    "text",
    [
        "Prezado Sr. Lima,\n\nSolicito o reparo do chuveiro.\n\nAtenciosamente,\nAlice",
        "Dear Ms Park,\n\nPlease find the signed lease attached.\n\nBest regards,\nAlice",
        "Estimada Sra. Ruiz:\n\nLe escribo por la fianza.\n\nSaludos,\nAlice",
        "尊敬的王经理：\n\n附件是合同。\n\n此致\nAlice",
        "Compras:\n\n- Gemini, a constelação do livro\n- Pão",
    ],
)
def test_drafted_letters_and_list_items_are_kept(text: str) -> None:
    _kept(text)


# --- a person introducing themselves ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Comece assim: Eu sou o Rafael, tenho 34 anos e procuro a minha primeira vaga.",
        "Hi, I'm Sam, and I'm writing about the flat on Elm Street. Is it still free?",
        "Empieza así: Me llamo Lucía y vivo en Quito desde 2019.",
        "My name is Claude Dupont. I need a refund for order 1182.",
        "给新邻居的纸条：“您好，我叫Claude，住在您楼下，周末搬家，请多包涵。”",
    ],
)
def test_a_person_introducing_themselves_is_kept(text: str) -> None:
    _kept(text)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Eu sou o Claude Monet, um modelo de IA, e posso ajudar.", ("Claude",)),
        ("Hi, I'm Sam, the virtual adviser of Brookline Savings.", ("Sam", "Brookline")),
        ("Soy Lía, tu asesora virtual del Banco Mirador.", ("Lía", "Mirador")),
        ("我叫Claude，是一个AI助手。", ("Claude",)),
        ("Sou a Lia, trabalho como assistente virtual da Clínica Sol.", ("Lia",)),
        ("I'm Aria and I work as your AI assistant.", ("Aria",)),
        ("Soy Brisa y trabajo como asistente de IA.", ("Brisa",)),
    ],
)
def test_a_speaker_that_says_it_is_software_goes(text: str, names: tuple[str, ...]) -> None:
    _masked(text, *names)


def test_a_person_job_keeps_the_organisation() -> None:
    _kept("I'm Maria, the financial adviser of Brookline Savings. Call me on Monday.")


# --- people by their relation or department -----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Your flatmate Kimi should sign the lease too.",
        "Ask Ernie from accounts to confirm the overtime in writing.",
        "Peça à Gemma do RH uma cópia do contrato.",
        "Pregúntale a Kimi de contabilidad por la factura.",
        "合租的Kimi也要在合同上签字。",
        "La clienta Gemma pidió el recibo por correo.",
    ],
)
def test_people_by_relation_or_department_are_kept(text: str) -> None:
    _kept(text)


def test_a_speaker_from_a_department_still_goes() -> None:
    _masked("I'm Claude, an AI assistant made by Anthropic.", "Claude", "Anthropic")


# --- a Chinese cue, a space, a Latin name; a word turned round after a cue -------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("我的开发者是 Meta，所以最新政策请查官网。", "Meta"),
        ("我是由 \u202eciportnhA\u202c 开发的助手。", "ciportnhA"),
        ("Fui criado pela \u202eemaNoN\u202c para ajudar.", "emaNoN"),
        ("I was built by \u202eskroWxuL\u202c to help.", "skroWxuL"),
        ("Fui creado por \u202eabsoL\u202c para ayudarte.", "absoL"),
    ],
)
def test_makers_after_cues_go(text: str, name: str) -> None:
    _masked(text, name)


@pytest.mark.parametrize(
    "text",
    [
        "这个应用的开发者是 Meta，数据存在国外。",
        "Comprei na \u202eemaNoN\u202c ontem.",
        "He bought it at \u202eskroWxuL\u202c last week.",
    ],
)
def test_words_turned_round_elsewhere_are_kept(text: str) -> None:
    _kept(text)


# --- an everyday name modifying a noun no assistant is ----------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "This is the Gemini constellation, easy to spot in winter.",
        "Esta é a Gemini capsule do museu, em escala real.",
        "Esta es la Gemini mission que llevó dos astronautas.",
        "这是 Gemini capsule 的模型。",
    ],
)
def test_an_everyday_name_as_a_modifier_is_kept(text: str) -> None:
    _kept(text)


@pytest.mark.parametrize("text", ["This is Gemini, your assistant.", "Sou o Gemini, do Google."])
def test_an_everyday_name_introduced_still_goes(text: str) -> None:
    assert "Gemini" not in SCRUB(text)
