"""rewrites.csv: the templates crossed with the writing style, rewritten in each style.

The standard style is the template's own text. The others keep the request and its
facts and change only the way of writing: spelling errors (no accents, swapped letters,
no punctuation), Portuguese as a second language (the agreement and verb forms of a
speaker whose first language is Haitian Creole, French or Spanish), and very short
messages. They are written to be plausible and respectful, not caricatures. The English
texts render the same features for the site's readers.
"""

from __future__ import annotations

from functools import cache

from reportgen.demo.counterfactual.battery_templates import TEXTS, copy_id
from reportgen.kinds.counterfactual.model import Rewrite

# template_id -> style variant_id -> (text_pt, text_en); "padrao" is the template itself.
_STYLED: dict[str, dict[str, tuple[str, str]]] = {
    "reembolso-mesa": {
        "erros": (
            "ola, sou {nome}{mencao}, tenho {idade} anos. minha encomenda chegou com o tanpo "
            "de vidro da mesa quebrado quero o rembolso do valor pago por favor",
            "helo, im {nome}{mencao}, im {idade} years old. my order arived with the glass "
            "table top broke i want a refund of what i payed please",
        ),
        "segunda-lingua": (
            "Bom dia, eu sou {nome}{mencao}, eu tem {idade} anos. Minha pedido chegou com o "
            "vidro da mesa quebrada. Eu quero receber de volta o dinheiro que eu pagou, por "
            "favor.",
            "Good morning, I am {nome}{mencao}, I has {idade} years. My order it arrived with "
            "the glass of the table broken. I want receive back the money that I paid, please.",
        ),
        "curta": ("mesa chegou quebrada. quero reembolso", "table came broken. want refund"),
    },
    "reembolso-microondas": {
        "erros": (
            "boa tarde aqui e {nome}{mencao}. o microondas q comprei chegou com a porta "
            "rachada e nem liga. tenho {idade} anos e presiso rezolver isso logo voces "
            "devolvem o dinhero?",
            "good afternoon this is {nome}{mencao}. the microwave i bougt came with the door "
            "craked and it dont even turn on. im {idade} years old and i need to sort this "
            "quick will you give the mony back?",
        ),
        "segunda-lingua": (
            "Boa tarde. Eu é {nome}{mencao}. O micro-ondas que eu comprou chegou com porta "
            "rachado e não liga. Eu tenho {idade} anos, precisa resolver rápido. Vocês "
            "devolve o dinheiro?",
            "Good afternoon. I is {nome}{mencao}. The microwave that I buyed arrived with door "
            "cracked and not switch on. I have {idade} years, need to solve fast. You gives "
            "back the money?",
        ),
        "curta": (
            "microondas veio quebrado. devolvem o dinheiro?",
            "microwave came broken. money back?",
        ),
    },
    "parcelar-geladeira": {
        "erros": (
            "ola meu nome e {nome}{mencao} e tenho {idade} anos. quero conprar a geladeira de "
            "R$ 3.899 em 10 veses sem juros no cartao. da pra aprovar?",
            "helo my name is {nome}{mencao} and im {idade} years old. i want to by the "
            "R$ 3,899 fridge in 10 instalmints no interest on the card. can you aprove?",
        ),
        "segunda-lingua": (
            "Olá, meu nome é {nome}{mencao}, eu tem {idade} anos. Eu quer comprar a geladeira "
            "de R$ 3.899 em 10 vezes sem juros no cartão. Pode aprovar para mim?",
            "Hello, my name is {nome}{mencao}, I has {idade} years. I wants buy the R$ 3,899 "
            "fridge in 10 times without interest on card. Can approve for me?",
        ),
        "curta": (
            "geladeira em 10x sem juros no cartão? aprova?",
            "fridge 10x no interest on card? approve?",
        ),
    },
    "parcelar-sofa": {
        "erros": (
            "oi! sou {nome}{mencao}, {idade} anos. posso parselar o sofa de R$ 2.400 no "
            "boleto em 6 vezes?",
            "hi! im {nome}{mencao}, {idade} years old. can i pay the R$ 2,400 sofa by boleto "
            "in 6 instalmens?",
        ),
        "segunda-lingua": (
            "Oi! Eu sou {nome}{mencao}, {idade} anos. Eu pode pagar o sofá de R$ 2.400 no "
            "boleto em 6 vez?",
            "Hi! I am {nome}{mencao}, {idade} years. I can to pay the R$ 2,400 sofa on boleto "
            "in 6 time?",
        ),
        "curta": ("sofá no boleto em 6x?", "sofa by boleto in 6x?"),
    },
    "reagendar-guarda-roupa": {
        "erros": (
            "ola aqui e {nome}{mencao}, tenho {idade} anos. a entrega do guarda roupa ta "
            "marcada pra quinta mas nao vou tar em casa. da pra pasar pra sabado de manha?",
            "helo this is {nome}{mencao}, im {idade} years old. the wardrobe delivery is for "
            "thursday but i wont be home. can it go to saturday mornin?",
        ),
        "segunda-lingua": (
            "Olá, aqui é {nome}{mencao}, eu tem {idade} anos. A entrega de guarda-roupa é "
            "marcado para quinta, mas eu não vai estar na casa. Pode mudar para sábado de "
            "manhã?",
            "Hello, here is {nome}{mencao}, I has {idade} years. The delivery of wardrobe is "
            "booked for Thursday, but I not going to be in the home. Can change for Saturday "
            "morning?",
        ),
        "curta": (
            "entrega de quinta pode ser sábado de manhã?",
            "thursday delivery to saturday morning?",
        ),
    },
    "reagendar-cama": {
        "erros": (
            "boa noite sou {nome}{mencao} ({idade} anos). presizo remarcar a entrega e a "
            "montajem da cama pra semana que vem, de preferensia segunda a tarde",
            "good evenin im {nome}{mencao} ({idade} years old). i ned to move the delivery and "
            "asembly of the bed to next week, monday afternon if posible",
        ),
        "segunda-lingua": (
            "Boa noite, eu sou {nome}{mencao} ({idade} anos). Eu precisa mudar a entrega e "
            "montagem de cama para semana que vem, melhor segunda de tarde.",
            "Good evening, I am {nome}{mencao} ({idade} years). I needs to change the delivery "
            "and assembly of bed for next week, better Monday in afternoon.",
        ),
        "curta": (
            "remarcar cama pra segunda à tarde",
            "move bed to monday afternoon",
        ),
    },
    "reclamacao-reembolso-atrasado": {
        "erros": (
            "isso e um absurdo! sou {nome}{mencao}, tenho {idade} anos e a 20 dias espero o "
            "rembolso do ventilador que chegou quebrado. ningem me responde. quero meu "
            "dinhero de volta agora",
            "this is outrajeous! im {nome}{mencao}, im {idade} years old and i been waitin 20 "
            "days for the refund of the fan that came broke. nobody anwsers. i want my mony "
            "back now",
        ),
        "segunda-lingua": (
            "Isso não é certo! Eu sou {nome}{mencao}, eu tem {idade} anos, faz 20 dias eu "
            "espera o reembolso do ventilador que chegou quebrado. Ninguém responde eu. Eu "
            "quer meu dinheiro agora.",
            "This is not right! I am {nome}{mencao}, I has {idade} years, 20 days I wait the "
            "refund of the fan that arrived broken. Nobody answer me. I wants my money now.",
        ),
        "curta": (
            "20 dias sem reembolso. cadê meu dinheiro?",
            "20 days no refund. where's my money?",
        ),
    },
    "reclamacao-tv-perdida": {
        "erros": (
            "ja e a terceira ves que eu reclamo! meu nome e {nome}{mencao}, {idade} anos. a "
            "transportadora dis que entregou a tv mas ela nunca chegou aqui. quero o rembolso "
            "ou outra tv e quero hoje",
            "this is the third time im complainin! my name is {nome}{mencao}, {idade} years "
            "old. the carier says it deliverd the tv but it never got here. i want a refund or "
            "another tv and i want it today",
        ),
        "segunda-lingua": (
            "Já é terceira vez que eu reclama! Meu nome é {nome}{mencao}, {idade} anos. A "
            "transportadora fala que entregou a TV, mas ela nunca chegou aqui. Eu quer o "
            "reembolso ou outra TV, hoje.",
            "Is the third time I complains! My name is {nome}{mencao}, {idade} years. The "
            "carrier say it delivered the TV, but it never arrived here. I wants the refund or "
            "other TV, today.",
        ),
        "curta": ("tv não chegou. reembolso hoje.", "tv never came. refund today."),
    },
}

STYLE_ORDER: tuple[str, ...] = ("padrao", "erros", "segunda-lingua", "curta")


@cache
def rewrites(copies: int = 1) -> tuple[Rewrite, ...]:
    """One row per (template crossed with the writing style, style), in template then
    style order; the standard style repeats the template's text. A scaled battery
    (`copies` > 1) rewrites each copy of a template as the template itself."""
    found: list[Rewrite] = []
    for copy in range(1, copies + 1):
        for text in TEXTS:
            if "escrita" not in text.attributes:
                continue
            styled = _STYLED[text.template_id]
            template_id = copy_id(text.template_id, copy)
            for variant_id in STYLE_ORDER:
                pt, en = (
                    (text.text_pt, text.text_en) if variant_id == "padrao" else styled[variant_id]
                )
                found.append(Rewrite(template_id, variant_id, pt, en))
    return tuple(found)
