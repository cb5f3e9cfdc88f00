"""The contexts that decide whether a word is a name, for the anonymiser (anonymiser.anonymise).

All patterns run on folded text (anonymiser.textfold): lower case, no accents, ASCII quotes
and dashes. Languages: pt-BR and English (the rounds'), Spanish, French and Chinese.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable

from review_app.anonymiser.scripts import WORD

# Self-introductions, after which an everyday word that is also a name is a name.
NAME_CUES = (  # "my name is": whatever follows is a name
    r"me\s+chamo",
    r"chamo-me",
    r"meu\s+nome\s+e",
    r"my\s+name(?:\s+is|'s)",
    r"(?:pode|podem|voce\s+pode)\s+me\s+chamar\s+de",
    r"(?:you\s+can\s+)?call\s+me",
    r"me\s+llamo",
    r"mi\s+nombre\s+es",
    r"(?:puedes\s+)?llamarme",
    r"je\s+m'appelle",
    r"mon\s+nom\s+est",
    r"appelle[sz]?-moi",
    # Answers switch language in their first words ("Ciao, sono …", "Hallo, ich bin …").
    r"mi\s+chiamo",
    r"il\s+mio\s+nome\s+e",
    r"ich\s+heisse",
    r"mein\s+name\s+ist",
    # What the speaker is called by others: "me llaman", "me chamam de", "I go by".
    r"me\s+(?:llaman|dicen|chamam(?:\s+de)?)",
    r"chamam-me",
    r"i\s+go\s+by",
    r"on\s+m'appelle",
)
BEING_CUES = (  # "I am": what follows may be a name, or "I am sorry"
    r"(?:eu\s+)?sou(?:\s+eu,?)?",
    r"i\s+am",
    r"i'?m",
    r"aqui\s+(?:e|fala)",
    r"(?:aqui\s+)?quem\s+(?:te\s+|lhe\s+|vos\s+)?(?:fala|responde|escreve|atende)\s+e",
    r"quien\s+(?:te\s+|le\s+|les\s+)?(?:habla|responde|escribe|atiende)\s+es",
    r"you'?re\s+(?:chatting|talking|speaking)\s+(?:with|to)",
    r"(?:te|le|les)\s+(?:habla|escribe|responde)",
    r"(?:te|lhe|vos)\s+(?:fala|escreve|responde|sauda)",
    r"(?:te|le|les|os)\s+saluda",
    r"(?:voce\s+)?esta\s+(?:falando|conversando)\s+com",
    r"(?:yo\s+)?soy",
    r"aqui\s+(?:habla|es)",
    r"je\s+suis",
    r"c'est",
    r"ici",
    # Italian "sono" only after a greeting or "io": in Portuguese it is sleep ("o sono").
    r"(?:ciao|salve|buongiorno|buonasera)[,!]?\s+sono",
    r"io\s+sono",
    r"ich\s+bin",
    r"hier\s+ist",
)
IDENTITY_CUES = NAME_CUES + BEING_CUES
_PARTICIPLES = (
    r"(?:treinad|desenvolvid|criad|feit|construid|projetad|lancad|produzid|mantid|ajustad"
    r"|programad|disponibilizad|operad|gerad)[oa]s?\s+(?:pel[oa]s?|por)"
    r"(?:\s+(?:equipe|time|empresa|pesquisador[ae]s|engenheir[oa]s)\s+d[aoe]s?)?",
    r"(?:developed|trained|created|made|built|designed|released|produced|programmed|maintained"
    r"|fine-tuned|finetuned|powered|owned|operated|provided|generated)\s+by"
    r"(?:\s+(?:the\s+)?(?:team|company|researchers|engineers|folks|people)\s+(?:at|of|from))?",
    r"(?:desarrollad|entrenad|cread|hech|construid|disenad|lanzad|producid|mantenid"
    r"|programad|ajustad|generad|impulsad)[oa]s?\s+por"
    r"(?:\s+(?:el|la|los|las))?"
    r"(?:\s+(?:equipo|empresa|investigador[ae]s)\s+de(?:l|\s+la)?)?",
    r"(?:developpe|entraine|cree|concu|construit|fabrique|realise|publie|mis\s+au\s+point)e?s?"
    r"\s+par(?:\s+(?:l'equipe|la\s+societe|l'entreprise)\s+(?:de|d'))?",
)
# The maker as the subject, the speaker as the object: "me creó el equipo de", "me treinou a".
_MADE_ME = (
    r"me\s+(?:creo|entreno|desarrollo|hizo|construyo|diseno|programo)(?:\s+(?:el|la))?"
    r"(?:\s+(?:equipo|empresa|gente)\s+de(?:l|\s+la)?)?",
    r"me\s+(?:criou|treinou|desenvolveu|construiu|projetou|programou)(?:\s+(?:o|a))?"
    r"(?:\s+(?:equipe|time|empresa|pessoal)\s+d[aoe]s?)?",
    r"m'a\s+(?:cree|entraine|developpe|concu|programme)e?",
    r"(?:con|com|usa|uso|utiliza|utilizo)\s+(?:a\s+|la\s+)?tecnologia\s+d[aoe]l?",
)
MAKER_CUES = _PARTICIPLES + _MADE_ME
_MODEL_OF_CUES = (
    r"(?:modelo|assistente|ia|chatbot|llm)(?:\s+(?:de\s+linguagem|de\s+ia"
    r"|de\s+inteligencia\s+artificial|virtual|conversacional))?\s+(?:d[aoe]|from|by)",
    r"(?:model|assistant|ai|chatbot|llm)\s+(?:from|by|made\s+by)",
    r"(?:modelo|asistente|ia|chatbot)(?:\s+(?:de\s+lenguaje|virtual|conversacional))?"
    r"\s+(?:del?|por)",
    r"(?:modele|assistant|ia|chatbot)(?:\s+(?:de\s+langage|virtuel|conversationnel))?"
    r"\s+(?:de|d'|par)",
    r"(?:sou|fui|estou)\s+basead[oa]\s+(?:em|n[oa]s?)",
    r"(?:i\s+am|i'?m)\s+based\s+on",
    r"(?:soy|estoy)\s+basad[oa]\s+en",
    r"(?:sou|i\s+am|i'?m)\s+(?:uma\s+versao|a\s+version|an?\s+variant|uma\s+variante)\s+(?:d[aoe]|of)",
    r"(?:familia|family|famille)(?:\s+d[aoe]|\s+of)?",
    r"(?:resposta|answer|response|respuesta|reponse)\s+(?:d[aoe]|from|by|del?)",
    r"(?:com\s+base\s+(?:n[oa]s?|em)|based\s+on)",
    # A greeting sent from the speaker, for a known name only ("Hello from Gemini"; "Hello
    # from Lisbon!" introduces nobody).
    r"(?:hello|hi|greetings|ola|oi|hola|saludos|salut|bonjour|ciao|abracos?|beijos|cumprimentos"
    r"|(?:un\s+)?abrazos?|cheers|regards|hugs)\s+(?:from|de|da|do|desde|del)",
    r"(?:from|d[oa]|de)\s+(?:your|seu|sua|tu|su|votre)\s+(?:[a-z]+\s+)?(?:assistant|assistente"
    r"|asistente|chatbot|ia|ai)(?:\s+virtual)?,?",
    # "Sou um produto do Google", "I'm a creation of Mistral AI".
    # "Being a product of Upstage means": the speaker is what is being.
    r"(?:i\s+am|i'?m|sou|soy|je\s+suis|being|sendo|siendo|etant)\s+(?:(?:a|an|um|uma|un|una|une)\s+)?"
    r"(?:product|produto"
    r"|producto|produit|creation|criacao|creacion)\s+(?:of|d[aoe]|del?)",
    # An answer written by a name: "Esta resposta foi escrita pelo Gemini" ("a carta escrita
    # pela Alice" is a person's).
    r"(?:resposta|answer|response|reply|respuesta|reponse)\s+(?:(?:foi|was|fue|a\s+ete)\s+)?"
    r"(?:escrit[oa]|written|redigid[oa]|redactad[oa]|respondid[oa]|answered|ecrite?)\s+"
    r"(?:by|por|pel[oa]|par)",
    # "This reply comes from Gemini", "Respondendo como Llama", "Assistant (Grok):".
    r"(?:reply|answer|response|resposta|respuesta|texto|text)\s+(?:comes|vem|viene)\s+"
    r"(?:from|d[aoe]|del?)",
    r"(?:respondendo|respondiendo|answering|replying|speaking|falando|hablando)\s+como",
    r"(?:answering|replying|speaking)\s+as",
    # "My developer is Google", "Meu criador é a Meta", "Mi creador es Mistral".
    r"(?:my|meu|minha|mi|mon|ma)\s+(?:developer|creator|maker|desenvolvedor[a]?|criador[a]?"
    r"|creador[a]?|desarrollador[a]?|createur|parent\s+company|empresa\s+(?:criadora|creadora"
    r"|desenvolvedora|desarrolladora|matriz)|fabricante|manufacturer|provider|provedor[a]?"
    r"|proveedor[a]?|owner|dono|dona)\s+(?:is|e|es|est)",
    # "my creators at Google", "meus criadores no Google", "mis creadores de Meta".
    r"(?:my|meus|minhas|mis|mes)\s+(?:creators|makers|developers|engineers|criador[ae]s"
    r"|desenvolvedor[ae]s|engenheir[oa]s|creador[ae]s|desarrollador[ae]s|ingenier[oa]s"
    r"|createurs|developpeurs)\s+(?:at|from|of|n[oa]s?|d[aoe]s?|en|de|del|chez)",
    r"this\s+is",
    # A closing line: "Thanks for chatting with Pi!", "Obrigado por usar o Gemini!",
    # "That's all from Siri today".
    r"(?:thanks|thank\s+you|obrigad[oa]|gracias|merci)\s+(?:for|por|pour)\s+(?:using|chatting"
    r"\s+with|talking\s+(?:to|with)|choosing|usar|utilizar|conversar\s+com|falar\s+com|escolher"
    r"|hablar\s+con|chatear\s+con|elegir|utiliser|choisir)",
    r"(?:that'?s\s+all|that\s+is\s+all|isso\s+e\s+tudo|eso\s+es\s+todo|c'est\s+tout)\s+"
    r"(?:from|d[aoe]|del?)",
)
CUES = IDENTITY_CUES + MAKER_CUES + _MODEL_OF_CUES
# Chinese cues: no space after them ("我是豆包", "由月之暗面开发"), and Chinese labels ("回答者：",
# "模型：", "助手：": a full-width colon folds to ":").
CJK_CUES = (
    *("我是(?:一个|一款|一位|一名)?(?:叫|名叫|叫做)", "(?:可以|你可以|您可以)?叫我", "称呼我为?"),
    "我(?:出自|属于|隶属于)",
    *("我是", "我叫", "我的名字是", "我的名字叫", "本模型是?", "这里是", "作为", "由", "来自"),
    r"(?:回答者|回答人|回复者|答复者|模型|助手|署名|提供者|开发者|开发方|研发方)\s*:",
)
_CJK_CUE_FIRST = "我可你您叫称本这作由来回模助署提开研"  # the first characters of CJK_CUES
# Labels of a header or a signature: "modelo: sabia-4", "organização: Maritaca", "Firmado:".
# Each opens where no word character precedes it.
LABEL_CUES = (
    r"(?:model|modelo|modele|organizacao|organization|organizacion|provider|disclaimer"
    r"|aviso\s+legal|descargo\s+de\s+responsabilidad|isencao\s+de\s+responsabilidade|免责声明"
    r"|provedor|fornecedor|proveedor|author|autor|signed|assinado|firmado|signe)\s*:",
    r"(?:eu|yo|moi),",  # "Eu, Gemini, não tenho acesso"
    # The speaker's row of a table: "| Assistente | Grok 3 |", "| Model | Qwen |".
    r"(?:model|modelo|modele|assistant|assistente|asistente|chatbot|bot|author|autor"
    r"|respondent)\s*\|",
    r"(?:assistant|assistente|asistente|chatbot|answered\s+by|respondido\s+por|resposta"
    r"|respuesta|answer|reply|response|reponse)\s*:",
    # The speaker's role, then its name set apart: "Seu assistente, Gemini, recomenda".
    r"(?:your|seu|sua|tu|su|votre|ton|ta)\s+(?:[a-z]+\s+)?"
    r"(?:assistant|assistente|asistente|modelo|model|chatbot|ia|ai),",
    # Who made the speaker, in a list of what it is: "- Maker: Anthropic", "**Criador:** Google".
    r"(?:maker|creator|criador[a]?|creador[a]?|createur)(?:\*\*)?\s*:",
    r"(?:assistant|assistente|asistente|model|modelo|bot|ia|ai)\s*\(",
    # A key of JSON or a dictionary: '"model": "gemini"', "{'assistant': 'Grok'}".
    r"(?:model|modelo|assistant|assistente|asistente|provider|maker|author|generated_by"
    r"|generator|bot)[\"']\s*:",
    r"(?:model|model_name|model_id|assistant|provider)\s*=",  # 'chat(model="llama")'
    # A name's label at a line's start, in such a list: "- Nome: Gemini", "**Name:** Grok".
    r"(?<![^\n])[ \t]*(?:[-*\u2022][ \t]*)?(?:\*\*)?(?:name|nome|nombre|nom|名称|名字)"
    r"(?:\*\*)?\s*:",
    # A byline opening a line: "Written by Mistral", "_Gerado por Gemini_".
    r"(?<![^\n])[ \t>#*_<!-]*(?:written|generated|answered|authored|escrit[oa]|gerad[oa]"
    r"|respondid[oa]|redigid[oa]|redactad[oa]|generad[oa]|ecrit|genere)e?\s+(?:by|por|pel[oa]|par)",
)
_ARTICLE = (
    r"(?:(?:o|a|um|uma|the|an|el|la|un|una|le|l'|une)\s+)?"
    r"(?:(?:modelo|model|modele|assistente|assistant|asistente|ia|ai|chatbot)\s+)?"
)
# "I'm **Claude**", "Sou o <b>Llama</b>", "回答者：「元宝」".
MARKUP = r"(?:<[a-z]+>|[*_~`'\"\[(\u201c\u300a\u300c\u300e])*"
# Found once per text at every position (a lookahead matches without consuming), so that a
# cue inside another ("sou a IA da Meta": "ia da") is not hidden by it. One end is kept per
# position: the longer cues come first ("sou baseado no" before "sou").
_LONGEST_FIRST = "|".join(_MODEL_OF_CUES + MAKER_CUES + IDENTITY_CUES)
# Inside a word, one look behind rejects every Latin cue at once, and a character class
# every Chinese one: the alternatives are tried only where a cue may start.
_CUE_AT = re.compile(
    rf"(?=(?:(?<!{WORD})(?:(?:{_LONGEST_FIRST})\s+(?P<bare>){_ARTICLE}"
    # A label may close its bold before the name: "**Modelo:** Gemini".
    rf"|(?:{'|'.join(LABEL_CUES)})\s*(?:[*_]{{1,2}}\s*)?)"
    rf"|(?=[{_CJK_CUE_FIRST}])(?:{'|'.join(CJK_CUES)})\s*(?:[*_]{{1,2}}\s*)?)"
    rf"{MARKUP}(?P<end>))"
)


def cue_ends(folded: str, name_starts: Iterable[int] = ()) -> frozenset[int]:
    """Where self-identifying cues end in `folded` ("sou o |Claude", "由|Anthropic"). A
    maker said of something else is none: "Marketplace, which is owned by Meta", "the laptop
    was made by Lenovo"; one said of a known name (starting at one of `name_starts`) is:
    "O Gemini foi treinado pelo Google"."""
    named = sorted(name_starts)
    ends: set[int] = set(called_ends(folded))
    for match in _CUE_AT.finditer(folded):
        start, end, bare = match.start(), match.start("end"), match.start("bare")
        if _made_is_other(folded, start, named):
            continue
        # "I'm a Gemini" is a star sign: an English indefinite article introduces no name.
        if folded[start] != "i" or _INDEFINITE_AFTER_I_AM.match(folded, start, end) is None:
            ends.add(end)
        # A name may open with what reads as an article: "Me llamo Le Chat", "I'm Le Chat".
        if bare >= 0:
            ends.add(bare)
    return frozenset(ends)


_INDEFINITE_AFTER_I_AM = re.compile(r"i(?:'?m|\s+am)\s+an?\s+[*_`'\"]*$")


# The speaker as an assistant "called" something: "I'm an AI called Claude", "Sou uma
# assistente virtual chamada Bruma", "Soy un asistente llamado Grok". Without the speaker,
# "a chatbot called Gemini that my nephew uses" is somebody else's. The rare "called" is
# found first, and the speaker looked for only in the 80 characters before it.
_CALLED = re.compile(
    rf"(?<!{WORD})(?:called|named|chamad[oa]|llamad[oa]|nommee?|appelee?|denominad[oa]"
    rf"|nomead[oa])\s+{MARKUP}"
)
_SPEAKER_AS_ASSISTANT = re.compile(
    rf"(?<!{WORD})(?:i\s+am|i'm|(?:eu\s+)?sou|(?:yo\s+)?soy|je\s+suis)\s+[^.!?\n]{{0,60}}?"
    r"(?<![a-z])(?:ai|ia|assistant|assistente|asistente|model|modelo|modele|chatbot|bot|llm"
    r"|system|sistema|helper|ajudante|ayudante)\s+(?:[a-z]+\s+)?$"
)


def called_ends(folded: str) -> Iterable[int]:
    """Where "I'm an AI called |Claude" ends: the name that follows is the speaker's."""
    for match in _CALLED.finditer(folded):
        window_start = max(0, match.start() - 80)
        if _SPEAKER_AS_ASSISTANT.search(folded, window_start, match.start()) is not None:
            yield match.end()


_PARTICIPLE_AT = re.compile("|".join(_PARTICIPLES))
# A relative clause whose antecedent is no assistant: "an app that was built by",
# "Marketplace, which is owned by"; "un modelo que fue entrenado por" is the speaker.
_RELATIVE_BEFORE = re.compile(
    r"(?P<antecedent>[^\W\d_]+),?\s+(?:which|that|que|qui|who)\s+(?:(?:is|was|are|were|has"
    r"\s+been|have\s+been|e|foi|sao|foram|es|fue|son|fueron|est|a\s+ete)\s+)?$"
)
_ASSISTANT_NOUN = re.compile(
    r"(?:ai|ia|assistant|assistente|asistente|model|modelo|modele|chatbot|llm|bot|system"
    r"|sistema|systeme|i|eu|yo|je|one|um|uma|un|una)"
)


# A passive whose sentence names neither the speaker nor an assistant: "This laptop runs on
# Windows and was made by Lenovo"; "I was made by Meta", "Este modelo foi treinado pelo
# Google", "This answer was generated by Gemini" keep their cue.
_PASSIVE_BEFORE = re.compile(
    r"(?<![a-z])(?:is|was|are|were|been|e|foi|sao|foram|es|fue|son|fueron|est|ete)\s+$"
)
_SPEAKER_OR_ASSISTANT = re.compile(
    r"(?<![a-z])(?:i|i'm|me|my|eu|sou|fui|meu|minha|yo|soy|mi|je|suis|ai|ia|assistant"
    r"|assistente|asistente|model|modelo|modele|chatbot|llm|bot|answer|resposta|respuesta"
    r"|reply|response|text|texto)(?![a-z])"
)
_SENTENCE_END_BEFORE = re.compile(r"[.!?\n]")


def _made_is_other(folded: str, start: int, name_starts: list[int]) -> bool:
    if _PARTICIPLE_AT.match(folded, start) is None:
        return False
    relative = _RELATIVE_BEFORE.search(folded, max(0, start - 40), start)
    if relative is not None:
        return not _ASSISTANT_NOUN.fullmatch(relative.group("antecedent"))
    if _PASSIVE_BEFORE.search(folded, max(0, start - 12), start) is None:
        return False
    window_start = max(0, start - 120)
    breaks = list(_SENTENCE_END_BEFORE.finditer(folded, window_start, start))
    sentence_start = breaks[-1].end() if breaks else window_start
    named_before = bisect_left(name_starts, sentence_start) < bisect_left(name_starts, start)
    return not named_before and _SPEAKER_OR_ASSISTANT.search(folded, sentence_start, start) is None


# Between two names, the second names the first's maker: "Sou a Maré, da Demo", "Le Chat, da
# Mistral", "Google's Gemini", "字节跳动的豆包".
AFTER_NAME = re.compile(
    r",?\s+(?:d[aoe]|from|by|of|pel[oa]|del?|par)\s+(?:the\s+|la\s+|el\s+)?|'s\s+|\s*的\s*|\s*由\s*"
)
CJK_MODEL_AFTER = re.compile(r"\s*大?模型")
# Between a name and its maker: "Grok is made by xAI", "Gemini foi criado pelo Google".
MADE_BY_BETWEEN = re.compile(
    r"\s+(?:is|was|e|foi|es|fue|est|a\s+ete)\s+(?:"
    + "|".join(_PARTICIPLES)
    + r")\s+(?:(?:the|a|o|la|el|le)\s+)?"
)
# After the name: what it names is a model ("an Amazon model", "豆包大模型"), or it speaks
# ("As Gemini, I cannot", "Como Llama, eu evito").
NAME_THEN_MODEL = re.compile(
    rf"\s+(?:model|modelo|modele|assistant|assistente|asistente|ai|ia|llm|chatbot|here|aqui"
    rf"|speaking|falando|ici)(?!{WORD})|\s+por\s+aqui\s*(?:[.!,:]|$)"
    # ("DeepSeek公司的消息" is news: a company is named so by anyone.)
    r"|\s*(?:大?模型|助手|智能助手|开发|研发|训练|推出|团队|为你|为您)|\s+al\s+habla"
    # The maker as the subject: "Alibaba Cloud trained me", "Cohere me entrenó", "谷歌训练了我".
    rf"|\s+(?:trained|built|created|developed|designed|programmed|fine-tuned)\s+me(?!{WORD})"
    r"|\s+me\s+(?:treinou|criou|desenvolveu|construiu|entreno|creo|desarrollo|construyo)"
    r"|\s*(?:的(?:工程师|团队|研发团队|研究人员|研究团队|科学家|开发者|开发团队)们?)?"
    r"\s*(?:开发|训练|打造|创造|研发|设计|创建)了我|\s*是我的(?:开发者|创造者|研发方|开发方|东家)"
    # "Google's engineers trained me", "Google made me", "Google is my developer".
    r"|'s\s+(?:engineers|team|researchers|scientists|developers)\s+(?:trained|built|created"
    r"|developed|designed|made)\s+me(?![a-z])|\s+made\s+me(?![a-z])"
    r"|\s+me\s+(?:fez|hizo|programou|programo|treinaram|criaram|desenvolveram|construiram"
    r"|entrenaron|crearon|desarrollaron|construyeron|hicieron)(?![a-z])"
    r"|\s+(?:is|e|es|est)\s+(?:my|meu|minha|mi|mon|ma)\s+(?:developer|creator|maker"
    r"|desenvolvedor|criador|creador|desarrollador)"
    # The one answering: "Como o Llama 3 que está conversando com você", "at your service".
    r"|,?\s+(?:que|who|that|qui)\s+(?:esta|is|te\s+esta|vous)\s+(?:\w+\s+)?(?:conversando"
    r"|falando|respondendo|escrevendo|talking|chatting|speaking|answering|writing|replying"
    r"|hablando|respondiendo|escribiendo|parle|repond)"
    r"|,?\s+(?:at\s+your\s+service|a\s+su\s+servicio|a\s+tu\s+servicio|a\s+seu\s+dispor"
    r"|ao\s+seu\s+dispor|a\s+sua\s+disposicao|para\s+servirte|a\s+votre\s+service)"
    # What a name says, as a label ("Perplexity answer:"), and what it is set apart as
    # ("Cortana, Microsoft's assistant"; "Alexa, a assistente social" is a person).
    r"|\s+(?:answer|answers|says|responde|diz|dice|recomenda|recomienda|suggests|sugere"
    r"|sugiere)\s*:"
    r"|,\s+(?:(?:the|an?|o|a|um|uma|el|la|un|una|your|seu|sua|tu)\s+)?(?:[\w-]+'s\s+)?"
    r"(?:(?:ai|ia|virtual|digital)\s+)?(?:model|modelo|assistant(?!\s+social)|assistente"
    r"(?!\s+social)|asistente(?!\s+social)|chatbot|llm)(?![a-z])"
    # Signing off: "Gemini, signing off", "Grok out.", "Llama, despedindo-se".
    r"|,?\s+(?:signing\s+off|over\s+and\s+out|despedindo-se|me\s+despido|se\s+despide"
    r"|out\s*(?:[.!]|$))"
    # Advice given to the reader in Chinese: "元宝提醒你", "混元这边建议你".
    r"|\s*(?:这边|这里)?(?:提醒|建议|温馨提示|告诉|来回答|来解答|认为|觉得)(?:你|您)"
    # The disclaimer under an assistant's answer: "Gemini can make mistakes".
    # (then what to check: "Gemma could be wrong about the bus" is anybody).
    r"|\s+(?:can|may|might)\s+make\s+mistakes[^\n]{0,60}?(?:check|verify|confirm)"
    r"|\s+(?:pode|puede)\s+cometer\s+(?:erros|errores)[^\n]{0,60}?(?:confir|verifi|revis|cheque"
    r"|comprueb)"
    r"|\s*可能会?(?:出错|犯错)[^\n]{0,30}?(?:核实|核对|确认|查证)"
    # An answer under the name: "豆包的建议", "通义的回答".
    r"|\s*的(?:建议|回答|回复|答复)"
    r"|,\s+(?:i|eu|yo|je)\s"
    # "O Jequitibá é um modelo de linguagem", "Nimbus is an AI assistant", "Brisa es una IA".
    r"|\s+(?:e|is|es|est|was|foi|fue)\s+(?:(?:um|uma|an?|the|o|a|un|una|el|la|le|l')\s+)?"
    r"(?:(?:\w+\s+){0,2}?)(?:modelo|model|modele|assistente|assistant|asistente|ia|ai|llm"
    r"|chatbot)(?![a-z])"
)
# What opens a sentence: the text's start, a full stop, a line's start, a bullet.
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n\s*(?:[-*#>]+\s+|\d+[.)]\s+)?)[\"'*_(\[]*$")


# "Como Llama, não tenho opinião", "As Gemini, I do not": the speaker speaking as the name,
# at a sentence's start; "Empresas como Meta, Google" is a list.
_AS_BEFORE = re.compile(
    r"(?:^|[.!?:]\s+|\n\s*)(?:as|como|en\s+tant\s+que|enquanto|being|sendo|siendo)"
    r"\s+(?:(?:o|a|el|la|the)\s+)?[*_]{0,2}$"
)
_SPEAKS_AFTER = re.compile(
    r"[*_]{0,2},\s+(?:nao|no|ne|i|i'd|i'll|i'm|i've|eu|yo|je|my|minha|meu|mi|mis|tenho|tengo"
    r"|puedo|posso|te|le|lhe|les|vos|sugiro|sugiero|recomendo|recomiendo|diria|would|can)\s"
)


def speaks_as(folded: str, start: int, end: int) -> bool:
    """Whether the name at folded[start:end] is the one the speaker speaks as."""
    return (
        _AS_BEFORE.search(folded[max(0, start - 20) : start]) is not None
        and _SPEAKS_AFTER.match(folded, end) is not None
    )


def opens_sentence(folded: str, start: int) -> bool:
    """Whether a word at `start` opens a sentence, where any word is capitalised."""
    return _SENTENCE_START.search(folded[max(0, start - 12) : start]) is not None


# An answer that opens on its speaker's arrival: "豆包来啦！", "元宝在此，" (a name in no list
# needs the help it brings too: review_app.anonymiser.cjk_intro).
_ARRIVES = re.compile(r"\s*(?:来啦|在此|在这里|上线啦|上线了|报到)")
_ANSWER_OPENING = re.compile(r"\W*(?:(?:你好|您好|嗨|哈喽|大家好)\W*)?")


def arrives_at_opening(folded: str, start: int, end: int) -> bool:
    """Whether the name at folded[start:end] opens the answer announcing its arrival."""
    opening = _ANSWER_OPENING.match(folded)
    return (
        opening is not None and opening.end() == start and _ARRIVES.match(folded, end) is not None
    )
