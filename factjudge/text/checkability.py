"""Is a piece of text a checkable fact, or a personal statement, opinion, greeting or question?

TRUE's finding: personal statements ("I love dogs") are not facts and should not be
judged. These hand-written rules (English, and first-person cues in the other languages
of the multilingual FActScore study, fr es zh ru vi ar hi bn, plus de) are deliberately
conservative: when no rule fires, the text is checkable, so an error is never hidden
behind a wrong "not checkable".

A sentence is not checkable only when all it says is personal: the words around a fact
do not hide it. After a personal cue ("Sorry", "I recommend", "Enjoy") or a hedge ("I
think", "Personally"), a clause that names something, gives a number or says what a
thing is or does ("the tower stands …") still states a fact, as does a "that …" clause and a
place given to a name ("the Eiffel Tower in Rome"); clauses joined by ``;``, ", which",
", but" … are weighed one by one, so a fact with "which is important" after it is judged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factjudge.text.segmenter import split_sentences

# Quoted or reported words belong to someone else: "Einstein said 'I think...'" is a fact.
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|«[^»]*»|„[^“”]*[“”]|「[^」]*」|(?<![\w])'[^']*'(?![\w])")
_MARKER = re.compile(r"^\s*(?:[-*•+#>]+\s*|\(?\d{1,3}[.)]\s*)*")

# A clitic or punctuation mark split from its word by tokenisation.
_DETACHED = re.compile(r"\s+(n't|'(?:s|re|ve|m|ll|d)\b|[.!?,;:](?=\s|$))", re.IGNORECASE)

# Interjections that open a reply; what follows them is judged on its own.
_OPENERS = re.compile(
    r"^(?:sure|certainly|of course|absolutely|definitely|yes|yeah|yep|no|nope|okay|ok|well|alright|great|"
    r"great question|good question|interesting question|wow|oh|ah|amazing|awesome|cool|nice|interesting|"
    r"really|indeed|exactly|agreed|me too|same here|i see|i agree|haha|lol|"
    r"oui|bien sûr|sí|claro|por supuesto|ja|natürlich|klar)\s*(?:[,!.:;—–-]+\s*|$)",
    re.IGNORECASE,
)

# The speaker's feelings, wishes and offers: never facts about the world.
_PERSONAL = re.compile(
    r"^(?:i|we)\s+(?:really\s+|also\s+|truly\s+|absolutely\s+)?(?:love|like|hate|enjoy|adore|hope|wish|want|"
    r"prefer|miss|recommend|suggest|appreciate|can help|can assist|am happy|am glad|am excited|am sorry|"
    r"(?:would|'d) (?:love|like|recommend|suggest|be happy|be glad))\b"
    r"|^i'm (?:happy|glad|excited|sorry|not sure|unsure|here)\b|^i (?:don't|do not) know\b"
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
    r"^(?:我(?:觉得|认为|相信)|在我看来|我个人(?:认为|觉得)?|说实话|老实说|坦白说|说真的"
    r"|я\s+(?:думаю|считаю|полагаю)|по-моему|по моему мнению|мне кажется|честно говоря|откровенно говоря"
    r"|tôi\s+(?:nghĩ|cho rằng|tin rằng|thấy)|theo tôi|thật lòng mà nói|thành thật mà nói|nói thật"
    r"|أعتقد|أظن|في رأيي|برأيي|بصراحة|بكل صراحة|للأمانة"
    r"|मुझे लगता है|मेरे विचार में|मेरी राय में|मैं सोचत[ाी] हूँ|सच कहूँ तो|सच कहूं तो|सच कहें तो|ईमानदारी से कहूँ तो"
    r"|আমার মনে হয়|আমি মনে করি|আমার মতে|সত্যি বলতে|সত্যি কথা বলতে)"
    r"(?:\s+(?:что|rằng|أن|कि|যে))?[\s,，、،]*",
    re.IGNORECASE,
)

# The model talking about itself instead of the world: what follows the cue is weighed as
# after any personal cue.
_DISCLAIMER = re.compile(
    r"^(?:as an? (?:ai|language model|large language model|artificial intelligence)\b|"
    r"i(?:'m| am) (?:just )?an? (?:ai|language model|large language model)\b|"
    r"i (?:cannot|can't|can not|am unable to|am not able to|don't have|do not have)\b|"
    r"i (?:don't|do not) know\b|"
    r"i(?:'m| am) (?:unable|not able|not sure|sorry)\b|"
    r"my (?:knowledge|training data|last update)\b|"
    r"i apologi[sz]e\b|sorry\b)",
    re.IGNORECASE,
)

# Opinion hedges: what follows is checked for evaluative words.
_HEDGE = re.compile(
    r"^(?:i (?:personally )?(?:think|believe|feel|guess|suppose|reckon|find)|i'd say|i would say|"
    r"in my (?:opinion|view|experience)|personally|it seems to me|imo|from my (?:perspective|point of view)|"
    # Candour words frame what follows as the speaker's own view ("Honestly, I think it is …").
    r"honestly|frankly|truthfully|to be (?:honest|frank)|in all honesty|to tell (?:you )?the truth|"
    r"if you ask me|"
    r"je (?:pense|crois|trouve)|à mon avis|selon moi|personnellement|honnêtement|franchement|"
    r"sincèrement|pour être (?:honnête|franc|franche)|à vrai dire|"
    r"(?:creo|pienso|opino)|en mi opinión|personalmente|sinceramente|honestamente|francamente|"
    r"para ser (?:honesto|honesta|sincero|sincera)|"
    r"ich (?:denke|glaube|finde|meine)|meiner meinung nach|persönlich|ehrlich gesagt|offen gesagt)"
    r"\b\s*(?:that|que|qu'|dass)?\s*,?\s*",
    re.IGNORECASE,
)
_EVALUATIVE = re.compile(
    r"\b(?:great|good|best|better|worse|worst|bad|nice|beautiful|amazing|awesome|wonderful|excellent|"
    r"interesting|boring|fun|funny|delicious|lovely|perfect|terrible|awful|fantastic|overrated|"
    r"underrated|worth|should|ought|must|favou?rite|cool|important|impressive|easy|easier|hard|harder|"
    r"difficult|enjoyable|romantic|charming|magical|breathtaking|stunning|gorgeous|spectacular|"
    r"incredible|unforgettable|picturesque|peaceful|relaxing|cozy|cosy|pleasant|magnificent|"
    r"fascinating|exciting|inspiring|"
    r"beau|belle|bon|bonne|meilleur|génial|intéressant|romantique|charmant|charmante|magnifique|"
    r"magique|bueno|buena|mejor|hermoso|hermosa|interesante|romántico|romántica|encantador|encantadora|"
    r"precioso|preciosa|mágico|mágica|gut|besser|schön|toll|interessant|romantisch\w*|zauberhaft\w*|"
    r"wunderschön\w*|"
    r"красив\w*|прекрасн\w*|интересн\w*|замечательн\w*|отличн\w*|вкусн\w*|лучш\w*|хорош\w*|"
    r"ужасн\w*|скучн\w*|стоит|должн\w*|романтичн\w*|романтическ\w*|очаровательн\w*|волшебн\w*|"
    r"đẹp|tuyệt vời|tuyệt|ngon|thú vị|hấp dẫn|xuất sắc|tệ|chán|nên|đáng|lãng mạn|quyến rũ)\b"
    # Scripts where \b fails (Indic vowel signs are not word characters; zh has no spaces):
    # the word must not run on into more of its script. zh words are two characters, since
    # a lone 美 also starts 美国 (the United States).
    r"|(?:很美|真美|太美|美丽|漂亮|好看|好吃|有趣|精彩|值得|应该|很好|最好|更好|很棒|优秀|迷人|无聊|"
    r"糟糕|完美|出色|可爱|壮观|浪漫|美妙|神奇)"
    r"|(?:सुंदर|सुन्दर|खूबसूरत|ख़ूबसूरत|अच्छा|अच्छी|अच्छे|बेहतरीन|शानदार|बढ़िया|स्वादिष्ट|दिलचस्प|"
    r"रोचक|अद्भुत|बेहतर|चाहिए|उबाऊ|रोमांटिक|रोमानी|मनमोहक)(?![\u0900-\u097f])"
    r"|(?:সুন্দর|ভালো|ভাল|চমৎকার|দারুণ|অসাধারণ|সেরা|মজার|সুস্বাদু|আকর্ষণীয়|উচিত|অপূর্ব|দুর্দান্ত|"
    r"বিরক্তিকর|রোমান্টিক|মনোমুগ্ধকর)(?![\u0980-\u09ff])"
    r"|(?<![\u0600-\u06ff])(?:ال)?(?:جميل|رائع|ممتع|لذيذ|أفضل|أجمل|جيد|مذهل|ممل|سيئ|رومانسي|ساحر)"
    r"(?:ة|ه|ون|ين|ات)?"
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

# Where one clause ends and the next begins: each is weighed on its own.
_CLAUSE_BREAK = re.compile(
    r"\s*[;；]\s*|\s*[,，،]\s*(?=(?:which|who|where|and|but|so|yet|while|whereas|although|though|because|"
    r"since|however|mais|et|donc|qui|pero|y|aunque|aber|und|doch|denn)\b)"
    r"|\s+(?=(?:because|whereas|although)\b|and (?:it|that|this|which)\b)",
    re.IGNORECASE,
)
# The word that joins a clause to the one before it.
_JOINER = re.compile(
    r"^(?:which|who|where|and|but|so|yet|while|whereas|although|though|because|since|however|"
    r"mais|et|donc|qui|pero|y|aunque|aber|und|doch|denn|nhưng)\s*,?\s+",
    re.IGNORECASE,
)
# A cue's own clause ends at the first comma; what follows is weighed again.
_COMMA = re.compile(r"\s*[,，،、](?!\d)\s*")
# A "that" clause after a cue states its content: "I cannot stress enough that X".
_COMPLEMENT = re.compile(r"(?:\b(?:that|que|dass)\s+|\bqu')(.+)", re.IGNORECASE | re.DOTALL)
# A name given a place or an origin: "Enjoy the Eiffel Tower in Rome" says where the tower is.
_UPPER = _letters(_CASED_RANGES, "isupper")
_NAME = rf"[{_UPPER}][\w'-]*(?:\s+[{_UPPER}][\w'-]*){{0,5}}"
_RELATION = re.compile(
    rf"{_NAME}\s+(?:(?:is|are|was|were|stands|lies|sits|located)\s+)*(?:in|at|on|near|of|from|by)\s+"
    rf"(?:the\s+)?{_NAME}"
)
# No sentence nests cues and "that" clauses deeper than this.
_MAX_DEPTH = 12
_FIRST_PERSON = re.compile(r"^(?:i|we)\b", re.IGNORECASE)
# A clause about a thing ("the tower stands in rome", "plastic waste is a concern") speaks of the world.
_THING = re.compile(
    r"^(?!(?:i|we|you|he|she|it|they|this|that|these|those|there|here|what|which|who|my|our|your)\b)"
    r"[^\W\d_][\w'-]*(?:\s+[\w'-]+){0,3}?\s+(?:is|are|was|were|has|have|had|can|cannot|will|does|do|did|"
    r"stands?|lies?|est|sont|était|es|son|era|ist|sind|war)\b",
    re.IGNORECASE,
)
# Counts are facts as digits are ("a tube that holds only six balls").
_NUMBER_WORD = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|"
    r"thousand|million|billion|deux|trois|quatre|cinq|cent|mille|dos|tres|cuatro|cinco|mil|zwei|drei|vier|"
    r"fünf|hundert|tausend)\b",
    re.IGNORECASE,
)
# Scripts written without spaces between words.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
# A clause that only calls someone or something great ("She is my favourite scientist!"):
# a pronoun, a copula, a few words, a word of praise and at most a few words after it.
_PRAISE_ONLY = re.compile(
    r"^(?:it|this|that|these|those|he|she|they|you|il|elle|c'est|ce|es|er|sie|esto|eso|ella|él)"
    r"(?:\s+|'s\s+|'re\s+)(?:(?:is|are|was|were|looks?|seems?|sounds?|remains?|est|es|ist)\s+)?"
    r"(?:[\w-]+\s+){0,3}?"
    r"(?:great|good|best|nice|beautiful|amazing|awesome|wonderful|excellent|interesting|boring|fun|funny|"
    r"delicious|lovely|perfect|terrible|awful|fantastic|overrated|underrated|favou?rites?|cool|impressive|"
    r"enjoyable|gorgeous|stunning|incredible|brilliant|inspiring|remarkable|beau|belle|génial|magnifique|"
    r"préférée?|bueno|buena|hermos[oa]|maravillos[oa]|favorit[oa]|toll|schön|wunderbar|großartig)\b(?!-)"
    r"(?:\s+[\w-]+){0,4}[\s!.…]*$",
    re.IGNORECASE,
)
# After a cue's comma, a new clause starts as a clause does; "a small, secluded beach" goes on.
_CLAUSE_START = re.compile(
    r"^(?i:(?:the|a|an|this|that|these|those|there|it|he|she|they|we|i|you|but|and|so|yet|however|although|"
    r"though|because|since|which|who|le|la|les|el|los|las|der|die|das|ein|eine|que|dass|что|rằng)\b|l'|\d)"
    rf"|^[{_UPPER}\u0600-\u06ff\u0900-\u09ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]"
)
_OWN_FAVOURITE = re.compile(
    r"\b(?:is|are|was|were|remains?|'s)\s+(?:also\s+|still\s+)?(?:(?:one|some)\s+of\s+)?(?:my|our)\s+"
    r"(?:(?:very|all-time|absolute|personal|own)\s+)*favou?rites?\b",
    re.IGNORECASE,
)


def is_checkable(text: str) -> bool:
    """True when ``text`` states something about the world that a judge can check."""
    return any(_sentence_checkable(s) for s in split_sentences(text))


def checkable_sentences(sentences: Sequence[str]) -> list[str]:
    """The ``sentences`` (of ``split_sentences``) that state something a judge can check, in order."""
    return [s for s in sentences if _sentence_checkable(s)]


# Markup that states nothing: HTML or XML tags, code fences and their language, entities.
_MARKUP = re.compile(r"</?[A-Za-z][\w:.-]*(?:\s[^<>]*)?/?>|```[\w+-]*|~~~[\w+-]*|&(?:[a-z]+|#\d+);")


def _sentence_checkable(sentence: str) -> bool:
    """Apply the rules to one sentence; default checkable."""
    if not any(ch.isalnum() for ch in _MARKUP.sub(" ", sentence)):
        return False  # "</div>", "```python", "<br/>": a fragment of markup, no statement
    text = _MARKER.sub("", sentence).strip().replace("’", "'")
    # Text tokenised the Penn Treebank way (dialogue corpora: "it 's", "do n't", "fun !") read as written.
    text = _DETACHED.sub(r"\1", text)
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
    # A lead-in such as "Here are some options:" announces facts but states none.
    if own.endswith(":") and (_INTRO.match(own) or len(own.split()) <= 6):
        return False
    return _states_fact(own, framed=False)


def _states_fact(text: str, *, framed: bool, depth: int = 0) -> bool:
    """Whether any clause of ``text`` states a fact; ``framed``: the text follows a cue or a hedge.

    After a clause that states none ("I love dogs, and …"), the next clause is framed too.
    Cues nested deeper than any sentence nests them ("I think I think …") are checkable.
    """
    if depth > _MAX_DEPTH:
        return True
    for clause in _CLAUSE_BREAK.split(text):
        if clause.strip():
            if _clause_states_fact(clause, framed=framed, depth=depth + 1):
                return True
            framed = True
    return False


def _clause_states_fact(clause: str, *, framed: bool, depth: int) -> bool:
    """One clause: personal cues and hedges frame what follows; otherwise checkable unless an opinion.

    Unframed, a clause is checkable unless it only praises a pronoun or names the speaker's
    favourite; framed, it must name something, give a number or speak of a definite thing,
    and not be about the speaker.
    """
    text = clause.strip()
    while _JOINER.match(text):
        text = _JOINER.sub("", text, count=1)
    if text.endswith(":") and _INTRO.match(text):
        return False
    cue = _PERSONAL.match(text) or _PERSONAL_MORE.match(text) or _DISCLAIMER.match(text)
    if cue:
        own, *after = _COMMA.split(text[cue.end() :].strip(), maxsplit=1)
        if _complement_states_fact(own, depth) or _RELATION.search(own):
            return True
        return bool(after and _CLAUSE_START.match(after[0])
                    and _states_fact(after[0], framed=True, depth=depth))
    hedge = _HEDGE.match(text) or _HEDGE_MORE.match(text)
    if hedge:
        return _states_fact(text[hedge.end() :], framed=True, depth=depth)
    if framed:
        # The speaker's own doings, a word of praise, or a bare name ("Thanks, Nancy") state no
        # fact of their own; a "that" clause in them still may.
        too_short = len(text.split()) < 3 and not _UNSPACED.search(text)
        if _EVALUATIVE.search(text) or _FIRST_PERSON.match(text) or too_short:
            return _complement_states_fact(text, depth)
        return bool(_FACT_SIGNAL.search(" " + text) or _NUMBER_WORD.search(text) or _THING.match(text))
    if _OWN_FAVOURITE.search(text) or (_PRAISE_ONLY.match(text) and not _FACT_SIGNAL.search(text)):
        return _complement_states_fact(text, depth)
    return True


def _complement_states_fact(text: str, depth: int) -> bool:
    """Whether a "that …" clause in ``text`` states a fact ("I cannot stress enough that X")."""
    complement = _COMPLEMENT.search(text)
    return complement is not None and _states_fact(complement.group(1), framed=True, depth=depth)


def _did_you_know(question: str) -> bool:
    """A rhetorical "Did you know that X?" states X; other questions state nothing."""
    match = re.match(r"^did you know (?:that )?(.+?)[?？؟]\s*$", question, re.IGNORECASE)
    return match is not None and _sentence_checkable(match.group(1) + ".")
