"""Issue 40, kind 4: values compared right both ways (signs, units, fractions, number words, names by
words, precision, long figures), and in bounded time."""

from __future__ import annotations

import time

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from factjudge.text.value_match import amounts, compare_values, echoes_other, same_value, stated_alike
from factjudge.text.values import value_spans

SAME = [
    # Signs.
    ("-40 °C", "-40 °C", "number"),
    ("-40 °C", "minus 40 degrees Celsius", "number"),
    ("−40 °C", "-40 °F", "number"),  # the one temperature both scales give the same figure
    # Temperatures across scales.
    ("212 °F", "100 °C", "number"),
    ("100 °C", "212 °F", "number"),
    ("0 °C", "32 °F", "number"),
    ("373 K", "100 °C", "number"),
    ("98.6 °F", "37 °C", "number"),
    ("100 degrees Celsius", "212 degrees Fahrenheit", "number"),
    # Lengths, masses, areas.
    ("1/2 km", "500 m", "number"),
    ("½ km", "500 m", "number"),
    ("1½ miles", "2.4 km", "number"),
    ("２０ ℃", "68 °F", "number"),
    ("500 m", "1/2 km", "number"),
    ("1 1/2 miles", "2.4 km", "number"),
    ("3/4 kg", "750 g", "number"),
    ("2 km²", "2,000,000 m²", "number"),
    ("1 mile", "1.6 km", "number"),
    ("10 lb", "4.5 kg", "number"),
    # Numbers in words, en / es / fr, either side.
    ("100", "one hundred", "number"),
    ("one hundred", "100", "number"),
    ("100 m", "cent mètres", "number"),
    ("100 metros", "cien metros", "number"),
    ("2000", "dos mil", "number"),
    ("342", "three hundred and forty-two", "number"),
    ("90", "quatre-vingt-dix", "number"),
    ("3 millions", "trois millions", "number"),
    ("1,000,000 people", "un millón", "number"),
    # Precision: the step a writer rounded to, and "about" widening the tolerance.
    ("2 million", "2.4 million", "number"),
    ("4.2 km", "4,240 m", "number"),
    ("384,000 km", "384,400 km", "number"),
    # Names by words: a containing name, accents, a spelling a letter apart.
    ("Paris", "Paris, France", "place"),
    ("Paris, France", "Paris", "place"),
    ("Moscou", "Moscow", "place"),
    ("Génova", "Genoa", "place"),
    ("Colombia", "COLOMBIA", "place"),
    # An initialism with and without its dots, a name and its plural (RAGTruth: "US" read as "U.S",
    # "Clintons" as "Clinton" were contradictions).
    ("US", "U.S", "place"),
    ("US", "U.S.", "place"),
    ("U.K.", "UK", "place"),
    ("J.K. Rowling", "J. K. Rowling", "person"),
    ("Clintons", "Clinton", "person"),
    ("Clinton", "the Clintons", "person"),
]

DIFFERENT = [
    ("-40 °C", "40 °C", "number"),
    ("40 °C", "-40 °C", "number"),
    ("-3", "3", "number"),
    ("40 °C", "minus 40 °C", "number"),
    ("212 °F", "212 °C", "number"),
    ("100 °C", "100 °F", "number"),
    ("1/2 km", "2 km", "number"),
    ("1/4 mile", "1 mile", "number"),
    ("200 m", "cent mètres", "number"),
    ("100", "one thousand", "number"),
    ("2000", "dos millones", "number"),
    ("2 million", "2.6 million", "number"),
    ("4,200 metres", "1,280 metres", "number"),
    ("0 °C", "3 °C", "number"),
    ("Austria", "Australia", "place"),
    ("Australia", "Austria", "place"),
    ("Paris", "Parish", "place"),
    ("Parish", "Paris", "place"),
    ("Niger", "Nigeria", "place"),
    ("Slovenia", "Slovakia", "place"),
    ("Sweden", "Swedenborg", "person"),
    ("US", "UK", "place"),
    ("U.S.", "U.K.", "place"),
]


@pytest.mark.parametrize(("stated", "read", "kind"), SAME)
def test_the_same_value_written_otherwise_is_confirmed(stated: str, read: str, kind: str) -> None:
    assert compare_values(stated, read, kind) == "confirmed"  # type: ignore[arg-type]


@pytest.mark.parametrize(("stated", "read", "kind"), DIFFERENT)
def test_a_different_value_that_looks_near_is_contradicted(stated: str, read: str, kind: str) -> None:
    assert compare_values(stated, read, kind) == "contradicted"  # type: ignore[arg-type]


def test_about_widens_the_tolerance_the_precision_written_sets_it() -> None:
    # 4,200 against 4,550: 8% apart. A bare figure claims it; "about 4,200 metres" allows it.
    assert compare_values("4,200 metres", "4,550 metres", "number") == "contradicted"
    assert compare_values("4,200 metres", "4,550 metres", "number", before="It is about ") == "confirmed"
    assert compare_values("4,200 metres", "4,550 metres", "number", before="Mide unos ") == "confirmed"
    assert compare_values("4,200 metres", "5,000 metres", "number", before="It is about ") == "contradicted"
    # "about" does not make -40 °C 40 °C, nor 10 °C 20 °C.
    assert compare_values("-40 °C", "40 °C", "number", before="about ") == "contradicted"
    assert compare_values("10 °C", "20 °C", "number", before="environ ") == "contradicted"


def test_a_bare_figure_read_is_in_the_unit_its_passage_gives_it() -> None:
    # Asked "water boils at ___ (a number of °F)", the model read "100" from "100 °C".
    passage = "At sea level, water boils at 100 °C and freezes at 0 °C."
    assert compare_values("100 °F", "100", "number", passage=passage) == "contradicted"
    assert compare_values("212 °F", "100", "number", passage=passage) == "confirmed"
    assert compare_values("100 miles", "100", "number", passage="The road is 100 km long.") == "contradicted"
    # With no unit for it in the passage, a bare figure is the one asked for, as before.
    assert compare_values("90,000 years", "90,000", "number", passage="It lasted 90,000.") == "confirmed"
    assert compare_values("90,000 years", "90,000", "number") == "confirmed"


def test_amounts_are_signed_converted_and_divided() -> None:
    assert amounts("-40 °C") == [(-40.0, "°c")]
    assert amounts("minus 40 °F") == [(-40.0, "°c")]
    assert amounts("1 1/2 km") == [(1500.0, "m")]
    assert amounts("cent mètres") == [(100.0, "m")]
    assert amounts("dos mil habitantes") == [(2000.0, "people")]
    assert amounts("1990-2000") == [(1990.0, ""), (2000.0, "")]  # a range's hyphen is no minus
    assert amounts("5 per cent") == [(5.0, "%")] and amounts("3 per day") == [(3.0, "")]  # "per" is no %


def test_the_stated_value_keeps_its_sign_and_its_fraction() -> None:
    """The value asked about is the one written: "-40 °C", "1/2 km", "212 °F", not "40 °C", "2 km", "212"."""
    spans = value_spans("It was -40 °C, 1/2 km away, and water boils at 212 °F.", question="x")
    assert [s.text for s in spans if s.kind == "number"] == ["-40 °C", "1/2 km", "212 °F"]
    assert [s.text for s in value_spans("From 1990-2000 it grew.", question="x")] == ["1990", "2000"]


LONG = "7" * 400


def test_a_very_long_figure_is_only_ever_itself() -> None:
    assert compare_values(LONG, LONG, "number") == "confirmed"
    assert compare_values(LONG, "7" * 399 + "8", "number") == "contradicted"
    assert compare_values(LONG, "8" * 400, "number") == "contradicted"
    assert compare_values(LONG, "1e400", "number") != "confirmed"
    assert compare_values("9" * 400, "1" + "0" * 400, "number") == "contradicted"


def test_long_input_is_compared_in_bounded_time() -> None:
    started = time.perf_counter()
    compare_values("1" * 20_000, "2" * 20_000, "number")
    compare_values("A" + "b" * 20_000, "A" + "b" * 19_999 + "c", "name")
    compare_values("one " * 5_000, "two " * 5_000, "number")
    echoes_other("x " * 5_000, "name", ["y " * 5_000])
    assert time.perf_counter() - started < 2.0


NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyzéü", min_size=1, max_size=12).map(str.capitalize)


@settings(max_examples=200, deadline=None)
@given(NAMES, NAMES)
def test_names_compare_the_same_both_ways(a: str, b: str) -> None:
    assert same_value(a, b, "name") == same_value(b, a, "name")


@settings(max_examples=200, deadline=None)
@given(NAMES, st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=6))
def test_a_name_is_never_the_same_as_a_longer_word_it_begins(name: str, tail: str) -> None:
    assume(tail not in ("s", "es"))  # its plural is the name ("the Clintons", "Clinton")
    assert same_value(name, name + tail, "name") is not True


AMOUNT = st.tuples(st.integers(-10**6, 10**6), st.sampled_from(["", " km", " m", " °C", " °F", " K", " kg"]))


@settings(max_examples=300, deadline=None)
@given(AMOUNT, AMOUNT)
def test_amounts_with_units_compare_the_same_both_ways(a: tuple[int, str], b: tuple[int, str]) -> None:
    first, second = f"{a[0]}{a[1]}", f"{b[0]}{b[1]}"
    if a[1] and b[1]:  # a bare figure read for a unit asked is a rule of its own, one way
        assert same_value(first, second, "number") == same_value(second, first, "number")


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10**6), st.sampled_from([" km", " °C", " kg", ""]))
def test_a_number_is_never_its_negative(n: int, unit: str) -> None:
    assert same_value(f"{n}{unit}", f"-{n}{unit}", "number") is False


@settings(max_examples=50, deadline=None)
@given(st.text(alphabet="0123456789", min_size=16, max_size=2000),
       st.text(alphabet="0123456789", min_size=16, max_size=2000))
def test_long_figures_are_equal_only_when_their_digits_are(a: str, b: str) -> None:
    same = same_value(a, b, "number")
    assert same is None or same == (a.lstrip("0") == b.lstrip("0"))


# The four comparisons of issue 40, point 4, as Spanish and French write them.
SAME_ES_FR = [
    # Signs in words and figures.
    ("-40 °C", "menos 40 grados", "number"),
    ("-40 °C", "moins quarante degrés", "number"),
    ("menos cuarenta grados", "-40 °C", "number"),
    # Temperatures across scales; bare degrees are Celsius in es and fr.
    ("212 grados Fahrenheit", "100 °C", "number"),
    ("100 degrés Celsius", "212 °F", "number"),
    ("cien grados", "100 °C", "number"),
    ("cent degrés", "212 °F", "number"),
    ("373 kelvins", "100 grados centígrados", "number"),
    # Fractions in words and figures, decimal commas, thousands separators.
    ("medio kilómetro", "500 m", "number"),
    ("un kilómetro y medio", "1500 m", "number"),
    ("un demi-kilomètre", "500 mètres", "number"),
    ("deux kilomètres et demi", "2,5 km", "number"),
    ("trois quarts de kilomètre", "750 m", "number"),
    ("½ kilómetro", "500 metros", "number"),
    ("1,5 km", "1500 m", "number"),
    ("1,5 km", "1 500 m", "number"),
    ("1 280 habitants", "1280", "number"),
    ("1.280 habitantes", "1280", "number"),
    ("2,5 millones", "2.500.000", "number"),
    # Numbers in words.
    ("100 °C", "cien grados", "number"),
    ("11 médailles", "onze médailles", "number"),
    ("once medallas", "11", "number"),
    ("330 m", "trois cent trente mètres", "number"),
    ("90", "noventa", "number"),
    ("1 200", "mille deux cents", "number"),
]
DIFFERENT_ES_FR = [
    ("-40 °C", "40 grados", "number"),
    ("40 °C", "moins quarante degrés", "number"),
    ("100 °F", "cien grados", "number"),
    ("32 °C", "0 °C", "number"),
    ("trente-deux degrés", "32 °F", "number"),
    ("medio kilómetro", "2 km", "number"),
    ("un demi-kilomètre", "330 m", "number"),
    ("un kilómetro y medio", "1000 metros", "number"),
    ("1,5 km", "15 km", "number"),
    ("1.280 habitantes", "1,28", "number"),
    ("12 provincias", "diez", "number"),
    ("douze médailles", "11 médailles", "number"),
    ("Austria", "Australia", "place"),
    ("Autriche", "Australie", "place"),
    ("París", "Parish", "place"),
    ("Eslovenia", "Eslovaquia", "place"),
    ("Slovénie", "Slovaquie", "place"),
]


@pytest.mark.parametrize(("stated", "read", "kind"), SAME_ES_FR)
def test_the_same_value_in_spanish_or_french_is_confirmed(stated: str, read: str, kind: str) -> None:
    assert compare_values(stated, read, kind) == "confirmed"  # type: ignore[arg-type]


@pytest.mark.parametrize(("stated", "read", "kind"), DIFFERENT_ES_FR)
def test_a_near_value_in_spanish_or_french_is_contradicted(stated: str, read: str, kind: str) -> None:
    assert compare_values(stated, read, kind) == "contradicted"  # type: ignore[arg-type]


@pytest.mark.parametrize(("item", "question", "value"), [
    ("It was minus 40 °C.", "", "minus 40 °C"),  # the sign in words is the value's
    ("Il faisait moins quarante degrés.", "Quel froid faisait-il ?", "moins quarante degrés"),
    ("El agua hierve a cien grados.", "¿A qué temperatura hierve el agua?", "cien grados"),
    ("Il a gagné onze médailles.", "Combien de médailles a-t-il gagnées ?", "onze"),
    ("Mide un kilómetro y medio.", "¿Cuánto mide el puente?", "un kilómetro y medio"),
    ("La tour mesure un demi-kilomètre.", "Quelle est la hauteur de la tour ?", "un demi-kilomètre"),
    ("It is twenty-nine and a half days long.", "How long is it?", "twenty-nine and a half days"),
    ("Mide 1,5 km.", "¿Cuánto mide?", "1,5 km"),  # never the name "Mide 1"
])
def test_a_number_in_words_or_with_a_sign_is_one_value(item: str, question: str, value: str) -> None:
    spans = value_spans(item, question=question or "x")
    assert value in [s.text for s in spans if s.kind == "number"]


def test_numbers_in_words_are_read_in_the_language_the_item_is_written_in() -> None:
    # A check's language defaults to English; the Spanish item's "cien" is still a number.
    item = "A nivel del mar, el agua hierve a cien grados."
    spans = value_spans(item, question="¿A qué temperatura hierve?", lang="en")
    assert [s.text for s in spans] == ["cien grados"]


@pytest.mark.parametrize(("item", "question"), [
    ("Tiene una hermana y vive en medio de la ciudad.", "¿Dónde vive?"),  # an article, "in the middle"
    ("Il a joué une demi-finale.", "Qu'a-t-il joué ?"),
    ("He once said one of them was right.", "What did he say?"),  # "once" is eleven only in Spanish
    ("La población es de 67 millones.", "¿Cuál es la población?"),  # the scale word of a figure
])
def test_words_that_only_look_like_numbers_are_no_value(item: str, question: str) -> None:
    numbers = [s.text for s in value_spans(item, question=question) if s.kind == "number"]
    assert numbers in ([], ["67 millones"])


def test_a_figure_read_without_the_sign_the_passage_writes_is_the_passages() -> None:
    # The model copied "−40 °C" as "40 °C": the passage's value is −40 °C.
    passage = "In January, the temperature in Yakutsk falls to −40 °C."
    assert compare_values("minus forty degrees Celsius", "40 °C", "number", passage=passage) == "confirmed"
    assert compare_values("-40 °C", "40", "number", passage=passage) == "confirmed"
    assert compare_values("40 °C", "40 °C", "number", passage=passage) == "contradicted"
    # Where the passage also writes the figure unsigned, the reading is taken as written.
    both = "It ranges from −40 °C in January to 40 °C in July."
    assert compare_values("40 °C", "40 °C", "number", passage=both) == "confirmed"


def test_a_value_is_stated_alike_only_with_the_same_sign() -> None:
    passage = ["In January, the temperature in Yakutsk falls to −40 °C."]
    item = "In January, the temperature in Yakutsk falls to 40 °C."
    at = item.index("40 °C")
    assert stated_alike(item, at, at + len("40 °C"), passage) is None
    signed = "In January, the temperature in Yakutsk falls to -40 °C."
    at = signed.index("-40 °C")
    assert stated_alike(signed, at, at + len("-40 °C"), passage) is not None
    ranged = "It grew from 1990-2000 steadily."
    at = ranged.index("2000")
    assert stated_alike(ranged, at, at + 4, ["It grew from 1990-2000 steadily."]) is not None


def test_a_speed_is_compared_as_a_speed_in_any_unit_of_length_and_time() -> None:
    light = ("The value 299,792,458 metres per second is approximately 1 billion kilometres per hour; 700 "
             "million miles per hour.")
    # "700 million" read there is 700 million miles an hour: about 300,000 km a second (before, 700 million
    # miles were compared with 300,000 km, a contradiction).
    assert same_value("300,000 kilometres per second", "700 million", "number", hedged=True, passage=light)
    assert same_value("100 km/h", "27.8 metres per second", "number", hedged=True)
    assert same_value("300 000 kilómetros por segundo", "299 792 km par seconde", "number", hedged=True)
    assert not same_value("30,000 kilometres per second", "299,792 km per second", "number", hedged=True)
    # A length is no speed: no answer to the question, not a contradiction.
    assert same_value("300,000 kilometres per second", "300,000 kilometres", "number") is None
    # A unit written with a negative power is one unit, its "−1" no number of its own.
    assert same_value("300,000 km/s", "299792458 m⋅s−1", "number", hedged=True)
    assert not same_value("30,000 km/s", "299792458 m⋅s−1", "number", hedged=True)
    assert same_value("300 km", "299792458 m⋅s−1", "number") is None


@pytest.mark.parametrize(("item", "span"), [
    ("The speed of light in vacuum is about 300,000 kilometres per second.", "300,000 kilometres per second"),
    ("La luz viaja a 300 000 kilómetros por segundo.", "300 000 kilómetros por segundo"),
    ("It lasted 3 hours a day.", "3 hours"),  # a time per time is no speed
])
def test_a_rate_is_one_value_with_its_unit(item: str, span: str) -> None:
    assert [s.text for s in value_spans(item)] == [span]


@pytest.mark.parametrize(("stated", "read", "same"), [
    # A name without the numeral that tells its bearers apart says neither.
    ("Louis XV", "Louis", None),
    ("Isabel II", "Isabel", None),
    ("Louis XIV", "Louis XV", False),
    ("Louis XV", "Louis XV of France", True),
    ("Alexander Fleming", "Fleming", True),
])
def test_a_numeral_tells_names_apart(stated: str, read: str, same: bool | None) -> None:
    assert same_value(stated, read, "person") is same


def test_words_a_hyphen_joins_are_one_word_where_the_items_words_are_sought() -> None:
    passages = ["Louis XVI est roi de France. Il est le petit-fils de Louis XV et le fils du dauphin Louis."]
    item = "Il était le fils de Louis XV."
    at = item.index("Louis XV")
    assert stated_alike(item, at, at + 8, passages) is None
    right = "Il est le petit-fils de Louis XV."
    at = right.index("Louis XV")
    assert stated_alike(right, at, at + 8, passages) is not None
