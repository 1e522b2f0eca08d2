"""Issue 40, kind 5: text that looks the same is read the same, and its offsets lead back to the text."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factjudge import explain
from factjudge.text.normalize import INVISIBLE, ReadAs, normalized

CYRILLIC_A, GREEK_O, ZWJ, ZWNJ, ZWSP = "\u0430", "\u03bf", "\u200d", "\u200c", "\u200b"


@pytest.mark.parametrize(("written", "read", "why"), [
    (f"C{CYRILLIC_A}nada", "Canada", ("cyrillic",)),
    (f"T{GREEK_O}ronto", "Toronto", ("greek",)),
    ("\u0421\u0430nada", "Canada", ("cyrillic",)),  # two of six letters Cyrillic: still a Latin word
    ("Москвa", "Москва", ("latin",)),  # a Latin a inside a Cyrillic word: folded to Cyrillic
    (f"Ma{ZWJ}rie", "Marie", ("invisible",)),
    (f"Ma{ZWNJ}rie", "Marie", ("invisible",)),
    (f"Ot{ZWSP}ta\u00adwa", "Ottawa", ("invisible",)),
    ("Ｃａｎａｄａ", "Canada", ("compatibility",)),
    ("ﬁnal", "final", ("compatibility",)),
    ("µm", "μm", ("compatibility",)),  # the micro sign is mu
])
def test_a_word_that_looks_like_another_is_read_as_it(written: str, read: str, why: tuple[str, ...]) -> None:
    text = f"The capital is {written}."
    found = normalized(text)
    assert found.text == f"The capital is {read}."
    [changed] = found.read_as
    assert (changed.written, changed.read, changed.why) == (written, read, why)
    assert text[changed.start:changed.end] == written


@pytest.mark.parametrize(("text", "read"), [
    ("½ km", "1/2 km"),
    ("1½ miles", "1 1/2 miles"),
    ("10³ km², 1º de mayo, 2ª", "10³ km², 1º de mayo, 2ª"),  # superscripts keep their meaning
    ("100\u00a0km\u202f!", "100\u00a0km\u202f!"),  # punctuation and spaces as written
    ("２０２０年，北京？", "2020年，北京？"),
    ("20 ℃, 5 ㎞", "20 °C, 5 km"),
    ("e\u0301te\u0301", "été"),  # composed, and no word said to be read otherwise
])
def test_compatibility_forms_are_read_plainly_and_superscripts_kept(text: str, read: str) -> None:
    found = normalized(text)
    assert found.text == read and found.read_as == ()


@pytest.mark.parametrize("text", [
    "Москва и Αθήνα",  # whole words of one script stay as written
    "क्\u200dष and नमस्ते",  # a joiner shapes Devanagari: kept
    "👨\u200d👩\u200d👧",  # and emoji
    "میخواهم\u200cبروم",  # a non-joiner in Persian
    "plain ASCII, nothing to do.",
    "α-helix, β-sheet",  # a Greek letter before a hyphen is its own word
])
def test_text_that_is_as_it_looks_is_left_alone(text: str) -> None:
    found = normalized(text)
    assert found.read_as == ()
    assert found.text == text


def test_spans_of_the_normalised_text_are_spans_of_the_text_given() -> None:
    text = f"Ｃａｎａｄａ{ZWSP} is big. The capital of C{CYRILLIC_A}{ZWJ}nada is ½ km from Toronto."
    found = normalized(text)
    assert found.text == "Canada is big. The capital of Canada is 1/2 km from Toronto."
    for word in ("Canada", "Toronto", "1/2 km", "big."):
        at = found.text.rindex(word)
        start, end = found.original_span(at, at + len(word))
        assert normalized(text[start:end]).text == word
    assert found.original_span(-1, -1) == (-1, -1)
    assert found.original_span(0, 0) == (0, 0)
    assert found.original_span(len(found.text), len(found.text)) == (len(text), len(text))


def test_the_note_says_what_was_read_for_what() -> None:
    found = normalized(f"C{CYRILLIC_A}nada and Ma{ZWJ}rie, C{CYRILLIC_A}nada again")
    assert explain.read_as(found.read_as) == ("read 'Canada' for 'C\u0430nada' (a Cyrillic letter, U+0430); "
                                             "'Marie' for 'Ma\\u200drie' (an invisible character, U+200D)")
    assert explain.read_as(()) == ""
    [first, *_] = found.read_as
    assert ReadAs.from_dict(first.to_dict()) == first


MIXED = st.text(alphabet=st.sampled_from(
    [*"abcCnN 1.,-", CYRILLIC_A, GREEK_O, "\u0421", ZWJ, ZWSP, "\u00ad", "Ｃ", "½", "\u0301", "²", "ﬁ",
     "\u00a0", "क", "्", "\u0645"]), max_size=60)


@settings(max_examples=300, deadline=None)
@given(MIXED)
def test_normalising_maps_every_character_back_and_twice_is_once(text: str) -> None:
    found = normalized(text)
    assert not INVISIBLE & set(found.text)
    assert normalized(found.text).text == found.text
    if found.changed:
        assert len(found.starts) == len(found.ends) == len(found.text)
        assert all(0 <= s < e <= len(text) for s, e in zip(found.starts, found.ends, strict=True))
        assert list(found.starts) == sorted(found.starts)
    start, end = found.original_span(0, len(found.text))
    assert 0 <= start <= end <= len(text)
    for change in found.read_as:
        assert text[change.start:change.end] == change.written


def test_long_text_is_normalised_in_linear_time() -> None:
    text = (f"C{CYRILLIC_A}nada Ma{ZWJ}rie ½ km Ｃａｎａｄａ " * 10_000)[:300_000]
    started = time.process_time()  # CPU seconds: other jobs on the machine do not count
    found = normalized(text)
    assert time.process_time() - started < 5.0
    assert found.text.startswith("Canada Marie 1/2 km Canada ")


@pytest.mark.parametrize(("text", "read", "written"), [
    ("La capital de C\u0430nadá es Ottawa.", "La capital de Canadá es Ottawa.", "C\u0430nadá"),
    ("Vive en Españ\u0430.", "Vive en España.", "Españ\u0430"),  # beside an accented letter
    ("Les \u041cisérables", "Les Misérables", "\u041cisérables"),
    ("La capitale de l'\u0410utriche", "La capitale de l'Autriche", "\u0410utriche"),  # after an elision
    ("Québe\u200dc est une province.", "Québec est une province.", "Québe\u200dc"),
])
def test_spanish_and_french_words_are_read_as_they_look(text: str, read: str, written: str) -> None:
    found = normalized(text)
    assert found.text == read
    [changed] = found.read_as
    assert changed.written == written and text[changed.start:changed.end] == written
