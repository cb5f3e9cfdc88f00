"""Where a name sits in an answer's layout, for the anonymiser (review_app.anonymiser.anonymise): a
signature under the answer ("— Tuiuiú", "Abraços,\nGemini", "---\nGemini", "——豆包（字节跳动）")
unless the answer drafts a letter for the reader, a value of an identity key in code or data
('"model": "gemini"'), and an everyday name modifying a noun no assistant is ("the Gemini
constellation").

All patterns run on folded text (review_app.anonymiser.textfold).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import accumulate

from review_app.anonymiser.scripts import WORD

# A signature: a line that opens with a dash and holds only the name ("— Tuiuiú").
_SIGNATURE_BEFORE = re.compile(
    # A line of dashes above the name counts too: "\n---\nGemini".
    r"(?:(?:^|\n)[ \t]*(?:-{3,}|_{3,}|\*{3,})[ \t]*\n[ \t]*$)|"
    r"(?:^|\n|[.!?][ \t])[ \t]*-{1,2}[ \t]*(?:the[ \t]+)?"
    r"(?:(?:equipe|team|equipo|time)[ \t]+(?:d[aoe][ \t]+)?)?"
    # The signer's role and a "signed": "— assinado, seu assistente Zephyr", "——你的助手 通义".
    r"(?:(?:assinado|signed|firmado|signe)[ \t]*,?[ \t]*)?(?:(?:your|seu|sua|tu|su|votre)[ \t]+"
    r"(?:(?:virtual|digital)[ \t]+)?(?:assistant|assistente|asistente|ia|ai|bot|chatbot|helper)"
    r"(?:[ \t]+(?:virtual|digital))?[ \t]+|(?:你的|您的)?(?:ai|智能)?助手[ \t]*)?$"
)
# A short line that ends on a comma, then the name alone on the answer's last line:
# "Wishing you the best,\nSiri", "Con cariño de parte de,\nGemini".
_CLOSING_LINE = re.compile(r"(?:^|\n)[ \t]*[^\W\d_][^\n.?:;|]{1,40},[ \t]*\n[ \t]*$")
_ANSWER_END = re.compile(r"[ \t.!]*")
# "— Equipe Gemini", "— The Grok team": a team signs too.
# With its maker in brackets or after a comma: "——豆包（字节跳动）", "— Gemini, Google"; a
# description after a comma is a list's item ("- Gemini, a constelação").
_SIGNATURE_AFTER = re.compile(
    r"(?:[ \t]+(?:team|equipe|equipo))?(?:[ \t]*\([^()\n]{1,30}\)|,[ \t]*(?!(?:a|o|the|an?|el"
    r"|la|um|uma|un|una|my|meu|minha|mi|your|seu|sua|tu|su)\s)[^\W\d_][^,.\n]{0,29})?"
    # A Chinese signer's respect: "——腾讯混元 敬上".
    r"(?:[ \t]*(?:敬上|谨上|上))?[ \t.!]*(?:\n|$)"
)
# A closing line, then the name alone: "Abraços,\nGemini", "Best regards, Grok".
_SIGN_OFF_BEFORE = re.compile(
    r"(?:^|\n)[ \t]*(?:best\s+regards|kind\s+regards|warm\s+regards|regards|best|cheers"
    r"|sincerely|yours|atenciosamente|abracos?|um\s+abraco|cordialmente|saudacoes|saludos"
    r"|un\s+saludo|atentamente|cordialement|amicalement|此致敬礼|此致|your\s+friend|seu\s+amigo"
    r"|sua\s+amiga|tu\s+amig[oa]|com\s+carinho|con\s+carino|with\s+love|love|take\s+care"
    r"|cuide-se|cuidate|ate\s+logo|ate\s+mais|hasta\s+pronto|best\s+wishes|all\s+the\s+best)"
    r"[ \t]*[,!.]?[ \t]*(?:\n[ \t]*)?(?:-{1,2}[ \t]*)?"
    # The signer's role before its name: "Um abraço,\nsua assistente Alexa".
    r"(?:(?:your|seu|sua|tu|su|votre)[ \t]+(?:assistant|assistente|asistente|ia|ai|bot|chatbot)"
    r"[ \t]+)?$"
)


# A letter drafted for the reader opens on a salutation: its signature is the reader's name
# ("Dear Mr Lima, ... Best regards,\nAlice"), not the answer's.
_SALUTATION = re.compile(
    r"(?:^|\n)[ \t]*(?:dear|prezad[oa]s?|estimad[oa]s?|querid[oa]s?|car[oa]|cher|chere"
    r"|to\s+whom\s+it\s+may\s+concern|a\s+quem\s+possa\s+interessar|a\s+quien\s+corresponda"
    r"|尊敬的|亲爱的)(?!\s+(?:user|usuari[oa]|leitor|lector|reader|utilisateur))(?![a-z])"
    # A greeting to somebody by name or role: "Hi neighbour,", "Olá, Dona Marta!".
    r"|(?:^|\n)[ \t]*[\"\u201c]?(?:hi|hello|hey|ola|oi|hola|buenos\s+dias|bom\s+dia)[ \t,]+"
    r"(?!(?:i'?m|sou|soy|eu|yo|aqui|here|this)(?![a-z]))[^\W\d_][^\n,!.]{0,30}[,!]"
)
_LETTER_REACH = 3000  # characters back searched for a salutation: a letter is no longer


# A value in code or data, where names are written in small letters: '"model": "gemini"',
# "  assistant: grok" in YAML, "| modelo | gemini |", 'model="llama"'.
_CODE_KEY_BEFORE = re.compile(
    r"(?:[\"'](?:model|modelo|assistant|assistente|asistente|provider|maker|author"
    r"|generated_by|generator|bot)[\"']\s*:\s*[\"']"
    r"|(?:^|\n)[ \t]*(?:-[ \t]*)?(?:model|modelo|assistant|assistente|asistente|provider|maker"
    r"|author|generated_by|generator|bot)[ \t]*:[ \t]*[\"']?"
    # A table's identity row: "| modelo | gemini |".
    r"|(?:model|modelo|modele|assistant|assistente|asistente|chatbot)[ \t]*\|[ \t]*"
    # A keyword argument: 'client.chat(model="llama")'.
    rf"|(?<!{WORD})(?:model|model_name|model_id|assistant|provider)[ \t]*=[ \t]*[\"'])$"
)


# An everyday name as the modifier of a noun that no assistant is: "This is the Gemini
# constellation", "é o signo de Gêmeos", "the Falcon rocket", "la misión Gemini".
_ORDINARY_HEAD = re.compile(
    r"[ \t]+(?:constellation|constelacao|constelacion|sign|signo|zodiac|zodiaco|mission|missao"
    r"|mision|programme|spacecraft|capsule|capsula|rocket|foguete|cohete|telescope|telescopio"
    rf"|satellite|satelite)(?!{WORD})"
    # "I'm Gemini, by star sign": the zodiac's.
    r"|,?[ \t]+(?:by|por|de)[ \t]+(?:(?:star|zodiac)[ \t]+)?(?:sign|signo|zodiac|zodiaco)"
)


def is_ordinary_head(folded: str, end: int) -> bool:
    """Whether the name ending at `end` modifies a noun no assistant is ("Gemini sign")."""
    return _ORDINARY_HEAD.match(folded, end) is not None


def is_code_value(folded: str, start: int) -> bool:
    """Whether the name at `start` is the value of an identity key in code or data."""
    return _CODE_KEY_BEFORE.search(folded, max(0, start - 40), start) is not None


def is_signature(folded: str, start: int, end: int) -> bool:
    """Whether the name at folded[start:end] signs the answer: "\n— Tuiuiú"."""
    return _signs(folded, start, end) and not _in_a_letter(folded, start)


def signs_a_draft(folded: str, start: int, end: int) -> bool:
    """Whether the name at folded[start:end] signs a letter drafted for the reader ("Hi
    Marta, … With thanks,\nClaude"): the reader's or somebody's name, a person's."""
    return _signs(folded, start, end) and _in_a_letter(folded, start)


def _in_a_letter(folded: str, start: int) -> bool:
    return _SALUTATION.search(folded, max(0, start - _LETTER_REACH), start) is not None


def _signs(folded: str, start: int, end: int) -> bool:
    before = folded[max(0, start - 60) : start]
    signs = _SIGNATURE_AFTER.match(folded, end) is not None and (
        _SIGNATURE_BEFORE.search(before[-44:]) is not None
        or _SIGN_OFF_BEFORE.search(before[-40:]) is not None
        or (
            _CLOSING_LINE.search(before) is not None
            and _ANSWER_END.fullmatch(folded, end) is not None
        )
    )
    return signs


# A table whose column says who answers: "| Assistente | Conselho |\n|---|---|\n| Gemini | …"
# (the row form, "| Modelo | Gemini |", is a label of review_app.anonymiser.cues).
_TABLE_SEPARATOR = re.compile(
    r"[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+\|?[ \t]*"
)
_IDENTITY_HEADER = re.compile(
    r"(?:(?:nome|nombre|name)\s+(?:do|del|of\s+the)\s+)?(?:chatbot|bot|ia|ai|llm|respondent"
    r"|answered\s+by|respondido\s+por|quem\s+responde|quien\s+responde|ai\s+model"
    r"|modelo\s+de\s+ia|ai\s+assistant|assistente\s+virtual|asistente\s+virtual|virtual\s+assistant"
    r"|回答者|ai助手|智能助手|大模型)"
)
# A role that people and cars have too ("| Assistant | Shift |", "| Carro | Modelo |")
# names who answers only beside what it answered: "| Assistente | Conselho |".
_MODEL_HEADER = re.compile(
    r"model|modelo|modele|assistant|assistente|asistente|author|autor|autora|助手|模型|作者"
)
_ANSWER_HEADER = re.compile(
    r"(?:answer|response|reply|advice|tip|suggestion|recommendation|resposta|conselho|dica"
    r"|sugestao|recomendacao|respuesta|consejo|sugerencia|recomendacion|reponse|conseil"
    r"|opinion|opiniao|comment|comentario|回答|建议|答复|回复|意见)(?:e?s)?"
)
# A column of people: its cells are people's names ("| Aluno | Nota |\n| Claude | 9,5 |").
_PERSON_HEADER = re.compile(
    r"(?:nome|nombre|name|aluno|aluna|alumno|alumna|student|estudante|estudiante|paciente"
    r"|patient|funcionario|empleado|employee|staff|cliente|client|customer|candidato|candidata"
    r"|candidate|inquilino|tenant|morador|vecino|neighbou?r|participante|participant|姓名|学生"
    # People's jobs: "| Enfermeira | Turno |".
    r"|enfermeir[oa]|enfermer[oa]|nurse|medic[oa]|doctor|professor[a]?|profesor[a]?|teacher"
    r"|responsavel|contato|contacto|contact|员工|患者|客户)(?:e?s)?"
)
_CELL_MARKUP = " \t*_`"


def identity_cells(folded: str) -> Iterable[int]:
    """Where the cells of a table's identity column start (a name there is a cue's)."""
    return _column_cells(folded, identity=True)


def person_cells(folded: str) -> Iterable[int]:
    """Where the cells of a table's column of people start (a name there is a person's)."""
    return _column_cells(folded, identity=False)


def _column_cells(folded: str, *, identity: bool) -> Iterable[int]:
    if "|" not in folded:
        return
    lines = folded.split("\n")
    offsets = list(accumulate((len(line) + 1 for line in lines), initial=0))
    columns: list[int] = []
    for index, line in enumerate(lines):
        if "|" not in line:
            columns = []
        elif index + 1 < len(lines) and _TABLE_SEPARATOR.fullmatch(lines[index + 1]):
            headers = [text.strip(_CELL_MARKUP) for _, text in _cells(line)]
            answers = any(_ANSWER_HEADER.fullmatch(header) for header in headers)
            columns = [
                column
                for column, header in enumerate(headers)
                if (
                    _IDENTITY_HEADER.fullmatch(header)
                    or (answers and _MODEL_HEADER.fullmatch(header))
                    if identity
                    else _PERSON_HEADER.fullmatch(header)
                )
            ]
        elif columns and not _TABLE_SEPARATOR.fullmatch(line):
            cells = _cells(line)
            for column in columns:
                if column < len(cells):
                    start, text = cells[column]
                    skipped = len(text) - len(text.lstrip(_CELL_MARKUP))
                    yield offsets[index] + start + skipped


def _cells(line: str) -> list[tuple[int, str]]:
    """A table row's cells with where each starts in the line; the outer borders dropped."""
    cells: list[tuple[int, str]] = []
    start = 0
    for border in re.finditer(r"\|", line):
        cells.append((start, line[start : border.start()]))
        start = border.end()
    cells.append((start, line[start:]))
    if cells and not cells[0][1].strip():
        cells.pop(0)
    if cells and not cells[-1][1].strip():
        cells.pop()
    return cells
