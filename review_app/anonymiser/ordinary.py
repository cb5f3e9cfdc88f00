"""Ordinary uses of names that the anonymiser (anonymiser.anonymise) replaces anywhere else:
Google as a search engine, the anthropic principle, GPT as a general-purpose technology or a
disk's partition table, a plane's copilot, the minimax rule of game theory, and a maker or a
product in the news ("The news said OpenAI and Google are hiring").

Each is checked only where nothing else makes the word a name: "Sou o Google" stays masked,
"pesquisei no Google" does not. All patterns run on folded text (review_app.anonymiser.textfold).
"""

from __future__ import annotations

import re
from functools import lru_cache

from review_app.anonymiser.scripts import WORD

_WINDOW = 100  # characters either side searched for a subject ("Bert", "avião")
_SEARCHING = re.compile(
    r"(?:pesquis|busc|procur|search|consult|digit|typ|cherch|recherch|look\w*\s+(?:it\s+)?up"
    r"|jog|google|encontr|find|found|achei|acha|segundo|according|seg[uú]n|selon)\w*[^.!?\n]{0,25}$"
)
_GOOGLE_PRODUCT = re.compile(
    r"\s+(?:it|isso|eso|maps|docs|drive|sheets|forms|tradutor|translate|scholar|academico"
    r"|earth|chrome|fotos|photos|play|search|trends|news|noticias|flights|calendar|agenda|meet"
    rf"|classroom|lens|keep|street\s+view|imagens|images|shopping)(?!{WORD})"
)
# GPT as economists use it, and as a disk's partition table ("convert the disk to GPT").
_GENERAL_PURPOSE = re.compile(
    r"general[\s-]+purpose\s+technolog|tecnologias?\s+de\s+(?:proposito|uso)\s+geral"
    r"|tecnologias?\s+de\s+proposito\s+general|通用(?:目的|型)?技术|经济学|econom(?:ics|ists?|ia)"
    r"|partition|particao|particion|\bmbr\b|\buefi\b|\bbios\b|\bdis[ck]o?s?\b|windows|linux"
    r"|分区|硬盘|磁盘"
)
_AVIATION = re.compile(
    r"pilot|aviao|aeronave|cockpit|cabine|flight|voo|vuelo|vol\s|captain|comandante|airline"
    r"|aircraft|landing|pouso|takeoff|decolagem|rally|rali|plane|avion|carro|coche|driver"
    r"|motorista|piloto|turbulen|passenger|passageir|pasajer|runway|overhead|seat\s+pocket"
    r"|boarding|embarque|aterriz|despeg"
    r"|飞机|副驾驶|机长|驾驶舱|航空|航班|飞行|颠簸"
)
# "the copilot", "your copilot": the common noun, in small letters after a determiner.
_DETERMINER_BEFORE = re.compile(
    r"(?<![a-z])(?:the|a|an|your|my|our|his|her|their|its|o|um|seu|sua|meu|nosso|el|un|tu|mi|su"
    r"|le|mon|ton|son)\s+$"
)
_ADJECTIVE_ANTHROPIC = re.compile(
    r"\s+(?:principles?|reasoning|bias|arguments?|coincidences?|selection|explanations?|views?"
    rf"|perspectives?|considerations?|observers?|fine-tuning)(?!{WORD})"
)
_BAIDU_SEARCH = re.compile(r"(?:一下|搜索|搜一下|地图|百科|网盘)")


# Stems whose ordinary use shows in how they are written (is_ordinary_use's `written`).
CASED_STEMS = frozenset({"copilot", "minimax"})


def is_ordinary_use(stem: str, folded: str, start: int, end: int, written: str = "") -> bool:
    """Whether the name `stem` at folded[start:end] (`written` as in the original) is used as
    an ordinary word: Google as a search engine, Ernie a Muppet, GPT a general-purpose
    technology, a plane's copilot, the minimax algorithm."""
    before = folded[max(0, start - _WINDOW) : start]
    after = folded[end : end + _WINDOW]
    if stem == "google":
        return _SEARCHING.search(before) is not None or _GOOGLE_PRODUCT.match(after) is not None
    if stem == "百度":
        return _BAIDU_SEARCH.match(after) is not None or before.endswith(("在", "用", "上"))
    if stem == "anthropic":
        return _ADJECTIVE_ANTHROPIC.match(after) is not None
    if stem == "gpt":
        return _GENERAL_PURPOSE.search(before + " " + after) is not None
    if stem == "copilot":
        return _AVIATION.search(before + " " + after) is not None or (
            written.islower() and _DETERMINER_BEFORE.search(before) is not None
        )
    if stem == "minimax":
        # The maker writes itself "MiniMax"; "minimax" and "Minimax" are game theory's rule.
        return written in (written.lower(), written.capitalize())
    return False


# A maker or a product in the world's news or business, in a sentence without the speaker:
# "The news said OpenAI and Google are hiring", "Leí que OpenAI y Mistral abrieron oficinas",
# "最近 OpenAI 和 Google 的新闻很多". Kept only in an answer that does not name itself.
# Looked for as whole words in a set (one pass over the sentence's words): as one regex of
# alternatives it was tried at every position of every sentence that held a name.
_NEWS_TEXT = (
    "news headline headlines noticia noticias noticiario jornal jornais periodico periodicos"
    " radio tv television televisao television telejornal telediario paper papers diario"
    " revista magazine podcast"
    " newspaper newspapers press imprensa prensa reportagem reportaje reported report reports"
    " article articles artigo artigos articulo articulos announced anunciou anunciaram anuncio"
    " anunciaron company companies empresa empresas startup startups firm firms companhia"
    " companhias compania companias gigantes hiring hires contratando contratam contratan"
    " vagas vacantes jobs emprego empregos empleo empleos internship internships estagio"
    " estagios practicas career careers carreira carreiras office offices oficina oficinas"
    " escritorio escritorios sede headquarters headquartered investor investors investidores"
    " inversores investment investments investimento investimentos inversion inversiones"
    " funding raised captou valuation shares stock stocks acoes acciones ipo lawsuit lawsuits"
    " sued processado processada demandado demandada court tribunal regulator regulators"
    " reguladores antitrust partnership parceria alianza acquisition acquired aquisicao"
    " adquiriu deal acordo acuerdo revenue receita ingresos ceo founder founders fundador"
    " fundadores fundadora fundadoras employees funcionarios empleados industry industria"
    " sector setor competitor competitors concorrentes competidores rival rivals rivais"
)
_NEWS_WORDS = frozenset(_NEWS_TEXT.split())
_NEWS_PHRASES = re.compile(
    r"big\s+tech|tech\s+giants?|valor\s+de\s+mercado|works?\s+(?:at|for)|working\s+(?:at|for)"
    r"|trabalha\s+(?:n[oa]|para)|trabaja\s+(?:en|para)"
)
_CJK_NEWS = (
    *("新闻", "报道", "消息", "媒体", "公司", "企业", "招聘", "总部", "办公室", "融资", "估值"),
    *("股价", "股票", "上市", "诉讼", "收购", "创始人", "员工", "行业"),
)
_LATIN_WORDS = re.compile(r"[a-z]+")
# The speaker in the sentence: then the maker may be its own ("OpenAI, the company that made
# me"). Reading the news is no self-description: "I read that", "Leí que", "我看到新闻说".
_SPEAKER = re.compile(
    r"(?<![a-z])(?:me|mim|myself|comigo|conmigo|moi|i'm|i\s+am|sou|soy|fui|je\s+suis)(?![a-z])"
    r"|(?<![a-z])(?:my|our|meu|minha|meus|minhas|nossa|mi|mis|nuestra|mon|ma)\s+(?:company"
    r"|empresa|companhia|compania|creators?|makers?|developers?|criador\w*|creador\w*"
    r"|desenvolvedor\w*|desarrollador\w*|team|equipe|equipo|owners?|donos?)(?![a-z])"
    r"|我的(?:公司|开发|创造|团队|东家)|了我|训练我|开发我"
)
_READING = re.compile(
    r"(?<![a-z])(?:(?:i|eu|yo)\s+)?(?:read|saw|heard|li|vi|ouvi|lei|escuche|oi)\s+(?:that|que"
    r"|about|sobre|in|no|na|en|el|la|o|a)(?![a-z])|我(?:看到|听说|读到|看了|在新闻)"
)
# A product people use: "the Copilot app", "a conta do ChatGPT" is said by "conta" before.
_PRODUCT_HEAD = re.compile(
    r"\s+(?:app|apps|application|website|site|extension|plugin|subscription|account|accounts"
    r"|login|aplicativo|aplicacion)(?![a-z])"
)
# A product somebody uses: "My brother uses ChatGPT", "Muitos estudantes usam o ChatGPT" (the
# speaker's "Obrigado por usar o ChatGPT" is a cue, review_app.anonymiser.cues).
_USING = re.compile(
    r"(?<![a-z])(?:uses|used|using|usa|usam|usou|usaram|usando|utiliza|utilizam|utilizan|usan"
    r"|usaba|usavam|tried|trying|testou|testaram|probo|probaron|downloaded|baixou|descargo"
    r"|installed|instalou|instalo"
    # Switched on by somebody: "your employer has switched on Microsoft 365 Copilot".
    r"|(?:switched\s+on|turned\s+on|enabled|rolled\s+out|ativou|ativaram|habilitou|activo"
    r"|activaron|habilito)(?:\s+[a-z]+\s+\d+)?"
    # Examples of a kind of software: "sistemas como o Watson", "tools like Copilot".
    r"|(?:systems?|sistemas?|tools?|ferramentas?|herramientas?|apps?|aplicativos?|aplicaciones?"
    r"|platforms?|plataformas?|services?|servicos?|servicios?|programs?|programas?|products?"
    r"|produtos?|productos?|chatbots?|assistants?|assistentes?|asistentes?)\s+(?:como|like|such"
    r"\s+as|tipo)"
    # and their makers: "tools like ChatGPT, from OpenAI".
    r"(?:\s+(?:o|a|el|la))?(?:\s+[\w.\-]+,?\s+(?:from|by|of|da|do|de|del))?"
    # A platform somebody else talks on: "conversando com personagens no Character.AI".
    r"|(?:chatting|talking|conversando|conversa|conversam|falando|hablando|habla|chatea|chateando)"
    r"\s+(?:with|com|con)\s+[a-z]+(?:\s+[a-z]+)?\s+(?:on|in|no|na|en|el))"
    r"\s+(?:(?:o|a|el|la|the|su|seu|sua|his|her|their)\s+)?$"
)
_SENTENCE_BREAK = re.compile(r"[.!?\n。！？;；]")
_REACH = 200


def is_in_use(folded: str, start: int) -> bool:
    """Whether the name at `start` is a product somebody else uses or an example of a kind of
    software ("sistemas como o Watson", "switched on Microsoft 365 Copilot")."""
    return _USING.search(folded, max(0, start - 45), start) is not None


def is_in_the_news(folded: str, start: int, end: int) -> bool:
    """Whether the name at folded[start:end] is a company or a product in the news or in
    business, in a sentence that does not speak of the speaker."""
    window_start = max(0, start - _REACH)
    breaks = list(_SENTENCE_BREAK.finditer(folded, window_start, start))
    sentence_start = breaks[-1].end() if breaks else window_start
    following = _SENTENCE_BREAK.search(folded, end, end + _REACH)
    sentence_end = following.start() if following is not None else min(len(folded), end + _REACH)
    return (
        _PRODUCT_HEAD.match(folded, end) is not None
        or is_in_use(folded, start)
        or _tells_news(folded[sentence_start:sentence_end])
    ) and _is_not_the_speakers(folded[sentence_start:sentence_end])


# Cached: the names of one sentence share it (the same sentence is read once per name).
@lru_cache(maxsize=256)
def _tells_news(sentence: str) -> bool:
    return (
        not _NEWS_WORDS.isdisjoint(_LATIN_WORDS.findall(sentence))
        or _NEWS_PHRASES.search(sentence) is not None
        or any(word in sentence for word in _CJK_NEWS)
    )


@lru_cache(maxsize=256)
def _is_not_the_speakers(sentence: str) -> bool:
    return _SPEAKER.search(_READING.sub(" ", sentence)) is None
