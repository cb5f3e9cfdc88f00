"""Traditional Chinese characters read as their simplified forms, for the anonymiser's folded
text (anonymiser.textfold): "通義千問" is "通义千问", "騰訊混元" is "腾讯混元", and the cues
("我們", "開發", "訓練的模型") match in either script.

The table holds the characters of the shipped Chinese names (review_app/data/
assistant_names.json) and of the cues, and the commonest others; each traditional character
maps to one simplified character, so the folded text keeps its length. A character both
scripts write alike (混, 元, 千) is not in it.
"""

from __future__ import annotations

_TRADITIONAL = (
    "萬東為義書雲亞崙侖偉華動勞團應寶傑夢湯靈愛貓盤碼納維網聯腦臉騰藝節蘋蟻螞訊語譜躍達遜問階飛馬駝"
    "學開發產們這個來訓練機說與實驗體術會務請謝幫歡隊計設據庫識該題還沒時間長後從讓進樣點邊關係經歷"
    "講話寫認過見現變聽氣當辦報陸際國圖灣幣錢銀險醫療藥師員營運樂級線絡頁鳥龍億鋒創業風視頻眾號廣"
    "釘獵覺諾慶寧歸總統簡譯軟標準簽約聞啟問麼於裡裏囉嗎爾為術專業廠傳預題類鏈雜對導遊戲"
    "熱門誰樹場幾極則將處備復緊鐘戶稱嚴舉聲區縣鄉鎮與臺灣產權價購買賣費貸險證書記錄連結戰"
)
_SIMPLIFIED = (
    "万东为义书云亚仑仑伟华动劳团应宝杰梦汤灵爱猫盘码纳维网联脑脸腾艺节苹蚁蚂讯语谱跃达逊问阶飞马驼"
    "学开发产们这个来训练机说与实验体术会务请谢帮欢队计设据库识该题还没时间长后从让进样点边关系经历"
    "讲话写认过见现变听气当办报陆际国图湾币钱银险医疗药师员营运乐级线络页鸟龙亿锋创业风视频众号广"
    "钉猎觉诺庆宁归总统简译软标准签约闻启问么于里里啰吗尔为术专业厂传预题类链杂对导游戏"
    "热门谁树场几极则将处备复紧钟户称严举声区县乡镇与台湾产权价购买卖费贷险证书记录连结战"
)
SIMPLIFIED_OF = dict(zip(_TRADITIONAL, _SIMPLIFIED, strict=True))
