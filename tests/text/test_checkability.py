"""Checkability: personal statements, opinions, greetings and questions are not facts."""

from __future__ import annotations

import pytest

from factjudge.text.checkability import is_checkable

NOT_CHECKABLE = [
    "I love dogs.",
    "I think it's great.",
    "In my opinion, the movie is the best of the decade.",
    "As an AI language model, I cannot browse the internet.",
    "I'm sorry, but I don't have access to real-time data.",
    "Hope this helps!",
    "Let me know if you have any other questions.",
    "Sure!",
    "Certainly! Here is a brief biography of Modou Dia:",
    "Sure, here are some vegan restaurant options near you:",
    "I hope you visit it one day!",
    "Thank you for asking.",
    "What is the capital of France?",
    "Personally, I prefer tea.",
    "I would recommend visiting in spring.",
    "My favourite city is Rome.",
    "Je pense que Paris est une belle ville.",
    "Creo que es la mejor película.",
    "Ich denke, dass Berlin schön ist.",
    "J'adore le chocolat.",
    "---",
    "",
]

CHECKABLE = [
    "Paris is the capital of France.",
    "Einstein said 'I think God does not play dice.'",
    'Descartes wrote "I think, therefore I am" in 1637.',
    "I believe the capital of Australia is Sydney.",
    "As an AI language model, I cannot browse the internet, but Paris is the capital of France.",
    "As of my knowledge cutoff in 2021, the tallest building is the Burj Khalifa.",
    "No, a triangle with an angle of 89 degrees cannot be a right triangle.",
    "Thanks to penicillin, many lives were saved.",
    "Hi-C is a method for studying chromatin structure.",
    "Did you know that the Eiffel Tower is 330 metres tall?",
    "Certainly! Here is a brief biography of Modou Dia:\n\nModou Dia was born in Senegal.",
    "He said he hoped to win.",
    "The museum is the best-known in the city.",
    "La Tour Eiffel mesure 330 mètres.",
    "北京是中国的首都。",
    "القاهرة هي عاصمة مصر.",
    "भारत की राजधानी नई दिल्ली है।",
    "1. Veggie Grill: This chain restaurant offers vegan burgers.",
]


@pytest.mark.parametrize("text", NOT_CHECKABLE)
def test_not_checkable(text: str) -> None:
    assert is_checkable(text) is False


@pytest.mark.parametrize("text", CHECKABLE)
def test_checkable(text: str) -> None:
    assert is_checkable(text) is True


# The languages of the multilingual FActScore study: an opinion or wish of the speaker is not
# checkable; a fact that starts with similar words is.
@pytest.mark.parametrize(("opinion", "fact"), [
    ("আমি এই শহরটা ভালোবাসি।", "ঢাকা বাংলাদেশের রাজধানী।"),
    ("আমার মনে হয় এটা খুব সুন্দর শহর।", "আমার দাদা ১৯৭১ সালে ঢাকায় জন্মগ্রহণ করেন।"),
    ("मुझे यह शहर बहुत पसंद है।", "दिल्ली भारत की राजधानी है।"),
    ("मुझे लगता है कि यह एक सुंदर शहर है।", "मुझे लगता है कि ताजमहल 1653 में पूरा हुआ था।"),
    ("我非常喜欢这座城市。", "我国的首都是北京。"),
    ("我觉得这座城市很美。", "我认为北京有2100万人口。"),
    ("Я очень люблю этот город.", "Я родился в Москве в 1990 году."),
    ("Мне кажется, это красивый город.", "Москва является столицей России."),
    ("Tôi rất thích thành phố này.", "Tôi sinh ra ở Hà Nội năm 1990."),
    ("Theo tôi, đây là một thành phố đẹp.", "Hà Nội là thủ đô của Việt Nam."),
    ("أنا أحب هذه المدينة.", "القاهرة هي عاصمة مصر."),
    ("في رأيي هذه مدينة جميلة.", "أنا ولدت في القاهرة عام 1990."),
    ("J'adore cette ville.", "Paris est la capitale de la France."),
    ("Me encanta esta ciudad.", "Madrid es la capital de España."),
    ("Ich liebe diese Stadt.", "Berlin ist die Hauptstadt Deutschlands."),
    ("I hope you visit it one day!", "It opened in 1937."),
])
def test_opinions_are_recognised_in_every_language_of_the_study(opinion: str, fact: str) -> None:
    assert not is_checkable(opinion), opinion
    assert is_checkable(fact), fact


# A hedged fact is still a fact in every language of the study: in scripts without case no
# capital marks a name, so only evaluative words make a hedged sentence an opinion.
@pytest.mark.parametrize("fact", [
    "I believe Canberra is the capital of Australia.",
    "Je pense que Paris est la capitale de la France.",
    "Creo que Madrid es la capital de España.",
    "我认为北京是中国的首都。",
    "我觉得美国的首都是华盛顿。",  # 美 of 美国 is no praise
    "Я думаю, что Москва — столица России.",
    "Theo tôi, Hà Nội là thủ đô của Việt Nam.",
    "أعتقد أن القاهرة عاصمة مصر.",
    "मुझे लगता है कि दिल्ली भारत की राजधानी है।",
    "আমার মনে হয় ঢাকা বাংলাদেশের রাজধানী।",
    "আমার মতে রবীন্দ্রনাথ ঠাকুর কলকাতাকে ভালোবাসতেন।",  # ভালো of ভালোবাসতেন (loved) is no praise
])
def test_a_hedged_fact_stays_checkable(fact: str) -> None:
    assert is_checkable(fact), fact


# A false sentence dressed as an apology, an aside, advice or an opinion is still judged
# (issue 22): the words around a fact do not hide it.
@pytest.mark.parametrize("text", [
    "Sorry, the Eiffel Tower is in Rome.",
    "I cannot stress enough that the Eiffel Tower is in Rome.",
    "I don't know why anyone doubts it, the Eiffel Tower is in Rome.",
    "I recommend remembering that the Eiffel Tower is in Rome.",
    "Enjoy the Eiffel Tower in Rome.",
    "I think the Eiffel Tower is in Rome, which is important.",
    "Personally the tower stands in rome.",
    "I think the Eiffel Tower is in Rome and that is important.",
    "It is amazing that the tower is in rome.",
    "Hope this helps, and remember that the Eiffel Tower is in Rome!",
    "She is my favourite scientist, and she won two Nobel Prizes.",
    "Marie Curie, my favourite scientist, won two Nobel Prizes.",
    "I'm sorry, but it's not possible to put seven balls into a tube that holds only six balls.",
    "As an AI language model, I cannot browse the internet, but Paris is the capital of France.",
])
def test_a_fact_inside_personal_words_is_judged(text: str) -> None:
    assert is_checkable(text), text


# Only what is purely personal stays unjudged, also when it speaks of someone (issue 26).
@pytest.mark.parametrize("text", [
    "I think it is the most beautiful bridge in the world!",
    "She is my favourite scientist!",
    "Marie Curie is my favourite scientist.",
    "That's amazing!",
    "Enjoy your trip to Paris!",
    "I love Paris.",
    "Thanks for the recommendation, Nancy.",
    "I'm sorry, but I don't have access to real-time data, music datasets, or web search functions.",
    "My favorite place in the world is a small, secluded beach on the coast of Hawaii.",
    "As an AI language model, I don't have personal preferences, but here are some popular documentaries:",
    "I hope you find these recommendations helpful, and happy reading!",
])
def test_purely_personal_sentences_stay_not_checkable(text: str) -> None:
    assert not is_checkable(text), text


def test_an_opinion_after_a_fact_leaves_the_fact_judged() -> None:
    answer = "Marie Curie won two Nobel Prizes. She is my favourite scientist!"
    assert is_checkable(answer)
    sentences = ("Marie Curie won two Nobel Prizes.", "She is my favourite scientist!")
    assert [is_checkable(s) for s in sentences] == [True, False]


def test_deeply_nested_cues_end_quickly_and_stay_checkable() -> None:
    assert is_checkable("I think " * 3000 + "so.")
    assert is_checkable("I love that great " * 2000 + "idea.")


# Issue 35: an opinion hedged with a candour word ("Honestly, I think …") beside a fact was judged
# against the context and dragged faithfulness down. The same phrasing in every language the rule
# knows is a personal statement; a fact after the same words is still judged.
@pytest.mark.parametrize(("opinion", "fact"), [
    ("Honestly, I think it is the most romantic place on Earth.", "Honestly, the Eiffel Tower is in Rome."),
    ("Honestly, it is the most romantic place on Earth.", "Frankly, I think the tower was finished in 1920."),
    ("To be honest, it's the most romantic city in Europe.", "To be honest, Paris is the capital of Italy."),
    ("Frankly, I find Venice the most charming city in Italy.", "Frankly, Venice lies in Austria."),
    ("Honnêtement, je pense que c'est l'endroit le plus romantique du monde.",
     "Honnêtement, la tour Eiffel est à Rome."),
    ("Sinceramente, creo que es el lugar más romántico del mundo.",
     "Sinceramente, creo que Madrid es la capital de España."),
    ("Ehrlich gesagt finde ich, dass es der romantischste Ort der Welt ist.",
     "Ehrlich gesagt liegt Berlin in Frankreich."),
    ("说实话，我觉得这是世界上最浪漫的地方。", "说实话，北京是中国的首都。"),
    ("Честно говоря, я думаю, что это самое романтичное место на Земле.",
     "Честно говоря, Москва — столица России."),
    ("Thật lòng mà nói, tôi nghĩ đây là nơi lãng mạn nhất trên Trái Đất.",
     "Thật lòng mà nói, Hà Nội là thủ đô của Việt Nam."),
    ("بصراحة، أعتقد أنه أكثر مكان رومانسي على الأرض.", "بصراحة، القاهرة عاصمة مصر."),
    ("सच कहूँ तो, मुझे लगता है कि यह दुनिया की सबसे रोमांटिक जगह है।", "सच कहूँ तो, दिल्ली भारत की राजधानी है।"),
    ("সত্যি বলতে, আমার মনে হয় এটি পৃথিবীর সবচেয়ে রোমান্টিক জায়গা।", "সত্যি বলতে, ঢাকা বাংলাদেশের রাজধানী।"),
])
def test_a_candid_opinion_is_personal_in_every_language(opinion: str, fact: str) -> None:
    assert not is_checkable(opinion), opinion
    assert is_checkable(fact), fact


def test_a_candid_opinion_beside_a_fact_leaves_only_the_fact_as_a_part() -> None:
    from factjudge.text.checkability import checkable_sentences

    sentences = ["Paris is the capital of France.",
                 "Honestly, I think it is the most romantic place on Earth."]
    assert checkable_sentences(sentences) == sentences[:1]
    # A name that only looks like a candour word is no hedge.
    assert is_checkable("Ehrlich discovered Salvarsan in 1909.")
