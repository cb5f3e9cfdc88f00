"""Chinese self-introductions of names and makers that no list holds, for the anonymiser
(anonymiser.anonymise): "我叫小智，由…开发", "你好呀，小美在这里！", "小美来啦！今天帮你…",
"我是平安银行的小安，很高兴为你服务", "我由星辰科技开发".

Chinese writes no space between words, so a name is told apart by what surrounds it: the
speaker's "我是", what the name is, who made it, or the help it offers right after.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from review_app.anonymiser.quotes import is_quoted
from review_app.anonymiser.textfold import FoldedText

# The speaker ("我", "本助手") earlier in the sentence: "我是小禾，…的导诊助手，由绿洲医疗科技开发",
# "本助手名为“晓禾”，由禾苗人工智能实验室开发"; "这款手机由华为开发" names no speaker.
_CJK_MAKER = re.compile(
    r"(?:我(?!家|的|们|爸|妈)|本(?:助手|模型|系统|机器人|应用|产品|ai|智能体))(?:(?!这|那|它|他|她|谁)[^。！？!?\n]){0,40}?"
    r"由(?P<maker>(?!谁|什么|哪|一[家个群位名])[^\s，,。！？!?、的]{1,16}?)(?:公司|团队)?"
    r"(?:开发|训练|研发|打造|创建|推出|设计|构建)"
    # "作为由星河智能开发的AI": the speaker as what the maker made; "作为由华为开发的手机" is not.
    r"|作为(?:一个|一款|一种|一名)?由(?P<as_maker>[^\s，,。！？!?、的]{1,16}?)(?:公司|团队)?"
    r"(?:开发|训练|研发|打造)的[^，,。！？!?\n]{0,6}?(?:ai|人工智能|助手|模型|机器人)"
    # The maker without "由": "我是中国科学院自动化研究所训练的模型", "作为华为诺亚方舟实验室
    # 参与训练的模型".
    r"|(?:我是|作为)(?:一个|一款|一种|一名)?(?!由)(?P<direct_maker>[^\s，,。！？!?、的是]{2,16}?)"
    r"(?:参与|联合|自主)?(?:开发|训练|研发|打造|推出)的[^，,。！？!?\n]{0,6}?"
    r"(?:ai|人工智能|助手|模型|机器人)"
)
# "我是明德中学的学伴机器人": the organisation, then the speaker's name before its kind.
_CJK_NAME_BEFORE_KIND = re.compile(
    r"(?:我是|这里是)[^\s，,。！？!?、的]{2,12}?的(?P<name>[^\s，,。！？!?、的]{2,4}?)"
    r"(?:机器人|助手|助理|客服|ai)"
)
_CJK_KIND_WORDS = ("智能", "在线", "线上", "人工", "虚拟", "数字", "专属", "ai", "官方", "网上")
# "我是X，一个…", "我叫X，由…开发", "我是小瑞，很高兴为你服务": the name, then what it is, who
# made it, or the help it offers.
_CJK_INTRODUCTION = re.compile(
    r"(?:我是(?:一个|一款|一位|一名)?(?:叫|名叫|叫做)|我是|我叫|我的名字是|我的名字叫|这里是|名为"
    r"|(?:可以|你可以|您可以)叫我)[\"\u201c\u300c]?"
    r"(?P<name>[^\s，,。！？!?、的是\"\u201d\u300d]{1,8}?)[\"\u201d\u300d]?"
    r"(?=[，,]\s*(?:一个|一款|一种|由|来自|你的|您的)|由|的(?:ai|助手|助理|模型|机器人|人工智能|智能)"
    r"|[，,。！!~]\s*[^。？?\n]{0,20}?"
    r"(?:帮|为你|为您|服务|效劳|助手|助理|模型|人工智能|ai|客服|机器人|顾问|管家|导购|向导))"
)
# A greeting, then the name "here" with the help it offers: "你好呀，小美在这里！有什么想问的？".
_CJK_HERE = re.compile(
    r"(?:你好|您好|嗨|哈喽|大家好)[呀啊哦~！!，,\s]*(?P<name>[^\s，,。！？!?、的我你他她它这那]{1,6}?)"
    r"(?:(?:在这里|在此|来啦|来了)[，,！!~\s]*(?:为你|为您|帮你|帮您|陪你|有什么|随时)"
    # "嗨！小蓝为您服务": serving, not "妈妈为你做了饭".
    r"|(?:很高兴)?(?:为你|为您)(?:服务|效劳))"
)
# An answer that opens on its speaker's arrival, with the help it brings: "小美来啦！今天帮你整理"
# ("春天来啦！记得带孩子去打疫苗" offers no help: spring is no speaker).
_CJK_ARRIVING = re.compile(
    r"\W*(?:(?:你好|您好|嗨|哈喽|大家好)[呀啊哦~！!，,\s]*)?(?P<name>[^\s，,。！？!?、的我你他她它这那]{1,6}?)"
    r"(?:(?:来啦|来了|在这里|在此|上线啦|上线了|报到)[，,！!~。\s]*[^。？?\n]{0,8}?"
    r"(?:为你|为您|帮你|帮您|陪你|随时|给你|有什么(?:可以|能|需要|想|要))"
    # "小云为您服务～": serving, not "妈妈为你做了饭".
    r"|(?:很高兴)?(?:为你|为您)(?:服务|效劳))"
)
# "我是平安银行的小安，很高兴为你服务": the speaker's organisation, then its nickname, then help.
_CJK_ORGANISATION_NICKNAME = re.compile(
    r"(?:我是|这里是)(?P<organisation>[^\s，,。！？!?、的]{2,12}?)的(?P<name>[小阿][^\s，,。！？!?、的]{1,3})"
    r"[，,。！!~]\s*[^。？?\n]{0,20}?(?:帮|为你|为您|服务|效劳|有什么)"
)
_CJK_DESCRIPTION = ("一", "个", "你", "您", "ai", "人工智能", "语言", "大型", "智能", "来自", "由")


def spans_of_cjk_makers(document: FoldedText) -> Iterable[tuple[int, int]]:
    """The maker after the speaker's "由…开发" ("我由星辰科技开发")."""
    folded = document.folded
    for match in _CJK_MAKER.finditer(folded):
        group = next(g for g in ("maker", "as_maker", "direct_maker") if match.group(g) is not None)
        yield document.original_span(match.start(group), match.end(group))


def spans_of_cjk_introductions(document: FoldedText) -> Iterable[tuple[int, int]]:
    """The name a Chinese self-introduction gives, and the organisation before a nickname."""
    folded, original = document.folded, document.original
    for match in _CJK_INTRODUCTION.finditer(folded):
        # '他说：“我是小王，…”' is somebody else; '本助手名为“晓禾”' quotes only the name.
        if is_quoted(original, document.original_index(match.start())):
            continue
        if not match.group("name").startswith(_CJK_DESCRIPTION):
            yield document.original_span(match.start("name"), match.end("name"))
    for match in _CJK_HERE.finditer(folded):
        yield document.original_span(match.start("name"), match.end("name"))
    arriving = _CJK_ARRIVING.match(folded)
    if arriving is not None:
        yield document.original_span(arriving.start("name"), arriving.end("name"))
    for match in _CJK_NAME_BEFORE_KIND.finditer(folded):
        quoted = is_quoted(original, document.original_index(match.start()))
        if not quoted and not match.group("name").startswith(_CJK_KIND_WORDS):
            yield document.original_span(match.start("name"), match.end("name"))
    for match in _CJK_ORGANISATION_NICKNAME.finditer(folded):
        if not is_quoted(original, document.original_index(match.start())):
            for group in ("organisation", "name"):
                yield document.original_span(match.start(group), match.end(group))
