"""Names in a text: found in one pass, in memory that grows with the text, not its cube."""

from __future__ import annotations

import tracemalloc

import pytest

from factjudge.retrieval.wiki.names import MAX_PART_WORDS, Names, name_parts, title_candidates


def _capitalised(words: int) -> str:
    return " ".join(f"Word{i}" for i in range(words))


def _peak(text: str) -> int:
    tracemalloc.start()
    try:
        title_candidates([text])
        name_parts([text])
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_long_run_of_capitals_costs_memory_in_proportion_to_it() -> None:
    # Every sub-run of a 400-word run was once kept: 90 MB (issue 34: 1,200 words took 1.5 GB).
    small = _peak(_capitalised(400))
    assert small < 2_000_000  # before the larger text, which the cubic code could not hold
    large = _peak(_capitalised(1600))
    assert large < 6 * small  # four times the words: linear, with room for allocator noise


def test_parts_are_short_and_capped_however_long_the_run() -> None:
    found = name_parts([_capitalised(3000)], limit=24)
    assert len(found) == 24
    assert max(len(p.split()) for p in found) <= MAX_PART_WORDS
    assert title_candidates([_capitalised(3000)]) == []  # thousands of capitals are not one name


def test_a_run_knows_where_it_stood_and_the_article_its_lead_names() -> None:
    names = Names.of("The Sopranos is a series. Tell me more about Lanny Flaherty: Flaherty acted.")
    shown = [(r.name, r.initial, r.sure, r.spellings()) for r in names.runs]
    assert shown == [
        ("Sopranos", True, True, ("Sopranos", "The Sopranos")),
        ("Tell", True, False, ("Tell",)),
        ("Lanny Flaherty", False, True, ("Lanny Flaherty",)),
        ("Flaherty", True, False, ("Flaherty",)),
    ]
    assert names.leading() == names.runs[0]
    assert Names.of("He starred in The Sopranos.").leading() is None


def test_an_ampersand_joins_a_name() -> None:
    assert title_candidates(['He appeared in "Law & Order" on television.']) == ["Law & Order"]


def test_a_name_after_a_sentences_first_word_is_no_subject_and_a_year_is_no_name() -> None:
    assert Names.of("In 1911 she won the Nobel Prize.").leading() is None
    paris = Names.of("In Paris, he lived.").runs[0]
    assert (paris.name, paris.initial, paris.sure) == ("Paris", False, True)


@pytest.mark.parametrize(("sentence", "names"), [
    # A Spanish past tense that leaves its subject out opens the sentence; the name after it is none's
    # subject ("Escribió Don Quijote" named no article, and the item was read in none).
    ("Escribió Don Quijote en 1605.", ["Don Quijote"]),
    ("Pintó La Gioconda.", ["La Gioconda"]),
    # Alone, before a function word ("Reinó" had been read in *Reino de Germania*).
    ("Reinó en el siglo XIII.", ["XIII"]),
    # A name ending so is still one, alone too where a verb follows it.
    ("Joan Miró pintó murales.", ["Joan Miró"]),
    ("Miró nació en Barcelona.", ["Miró", "Barcelona"]),
])
def test_a_spanish_past_tense_opening_a_sentence_is_no_name(sentence: str, names: list[str]) -> None:
    found = Names.of(sentence)
    assert [r.name for r in found.runs] == names
    assert (found.leading() is None) == (names[:1] not in (["Joan Miró"], ["Miró"]))


@pytest.mark.parametrize(("sentence", "names"), [
    # An adverb opening a sentence is no name, nor with the figure after it ("Approximately 1" had been
    # the subject of Stockholm's population, and no article was found for it).
    ("Approximately 1 million people live in the municipality.", []),
    ("Originally Paris was small.", ["Paris"]),
    ("Actualmente Madrid tiene tres millones de habitantes.", ["Madrid"]),
    ("Environ 2000 personnes y vivent.", []),
    # Names ending so are still names.
    ("Italy is a country.", ["Italy"]),
    ("Emily Brontë wrote it.", ["Emily Brontë"]),
    ("Sally Ride flew in 1983.", ["Sally Ride"]),
])
def test_an_adverb_opening_a_sentence_is_no_name(sentence: str, names: list[str]) -> None:
    assert [r.name for r in Names.of(sentence).runs] == names


@pytest.mark.parametrize(("sentence", "names"), [
    # An era beside a year is no name, and its full stops end no sentence ("a. C." had named
    # *Washington D. C.* for Caesar's death).
    ("Fue asesinado en el año 44 a. C. en Roma.", ["Roma"]),
    ("Rome a été fondée par Romulus en 753 av. J.-C.", ["Rome", "Romulus"]),
    ("Caesar was assassinated in 44 BC by Brutus.", ["Caesar", "Brutus"]),
    ("It was completed in 80 AD under Emperor Titus.", ["Emperor Titus"]),
])
def test_an_era_is_no_name(sentence: str, names: list[str]) -> None:
    assert Names.of(sentence).whole() == names



@pytest.mark.parametrize(("text", "found"), [
    # A particle and an article join a name's parts ("Juana Inés de la Cruz" is not "Cruz", nor *Juan de la
    # Cruz*).
    ("¿Quién fue Juana Inés de la Cruz?", ["Juana Inés de la Cruz"]),
    ("¿Quién fue Bartolomé de las Casas?", ["Bartolomé de las Casas"]),
    ("Ludwig Mies van der Rohe was an architect.", ["Ludwig Mies van der Rohe"]),
    # Not any two lower-case words: "and the" joins no two names.
    ("Paris and the Louvre are in France.", ["Paris", "Louvre", "France"]),
    ("Vive en Madrid de la mano de Juan.", ["Vive", "Madrid", "Juan"]),
])
def test_a_particle_and_its_article_join_one_name(text: str, found: list[str]) -> None:
    assert [r.name for r in Names.of(text).runs] == found
