"""Is a piece of text a checkable fact, or a personal statement, opinion, greeting or question?

TRUE's finding: personal statements ("I love dogs") are not facts and should not be
judged. These hand-written rules (English, and first-person cues in the other languages
of the multilingual FActScore study, fr es zh ru vi ar hi bn, plus de) are deliberately
conservative: when no rule fires, the text is checkable, so an error is never hidden
behind a wrong "not checkable".
"""

from __future__ import annotations

import re

from factjudge.text.segmenter import split_sentences

# Quoted or reported words belong to someone else: "Einstein said 'I think...'" is a fact.
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|«[^»]*»|„[^“”]*[“”]|「[^」]*」|(?<![\w])'[^']*'(?![\w])")
_MARKER = re.compile(r"^\s*(?:[-*•+#>]+\s*|\(?\d{1,3}[.)]\s*)*")

# Interjections that open a reply; what follows them is judged on its own.
_OPENERS = re.compile(
    r"^(?:sure|certainly|of course|absolutely|definitely|yes|no|okay|ok|well|alright|great|"
    r"great question|good question|interesting question|oui|bien sûr|sí|claro|por supuesto|ja|natürlich|"
    r"klar)\s*(?:[,!.:;—–-]+\s*|$)",
    re.IGNORECASE,
)

# The speaker's feelings, wishes and offers: never facts about the world.
_PERSONAL = re.compile(
    r"^(?:i|we)\s+(?:really\s+|also\s+|truly\s+|absolutely\s+)?(?:love|like|hate|enjoy|adore|hope|wish|want|"
    r"prefer|miss|recommend|suggest|appreciate|can help|can assist|am happy|am glad|am excited|am sorry|"
    r"(?:would|'d) (?:love|like|recommend|suggest|be happy|be glad))\b"
    r"|^i'm (?:happy|glad|excited|sorry|not sure|unsure|here)\b"
    r"|^my (?:favou?rite|personal)\b"
    r"|^(?:hope (?:this|that|it) helps|let me know|feel free|don't hesitate|do not hesitate|"
    r"happy to help|glad to help|glad i could help|you're welcome|you are welcome|"
    r"good luck|best of luck|have a (?:great|nice|good|wonderful) (?:day|time|trip|evening|week)|enjoy)\b"
    # "Thanks to penicillin, ..." and "Hi-C is ..." are not greetings.
    r"|^(?:thank you|thanks|hello|hi|hey)(?:\s*[,!.]|\s+(?:for|so much|again|there)\b|\s*$)"
    r"|^(?:j'aime|j'adore|je préfère|j'espère|me gusta|me encanta|espero|prefiero|"
    r"ich (?:mag|liebe|hoffe|bevorzuge|wünsche))\b",
    re.IGNORECASE,
)

# The same in scripts where \b does not work (Indic vowel signs are not word characters) or
# where no space follows the pronoun (zh): first-person feelings, wishes, advice and thanks.
_PERSONAL_MORE = re.compile(
    r"^(?:我(?:真的|非常|很|也)?(?:喜欢|爱|讨厌|希望|推荐|建议)|希望(?:这|你|您|对)|祝(?:你|您)|谢谢"
    r"|я\s+(?:очень\s+|действительно\s+|тоже\s+)?(?:люблю|обожаю|ненавижу|надеюсь|хочу|предпочитаю|"
    r"рекомендую|советую)|надеюсь|желаю|спасибо"
    r"|tôi\s+(?:rất\s+|thực sự\s+|cũng\s+)?(?:yêu|thích|ghét|hy vọng|hi vọng|mong|muốn|khuyên)"
    r"|hy vọng|hi vọng|chúc bạn|cảm ơn"
    r"|(?:أنا\s+)?(?:أحب|أعشق|أكره|أتمنى|آمل|أفضل|أنصح)|شكرا|شكرًا|شكراً"
    r"|मुझे\s.*(?:पसंद|अच्छा लगता|अच्छी लगती|प्यार)|मैं\s.*(?:प्यार करत|आशा करत|उम्मीद करत|चाहत)"
    r"|आशा है|उम्मीद है|धन्यवाद|शुभकामना"
    r"|আমি\s.*(?:ভালোবাসি|ভালবাসি|পছন্দ করি|আশা করি)|আমার\s.*(?:পছন্দ|ভালো লাগে)|আশা করি|ধন্যবাদ|শুভকামনা)",
    re.IGNORECASE,
)
# Opinion hedges in those languages; what follows is judged as after an English hedge.
_HEDGE_MORE = re.compile(
    r"^(?:我(?:觉得|认为|相信)|在我看来|我个人(?:认为|觉得)?"
    r"|я\s+(?:думаю|считаю|полагаю)|по-моему|по моему мнению|мне кажется"
    r"|tôi\s+(?:nghĩ|cho rằng|tin rằng|thấy)|theo tôi"
    r"|أعتقد|أظن|في رأيي|برأيي"
    r"|मुझे लगता है|मेरे विचार में|मेरी राय में|मैं सोचत[ाी] हूँ"
    r"|আমার মনে হয়|আমি মনে করি|আমার মতে)(?:\s+(?:что|rằng|أن|कि|যে))?[\s,，、]*",
    re.IGNORECASE,
)

# The model talking about itself instead of the world.
_DISCLAIMER = re.compile(
    r"^(?:as an? (?:ai|language model|large language model|artificial intelligence)\b.*?|"
    r"i(?:'m| am) (?:just )?an? (?:ai|language model|large language model)\b.*?|"
    r"i (?:cannot|can't|can not|am unable to|am not able to|don't have|do not have)\b.*?|"
    r"i (?:don't|do not) know\b.*?|"
    r"i(?:'m| am) (?:unable|not able|not sure|sorry)\b.*?|"
    r"my (?:knowledge|training data|last update)\b.*?|"
    r"i apologi[sz]e\b.*?|sorry\b.*?)"
    r"(?:(?:,|;|\.)\s*(?:but|however)\s*,?\s*(.*))?$",
    re.IGNORECASE | re.DOTALL,
)

# Opinion hedges: what follows is checked for evaluative words.
_HEDGE = re.compile(
    r"^(?:i (?:personally )?(?:think|believe|feel|guess|suppose|reckon|find)|i'd say|i would say|"
    r"in my (?:opinion|view|experience)|personally|it seems to me|imo|from my (?:perspective|point of view)|"
    r"je (?:pense|crois|trouve)|à mon avis|selon moi|personnellement|"
    r"(?:creo|pienso|opino)|en mi opinión|personalmente|"
    r"ich (?:denke|glaube|finde|meine)|meiner meinung nach|persönlich)\b\s*(?:that|que|qu'|dass)?\s*,?\s*",
    re.IGNORECASE,
)
_EVALUATIVE = re.compile(
    r"\b(?:great|good|best|better|worse|worst|bad|nice|beautiful|amazing|awesome|wonderful|excellent|"
    r"interesting|boring|fun|funny|delicious|lovely|perfect|terrible|awful|fantastic|overrated|"
    r"underrated|worth|should|ought|must|favou?rite|cool|important|impressive|easy|easier|hard|harder|"
    r"difficult|enjoyable|beau|belle|bon|bonne|meilleur|génial|intéressant|bueno|buena|mejor|"
    r"hermoso|interesante|gut|besser|schön|toll|interessant|"
    r"красив\w*|прекрасн\w*|интересн\w*|замечательн\w*|отличн\w*|вкусн\w*|лучш\w*|хорош\w*|"
    r"ужасн\w*|скучн\w*|стоит|должн\w*|"
    r"đẹp|tuyệt vời|tuyệt|ngon|thú vị|hấp dẫn|xuất sắc|tệ|chán|nên|đáng)\b"
    # Scripts where \b fails (Indic vowel signs are not word characters; zh has no spaces):
    # the word must not run on into more of its script. zh words are two characters, since
    # a lone 美 also starts 美国 (the United States).
    r"|(?:很美|真美|太美|美丽|漂亮|好看|好吃|有趣|精彩|值得|应该|很好|最好|更好|很棒|优秀|迷人|无聊|"
    r"糟糕|完美|出色|可爱|壮观)"
    r"|(?:सुंदर|सुन्दर|खूबसूरत|ख़ूबसूरत|अच्छा|अच्छी|अच्छे|बेहतरीन|शानदार|बढ़िया|स्वादिष्ट|दिलचस्प|"
    r"रोचक|अद्भुत|बेहतर|चाहिए|उबाऊ)(?![\u0900-\u097f])"
    r"|(?:সুন্দর|ভালো|ভাল|চমৎকার|দারুণ|অসাধারণ|সেরা|মজার|সুস্বাদু|আকর্ষণীয়|উচিত|অপূর্ব|দুর্দান্ত|"
    r"বিরক্তিকর)(?![\u0980-\u09ff])"
    r"|(?<![\u0600-\u06ff])(?:ال)?(?:جميل|رائع|ممتع|لذيذ|أفضل|أجمل|جيد|مذهل|ممل|سيئ)(?:ة|ه|ون|ين|ات)?"
    r"(?![\u0600-\u06ff])|(?:يستحق|تستحق|ينبغي|يجب)",
    re.IGNORECASE,
)


def _letters(ranges: tuple[tuple[int, int], ...], test: str) -> str:
    """A regex class body of the characters in ``ranges`` for which ``str.<test>()`` holds."""
    return "".join(re.escape(chr(c)) for lo, hi in ranges for c in range(lo, hi) if getattr(chr(c), test)())


# Latin (with Vietnamese), Greek and Cyrillic: the scripts where a capital marks a name.
_CASED_RANGES = ((0x41, 0x250), (0x370, 0x530), (0x1E00, 0x1F00))
# A hedged sentence still states a fact when it names something or gives a number. In a
# script without case (ar hi bn zh …) no capital marks a name: there the evaluative words
# alone decide, so "我认为北京是中国的首都" stays checkable.
_FACT_SIGNAL = re.compile(
    rf"\d|(?<=\s)[{_letters(_CASED_RANGES, 'isupper')}][{_letters(_CASED_RANGES, 'islower')}]"
    r"|[\u0600-\u06ff\u0900-\u09ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]"
)

# "As of my knowledge cutoff in 2021, X": X is still a claim about the world.
_CUTOFF = re.compile(r"^(?:as of|according to|based on) my (?:knowledge|training|last update)[^,]*,\s*",
                     re.IGNORECASE)

_INTRO = re.compile(r"^(?:here (?:is|are)|here's|below (?:is|are)|the following|these are|this is)\b",
                    re.IGNORECASE)


def is_checkable(text: str) -> bool:
    """True when ``text`` states something about the world that a judge can check."""
    return any(_sentence_checkable(s) for s in split_sentences(text))


def _sentence_checkable(sentence: str) -> bool:
    """Apply the rules to one sentence; default checkable."""
    text = _MARKER.sub("", sentence).strip().replace("’", "'")
    while True:
        opener = _OPENERS.match(text)
        if not opener or opener.end() == 0:
            break
        text = text[opener.end() :].strip()
    text = _CUTOFF.sub("", text)
    if not any(ch.isalnum() for ch in text):
        return False  # "Sure!" and nothing else
    own = _QUOTED.sub(" “…” ", text).strip()
    if re.search(r"[?？؟]\s*$", own):
        return _did_you_know(own)
    if _PERSONAL.match(own) or _PERSONAL_MORE.match(own):
        return False
    disclaimer = _DISCLAIMER.match(own)
    if disclaimer:
        rest = disclaimer.group(1)
        return bool(rest) and _sentence_checkable(rest)
    hedge = _HEDGE.match(own) or _HEDGE_MORE.match(own)
    if hedge:
        rest = own[hedge.end() :]
        if _PERSONAL.match(rest) or _PERSONAL_MORE.match(rest):
            return False
        return not _EVALUATIVE.search(rest) and bool(_FACT_SIGNAL.search(" " + rest))
    # A lead-in such as "Here are some options:" announces facts but states none.
    return not (own.endswith(":") and (_INTRO.match(own) or len(own.split()) <= 6))


def _did_you_know(question: str) -> bool:
    """A rhetorical "Did you know that X?" states X; other questions state nothing."""
    match = re.match(r"^did you know (?:that )?(.+?)[?？؟]\s*$", question, re.IGNORECASE)
    return match is not None and _sentence_checkable(match.group(1) + ".")
