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
