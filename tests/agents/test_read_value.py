"""Reading a value from the passages and comparing it: the prompt, the outcome, the guards."""

from __future__ import annotations

import pytest

from factjudge.agents.read_value import check_values, read_value
from factjudge.grounds import ValueCheck
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence
from factjudge.text.values import value_spans
from factjudge.transcript import Transcript

CANADA = Evidence("wikipedia", "Canada is a country in North America. Its capital is Ottawa, and its "
                  "largest city is Toronto.", title="Canada")
ITEM = "The capital of Canada is Toronto."
QUESTION = "What is the capital of Canada?"


def test_the_value_the_passage_gives_contradicts_the_stated_one(transcript: Transcript) -> None:
    model = ScriptedChatModel(["Ottawa"])
    traces = transcript.traces
    [reading] = check_values(model, ITEM, [CANADA], question=QUESTION)
    assert (reading.check.stated, reading.check.read, reading.check.outcome, reading.passage) == \
        ("Toronto", "Ottawa", "contradicted", 0)
    assert ITEM[reading.check.start:reading.check.end] == "Toronto"
    assert reading.trace == 0 and len(traces) == 1
    assert reading.check.passage == "Its capital is Ottawa, and its largest city is Toronto."
    assert reading.check == ValueCheck("Toronto", "name", "The capital of Canada is ___ (a name).",
                                       "Ottawa", "contradicted", 25, 32, reading.check.passage)
    prompt = model.calls[0][0]["content"]
    assert "The capital of Canada is ___ (a name)." in prompt
    assert prompt.index("Its capital is Ottawa") < prompt.rindex("___ (a name)")  # passages first
    assert model.params[0].max_tokens <= 24 and model.params[0].temperature == 0


def test_the_right_value_is_confirmed_and_a_question_can_be_asked_instead() -> None:
    model = ScriptedChatModel(["Ottawa"])
    [reading] = check_values(model, "The capital of Canada is Ottawa.", [CANADA],
                             question=QUESTION, form="question")
    assert reading.check.outcome == "confirmed"
    assert reading.check.question == "The capital of Canada is what?"
    assert "<question>\nThe capital of Canada is what?\n</question>" in model.calls[0][0]["content"]


def test_a_value_no_passage_holds_came_from_belief_and_is_not_stated() -> None:
    model = ScriptedChatModel(["Vancouver"])
    [reading] = check_values(model, ITEM, [CANADA], question=QUESTION)
    assert reading.check.read == "Vancouver" and reading.check.outcome == "not_stated"
    assert reading.passage is None


def test_passages_that_do_not_say_leave_it_not_stated() -> None:
    model = ScriptedChatModel(["NOT STATED"])
    [reading] = check_values(model, ITEM, [CANADA], question=QUESTION)
    assert reading.check.read is None and reading.check.outcome == "not_stated"


def test_an_unreadable_reply_is_asked_again_then_left_not_stated(transcript: Transcript) -> None:
    model = ScriptedChatModel(["", "Ottawa"])
    traces = transcript.traces
    span = value_spans(ITEM, question=QUESTION)[0]
    reading = read_value(model, [CANADA], ITEM, span)
    assert reading.check.outcome == "contradicted" and [t.error is None for t in traces] == [False, True]
    model = ScriptedChatModel(["", ""])
    assert read_value(model, [CANADA], ITEM, span).check.outcome == "not_stated"


def test_no_passage_no_call_and_at_most_limit_values() -> None:
    model = ScriptedChatModel([])
    assert check_values(model, ITEM, [], question=QUESTION) == []
    item = "Marie Curie was born in Warsaw in 1867 and died in 1934 in Passy."
    model = ScriptedChatModel(["Warsaw", "1867"])
    born = Evidence("wikipedia", "Curie's birthplace: Warsaw; her year of birth: 1867.")
    found = check_values(model, item, [born],
                         question="Tell me about Marie Curie.", limit=2)
    assert [r.check.outcome for r in found] == ["confirmed", "confirmed"] and len(model.calls) == 2


def test_a_value_the_item_states_in_another_slot_contradicts_nothing() -> None:
    # "from ___ to 1527": the model filled the blank with the item's other year.
    # (Worded unlike the passage: the passage's words around the value do not give it away.)
    passages = [Evidence("wikipedia", "The dynasty held power from 1428 to 1527 and from 1533 to 1789.")]
    item = "The dynasty ruled from 1430 to 1527."
    model = ScriptedChatModel(["1527", "1527"])
    first, second = check_values(model, item, passages, question="Tell me about the dynasty.")
    assert (first.check.stated, first.check.read, first.check.outcome) == ("1430", "1527", "not_stated")
    assert (second.check.stated, second.check.outcome) == ("1527", "confirmed")


def test_a_read_value_that_names_the_topic_was_read_into_the_wrong_slot() -> None:
    passages = [Evidence("wikipedia", "Arnold Palmer formed the Big Three with Jack Nicklaus and "
                                      "Gary Player.")]
    model = ScriptedChatModel(["Arnold Palmer"])
    [reading] = check_values(model, "He played golf with Jack Nicklaus.", passages,
                             question="Tell me about Arnold Palmer.", limit=1)
    assert (reading.check.stated, reading.check.read, reading.check.outcome) == (
        "Jack Nicklaus", "Arnold Palmer", "not_stated")


def test_a_value_the_passage_states_in_the_items_own_words_is_confirmed_without_a_call() -> None:
    novel = Evidence("wikipedia", "One Hundred Years of Solitude is a 1967 novel by Gabriel García Márquez. "
                     "It was recognized at a conference in 2007.", title="One Hundred Years of Solitude")
    item = "One Hundred Years of Solitude is a 1967 novel by Gabriel García Márquez."
    model = ScriptedChatModel([])  # a call would fail: there is nothing to read
    span = next(s for s in value_spans(item) if s.text == "1967")
    reading = read_value(model, [novel], item, span)
    assert (reading.check.outcome, reading.check.read) == ("confirmed", "1967")
    assert (reading.passage, reading.trace) == (0, None)
    assert reading.check.passage == ("One Hundred Years of Solitude is a 1967 novel by Gabriel García "
                                     "Márquez.")
    # Toronto is in the passage, but not where the item puts it: the model is asked.
    asked = read_value(ScriptedChatModel(["Ottawa"]), [CANADA], ITEM,
                       value_spans(ITEM, question=QUESTION)[0], question=QUESTION)
    assert (asked.check.outcome, asked.check.read) == ("contradicted", "Ottawa")


RWANDA = Evidence("wikipedia", "Rwanda lies a few degrees south of the Equator. It is in the Great Rift "
                  "Valley of East Africa.", title="Rwanda")
RWANDA_ITEM = "Rwanda lies a few degrees south of the Kigali in the Great Rift Valley of East Africa."


def test_a_value_read_from_the_wrong_slot_is_asked_again_as_a_question() -> None:
    # The cloze is filled with the item's other value; asked as a question, the model reads the Equator.
    model = ScriptedChatModel(["East Africa", "the Equator"])
    span = next(s for s in value_spans(RWANDA_ITEM) if s.text == "Kigali")
    reading = read_value(model, [RWANDA], RWANDA_ITEM, span, question="Tell me about Rwanda.", retry=True)
    assert (reading.check.read, reading.check.outcome, reading.form, reading.calls) == (
        "the Equator", "contradicted", "question", 2)
    assert reading.check.question.endswith("south of the what in the Great Rift Valley of East Africa?")
    assert reading.check.passage == "Rwanda lies a few degrees south of the Equator."
    assert "<question>" in model.calls[1][0]["content"]
    # Without a retry, or when the second reading says nothing either, the first reading stands.
    once = read_value(ScriptedChatModel(["East Africa"]), [RWANDA], RWANDA_ITEM, span,
                      question="Tell me about Rwanda.")
    assert (once.check.read, once.check.outcome, once.echo, once.calls) == (
        "East Africa", "not_stated", True, 1)
    twice = read_value(ScriptedChatModel(["East Africa", "NOT STATED"]), [RWANDA], RWANDA_ITEM, span,
                       question="Tell me about Rwanda.", retry=True)
    assert (twice.check.read, twice.check.outcome, twice.form, twice.calls) == ("East Africa", "not_stated",
                                                                                 "cloze", 2)


def test_a_reading_that_found_the_passages_value_is_not_asked_again() -> None:
    span = next(s for s in value_spans(RWANDA_ITEM) if s.text == "Kigali")
    for reply, outcome in (("the Equator", "contradicted"), ("NOT STATED", "not_stated")):
        model = ScriptedChatModel([reply])
        reading = read_value(model, [RWANDA], RWANDA_ITEM, span, question="Tell me about Rwanda.", retry=True)
        assert (reading.check.outcome, reading.calls, len(model.calls)) == (outcome, 1, 1)


OSIRIS = Evidence("wikipedia", "Osiris est un dieu du panthéon égyptien et un roi mythique de l'Égypte "
                  "antique. Il est le fils de Geb.", title="Osiris")


def test_a_name_read_in_english_from_a_french_passage_is_compared_as_the_passage_writes_it() -> None:
    swapped = "Osiris est un dieu du panthéon égyptien et un roi mythique du Nil antique."
    span = next(s for s in value_spans(swapped, lang="fr") if s.text == "Nil")
    reading = read_value(ScriptedChatModel(["Egypt"]), [OSIRIS], swapped, span, lang="fr")
    assert (reading.check.read, reading.check.outcome, reading.reply) == ("Égypte", "contradicted", "Egypt")
    assert reading.check.passage == OSIRIS.text.split(" Il ")[0]
    right = "Osiris est un dieu du panthéon égyptien et un roi mythique d'Égypte."
    span = next(s for s in value_spans(right, lang="fr") if s.text == "Égypte")
    reading = read_value(ScriptedChatModel(["Egypt"]), [OSIRIS], right, span, lang="fr")
    assert (reading.check.read, reading.check.outcome) == ("Égypte", "confirmed")
    # An English passage: a word spelled like the reply is another word, never the reply.
    parish = Evidence("wikipedia", "The Parish of Saint Mary holds the abbey.")
    item = "The abbey stands in Lyon."
    span = next(s for s in value_spans(item) if s.text == "Lyon")
    reading = read_value(ScriptedChatModel(["Paris"]), [parish], item, span, lang="en")
    assert (reading.check.read, reading.check.outcome) == ("Paris", "not_stated")


def test_with_no_language_given_a_passage_in_french_is_read_as_it_writes_names_and_one_in_english_not(
        ) -> None:
    # The check's language is unset (the default): the passages' own language says where a name read
    # in English is looked for as the passage writes it.
    swapped = "Osiris est un dieu du panthéon égyptien et un roi mythique du Nil antique."
    span = next(s for s in value_spans(swapped) if s.text == "Nil")
    reading = read_value(ScriptedChatModel(["Egypt"]), [OSIRIS], swapped, span)
    assert (reading.check.read, reading.check.outcome, reading.passage) == ("Égypte", "contradicted", 0)
    # An English item read in a French passage: the passage's language decides.
    item = "Osiris was a god and a mythical king of the ancient Nile."
    span = next(s for s in value_spans(item) if s.text == "Nile")
    reading = read_value(ScriptedChatModel(["Egypt"]), [OSIRIS], item, span)
    assert (reading.check.read, reading.check.outcome) == ("Égypte", "contradicted")
    parish = Evidence("wikipedia", "The Parish of Saint Mary holds the abbey.")
    item = "The abbey stands in Lyon."
    span = next(s for s in value_spans(item) if s.text == "Lyon")
    reading = read_value(ScriptedChatModel(["Paris"]), [parish], item, span)
    assert (reading.check.read, reading.check.outcome) == ("Paris", "not_stated")


def test_values_the_passage_states_in_the_items_words_do_not_count_against_the_limit() -> None:
    passages = [Evidence("wikipedia", "The dynasty ruled Dai Viet from 1428 to 1789 with an interruption: "
                                      "the Mac ruled between 1527 and 1533.")]
    item = "The dynasty ruled Dai Viet from 1428 to 1789 with an interregnum between 1592 and 1533."
    model = ScriptedChatModel(["1527", "1533"])
    found = check_values(model, item, passages, question="Tell me about the dynasty.", limit=1)
    assert [(r.check.stated, r.check.read, r.check.outcome, r.calls) for r in found] == [
        ("1428", "1428", "confirmed", 0), ("1789", "1789", "confirmed", 0),
        ("1592", "1527", "contradicted", 1), ("Dai Viet", "Dai Viet", "confirmed", 0)]
    assert len(model.calls) == 1  # 1533 needs the model too: past the limit, not read


def test_the_value_between_the_items_own_words_in_the_passage_is_read_without_a_call() -> None:
    # The model is drawn to 1592, which the lead states elsewhere: the passage's words around the
    # slot give 1527.
    passages = [Evidence("wikipedia", "The Le dynasty ruled from 1428 to 1789 with an interregnum between "
                                      "1527 and 1533. The Le-Mac War (1533-1592) followed.")]
    item = "The Le dynasty ruled from 1428 to 1789 with an interregnum between 1592 and 1533."
    span = next(s for s in value_spans(item) if s.text == "1592")
    reading = read_value(ScriptedChatModel([]), passages, item, span)
    assert (reading.check.read, reading.check.outcome, reading.calls, reading.trace) == (
        "1527", "contradicted", 0, None)
    assert reading.check.passage == ("The Le dynasty ruled from 1428 to 1789 with an interregnum between "
                                     "1527 and 1533.")
    # Ending the sentence: the passage's last words after the item's.
    lists = [Evidence("wikipedia", "Bactria lay within modern-day Afghanistan, Tajikistan and Uzbekistan.")]
    item = "Bactria lay within modern-day Afghanistan, Tajikistan and Karakoram."
    span = next(s for s in value_spans(item) if s.text == "Karakoram")
    reading = read_value(ScriptedChatModel([]), lists, item, span)
    assert (reading.check.read, reading.check.outcome) == ("Uzbekistan", "contradicted")


def test_a_value_read_by_its_place_is_no_wrong_slot_when_the_item_states_it_too() -> None:
    # The lead's first of three names stands where the answer put Bulgaria; the answer's second name,
    # Skopje, is spelled like it, but read by its place it is the passage's value for this slot.
    passages = [Evidence("wikipedia", "Alberga a casi dos millones de personas, siendo su capital y ciudad "
                                      "más poblada Skopie, Skopje o Escopia.")]
    item = ("Alberga a casi dos millones de personas, siendo su capital y ciudad más poblada Bulgaria, "
            "Skopje o Escopia.")
    span = next(s for s in value_spans(item, lang="es") if s.text == "Bulgaria")
    reading = read_value(ScriptedChatModel([]), passages, item, span, lang="es",
                         question="Háblame de Macedonia del Norte.")
    assert (reading.check.read, reading.check.outcome, reading.calls) == ("Skopie", "contradicted", 0)


def test_a_name_the_leads_subject_is_also_given_is_the_same_thing_as_its_title() -> None:
    # "Tananarive" is a second name the lead gives Antananarivo: read against the title, no swap.
    capital = Evidence("wikipedia", "Antananarivo ou Tananarive dans sa version francisée, ou encore la "
                       "cité des mille, est la capitale économique et politique de Madagascar.",
                       title="Antananarivo")
    country = Evidence("wikipedia", "Madagascar est un pays insulaire. Sa capitale est Antananarivo.",
                       title="Madagascar")
    item = "Tananarive est la capitale de Madagascar."
    [reading] = check_values(ScriptedChatModel(["Antananarivo"]), item, [country, capital], lang="fr",
                             question="Quelle est la capitale de Madagascar ?")
    assert (reading.check.stated, reading.check.read, reading.check.outcome) == \
        ("Tananarive", "Antananarivo", "confirmed")
    # Without the article that gives both names, GeoNames knows the town by both.
    [alone] = check_values(ScriptedChatModel(["Antananarivo"]), item, [country], lang="fr",
                           question="Quelle est la capitale de Madagascar ?")
    assert alone.check.outcome == "confirmed"
    # A name neither gives is another town: a contradiction.
    [other] = check_values(ScriptedChatModel(["Antananarivo"]), "Toamasina est la capitale de Madagascar.",
                           [country], lang="fr", question="Quelle est la capitale de Madagascar ?")
    assert other.check.outcome == "contradicted"


TELEPHONE = Evidence("wikipedia", "A telephone is a telecommunications device that permits two or more users "
                     "to conduct a conversation.", title="Telephone")
BELL = Evidence("wikipedia", "Alexander Graham Bell was a Scottish-born inventor credited with patenting the "
                "first practical telephone. He also co-founded the American Telephone and Telegraph Company "
                "(AT&T) in 1885. His discovery in 1876 of how to send a voice over a wire was patented.",
                title="Alexander Graham Bell")


def test_a_date_in_another_articles_sentence_that_says_nothing_of_the_event_contradicts_nothing() -> None:
    # Read in the person's article, the year of something else he did: the item is left unread.
    item = "The telephone was invented by Alexander Graham Bell in 1876."
    span = next(s for s in value_spans(item) if s.kind == "year")
    reading = read_value(ScriptedChatModel(["1885"]), [TELEPHONE, BELL], item, span)
    assert (reading.check.read, reading.check.outcome, reading.check.excused) == \
        ("1885", "not_stated", "other_event")


def test_a_date_in_another_articles_sentence_that_speaks_of_the_event_contradicts_the_stated_one() -> None:
    # "discovered" and "discovery" meet: his sentence dates what the item dates, unnamed.
    item = "The telephone was discovered by Alexander Graham Bell in 1878."
    span = next(s for s in value_spans(item) if s.kind == "year")
    reading = read_value(ScriptedChatModel(["1876"]), [TELEPHONE, BELL], item, span)
    assert (reading.check.read, reading.check.outcome) == ("1876", "contradicted")


def test_a_value_read_in_another_articles_sentence_about_something_else_contradicts_nothing() -> None:
    france = Evidence("wikipedia", "France is a country in Western Europe.", title="France")
    paris = Evidence("wikipedia", "Paris is the capital and largest city of France, with 2.1 million "
                     "residents.", title="Paris")
    item = "France has 68 million inhabitants, and its capital is Paris."
    span = next(s for s in value_spans(item) if s.text.startswith("68"))
    # The clause of the value says "inhabitants", which Paris's sentence does not: its figure is the city's.
    reading = read_value(ScriptedChatModel(["2.1 million"]), [france, paris], item, span)
    assert (reading.check.outcome, reading.check.excused) == ("not_stated", "other_subject")


def test_a_name_read_as_the_subject_of_another_article_than_the_items_is_not_confirmed() -> None:
    penicillin = Evidence("wikipedia", "Penicillins are a group of antibiotics.", title="Penicillin")
    pasteur = Evidence("wikipedia", "Louis Pasteur was a French chemist known for his discoveries of the "
                       "principles of vaccination.", title="Louis Pasteur")
    item = "Penicillin was discovered by Louis Pasteur."
    span = next(s for s in value_spans(item) if s.text == "Louis Pasteur")
    reading = read_value(ScriptedChatModel(["Louis Pasteur"]), [penicillin, pasteur], item, span)
    assert (reading.check.outcome, reading.check.excused) == ("not_stated", "own_subject")


CANADA_FR = Evidence("wikipedia", "Le Canada est un pays d'Amérique septentrionale constitué de dix "
                     "provinces.", title="Canada")
CANADA_EN = Evidence("wikipedia", "Canada is a country in North America. Its capital is Ottawa and its three "
                     "largest metropolitan areas are Toronto, Montreal, and Vancouver.", title="Canada")


def test_a_name_read_in_the_english_lead_after_a_french_one_contradicts_a_name_that_lead_writes() -> None:
    item = "La capitale du Canada est Toronto."
    span = next(s for s in value_spans(item) if s.text == "Toronto")
    reading = read_value(ScriptedChatModel(["Ottawa"]), [CANADA_FR, CANADA_EN], item, span)
    assert (reading.check.read, reading.check.outcome, reading.passage) == ("Ottawa", "contradicted", 1)


def test_a_name_read_in_the_english_lead_that_it_never_writes_may_be_its_translation() -> None:
    # Read in the English lead after the item's own: "Rhineland" may be "Rhénanie".
    rhin = Evidence("wikipedia", "Le Rhin est un fleuve d'Europe de l'Ouest.", title="Rhin")
    rhine = Evidence("wikipedia", "The Rhine is a river that flows through Switzerland and the Rhineland.",
                     title="Rhine")
    item = "Le Rhin est un fleuve qui traverse la Suisse et la Rhénanie."
    span = next(s for s in value_spans(item) if s.text == "Rhénanie")
    # Read again in the item's own lead, which does not say it either.
    model = ScriptedChatModel(["Rhineland", "NOT STATED"])
    reading = read_value(model, [rhin, rhine], item, span)
    assert (reading.check.outcome, reading.check.excused) == ("not_stated", "other_language")
    assert "[2] Rhine" not in model.calls[1][0]["content"] and reading.calls == 2
    # Where the item's language has no article, every passage is another's: names compared as they are.
    reading = read_value(ScriptedChatModel(["Rhineland"]), [rhine], item, span)
    assert reading.check.outcome == "contradicted"


def test_a_country_read_in_the_english_lead_is_the_one_the_item_names_in_french() -> None:
    rhine = Evidence("wikipedia", "The Rhine is a river that flows through Switzerland and Germany.",
                     title="Rhine")
    item = "Le Rhin est un fleuve qui traverse l'Allemagne."
    span = next(s for s in value_spans(item) if s.text == "Allemagne")
    reading = read_value(ScriptedChatModel(["Germany"]), [rhine], item, span)
    assert (reading.check.read, reading.check.outcome, reading.calls) == ("Germany", "confirmed", 1)


BELGIQUE = Evidence("wikipedia", "Sa capitale est Bruxelles ; les autres grandes villes sont Anvers, Gand et "
                    "Liège.", title="Belgique")
BELGIUM = Evidence("wikipedia", "The capital and largest metropolitan region is Brussels; other major cities "
                   "are Antwerp, Ghent and Liège.", title="Belgium")


@pytest.mark.parametrize(("item", "stated", "outcome"), [
    # "Brussels", read among both leads, is no name the item's language writes: read again in the French
    # lead alone, which writes names as the item does.
    ("La capitale de la Belgique est Anvers.", "Anvers", "contradicted"),
])
def test_a_name_read_in_the_english_lead_is_read_again_in_the_items_own(item: str, stated: str,
                                                                        outcome: str) -> None:
    span = next(s for s in value_spans(item) if s.text == stated)
    model = ScriptedChatModel(["Brussels", "Bruxelles"])
    reading = read_value(model, [BELGIQUE, BELGIUM], item, span)
    assert (reading.check.read, reading.check.outcome, reading.passage) == ("Bruxelles", outcome, 0)
    assert "Brussels" not in model.calls[1][0]["content"] and reading.calls == 2


def test_a_place_read_in_the_french_lead_of_the_same_life_is_of_the_items_subject() -> None:
    # The French lead is titled otherwise ("Jean-Sébastien Bach"): the same person by the years of his life,
    # so the place read there is of the item's subject, only perhaps written in another language.
    bach = "Johann Sebastian Bach"
    passages = [Evidence("wikipedia", "Johann Sebastian Bach was a German composer.", title=bach),
                Evidence("wikipedia", "Johann Sebastian Bach (1685–1750), German composer.", title=bach),
                Evidence("wikipedia", "Jean-Sébastien Bach est un compositeur allemand né le 21 mars 1685 à "
                         "Eisenach et mort le 28 juillet 1750 à Leipzig.", title="Jean-Sébastien Bach")]
    item = "He died in Vienna."
    span = next(s for s in value_spans(item) if s.text == "Vienna")
    model = ScriptedChatModel(["Leipzig", "NOT STATED"])
    reading = read_value(model, passages, item, span)
    assert (reading.check.read, reading.check.excused) == ("Leipzig", "other_language")
    # Another person's lead, of other years, is of another subject.
    other = Evidence("wikipedia", "Carl Philipp Emanuel Bach, né le 8 mars 1714 à Weimar et mort le 14 "
                     "décembre 1788 à Hambourg.", title="Carl Philipp Emanuel Bach")
    reading = read_value(ScriptedChatModel(["Hambourg", "NOT STATED"]), [*passages[:2], other], item, span)
    assert reading.check.excused == "other_subject"


def test_a_town_read_in_the_english_lead_is_the_one_geonames_knows_by_the_items_name() -> None:
    item = "La capitale de la Belgique est Bruxelles."
    span = next(s for s in value_spans(item) if s.text == "Bruxelles")
    reading = read_value(ScriptedChatModel(["Brussels"]), [BELGIQUE, BELGIUM], item, span)
    assert (reading.check.read, reading.check.outcome, reading.calls) == ("Brussels", "confirmed", 1)


def test_a_value_read_in_the_items_own_lead_alone_where_none_was_read_among_both_is_kept() -> None:
    mexico = Evidence("wikipedia", "México es un país de América del Norte; su capital y ciudad más poblada "
                      "es la Ciudad de México.", title="México")
    english = Evidence("wikipedia", "Mexico is a country in North America.", title="Mexico")
    item = "La capital de México es Guadalajara."
    span = next(s for s in value_spans(item) if s.text == "Guadalajara")
    model = ScriptedChatModel(["NOT STATED", "Ciudad de México"])
    reading = read_value(model, [mexico, english], item, span, lang="es")
    assert (reading.check.read, reading.check.outcome) == ("Ciudad de México", "contradicted")
    assert reading.calls == 2 and "[2] Mexico" not in model.calls[1][0]["content"]


def test_a_value_read_among_both_leads_in_the_english_spelling_is_confirmed_in_the_items_own() -> None:
    atenas = Evidence("wikipedia", "La Liga de Delos fue una alianza encabezada por Atenas, creada en el año "
                      "478 a. C.", title="Liga de Delos")
    athens = Evidence("wikipedia", "The Delian League was an association of Greek city-states led by Athens.",
                      title="Delian League")
    item = "La Liga de Delos fue encabezada por Atenas."
    span = next(s for s in value_spans(item) if s.text == "Atenas")
    reading = read_value(ScriptedChatModel(["Athenas", "Atenas"]), [atenas, athens], item, span)
    assert (reading.check.read, reading.check.outcome, reading.passage) == ("Atenas", "confirmed", 0)


def test_the_same_subjects_article_in_another_language_is_its_own_not_another_articles() -> None:
    # *Napoleon* after *Napoléon Ier*: both leads name him Napoléon Bonaparte, so a date read in the
    # English one is his, not another subject's (which the item's words would have to be found in).
    french = Evidence("wikipedia", "Napoléon Bonaparte, né le 15 août 1769 à Ajaccio, est un militaire.",
                      title="Napoléon Ier")
    english = Evidence("wikipedia", "Napoleon Bonaparte was a French military officer. He died in 1821 on "
                       "Saint Helena.", title="Napoleon")
    item = "Napoléon Bonaparte est mort en 1822."
    span = next(s for s in value_spans(item) if s.text == "1822")
    reading = read_value(ScriptedChatModel(["1821"]), [french, english], item, span)
    assert (reading.check.read, reading.check.outcome) == ("1821", "contradicted")


def test_a_day_read_without_its_year_takes_the_year_the_passage_gives_that_day() -> None:
    titanic = Evidence("wikipedia", "RMS Titanic sank in the North Atlantic Ocean on 15 April 1912. She sank "
                       "two hours later at 02:20 on 15 April.", title="Sinking of the Titanic")
    item = "The Titanic sank in April 1915 after hitting an iceberg."
    span = next(s for s in value_spans(item) if s.kind == "date")
    reading = read_value(ScriptedChatModel(["15 April"]), [titanic], item, span)
    assert (reading.check.read, reading.check.outcome) == ("15 April 1912", "contradicted")
    right = "The Titanic sank in April 1912 after hitting an iceberg."
    span = next(s for s in value_spans(right) if s.kind == "date")
    reading = read_value(ScriptedChatModel(["15 April"]), [titanic], right, span)
    assert reading.check.outcome == "confirmed"


def test_a_title_capitalised_on_its_first_word_only_is_listed_beside_the_one_read() -> None:
    milton = Evidence("wikipedia", "John Milton est un poète anglais, auteur de poèmes épiques, Le "
                      "Paradis perdu, Le Paradis reconquis et Samson Agonistes.", title="John Milton")
    item = "John Milton est l'auteur du Paradis reconquis."
    span = next(s for s in value_spans(item, question="Qu'a écrit John Milton ?") if s.text == "Paradis")
    reading = read_value(ScriptedChatModel(["Samson Agonistes"]), [milton], item, span)
    assert (reading.check.outcome, reading.check.excused) == ("not_stated", "listed_together")


def test_a_length_of_time_read_in_a_sentence_of_another_event_of_the_subject_contradicts_nothing() -> None:
    pyramid = Evidence("wikipedia", "The Great Pyramid of Giza is the largest of the Egyptian pyramids. It "
                       "was built c. 2600 BC over a period of about 26 years.", title="Great Pyramid of Giza")
    item = "It was the tallest man-made structure in the world for more than 3,800 years."
    span = next(s for s in value_spans(item) if s.kind == "number")
    reading = read_value(ScriptedChatModel(["26"]), [pyramid], item, span)
    assert (reading.check.outcome, reading.check.excused) == ("not_stated", "other_subject")
    # The same event's length is read and compared.
    reign = Evidence("wikipedia", "Louis XIV reigned for 72 years, the longest reign in history.",
                     title="Louis XIV")
    item = "Louis XIV reigned for 50 years."
    span = next(s for s in value_spans(item) if s.kind == "number")
    reading = read_value(ScriptedChatModel(["72"]), [reign], item, span)
    assert reading.check.outcome == "contradicted"


def test_a_start_dated_by_the_subjects_start_contradicts_a_start_told_with_a_detail_left_out() -> None:
    # "with the storming of the Bastille" is a detail of the start; the sentence dates the start itself.
    revolution = Evidence("wikipedia", "The French Revolution was a period of political and societal change "
                          "in France that began with the Estates General of 1789 and ended with the Coup of "
                          "18 Brumaire on 9 November 1799.", title="French Revolution")
    item = "The French Revolution began in 1799 with the storming of the Bastille."
    span = next(s for s in value_spans(item) if s.kind == "year")
    reading = read_value(ScriptedChatModel(["1789"]), [revolution], item, span)
    assert (reading.check.read, reading.check.outcome) == ("1789", "contradicted")
    # The end's year read for a start stays another event's: the nearest such word before 1799 is "ended".
    began = "The French Revolution began in 1790 with the storming of the Bastille."
    span = next(s for s in value_spans(began) if s.kind == "year")
    reading = read_value(ScriptedChatModel(["1799"]), [revolution], began, span)
    assert (reading.check.outcome, reading.check.excused) == ("not_stated", "other_event")


def test_a_birth_or_death_year_is_read_from_the_subjects_lifespan_without_a_call() -> None:
    # The model had read "479" for the birth; the brackets' order says it, their era said once for both.
    lead = Evidence("wikipedia", "Confucius, born Kong Qiu, was a Chinese philosopher.", title="Confucius")
    life = Evidence("wikipedia", "Confucius (c. 551 – c. 479 BCE), Chinese philosopher.", title="Confucius")
    for item, read in [("He was born in 551 BC.", "551 BCE"), ("Il est mort en 479 av. J.-C.", "479 BCE")]:
        span = next(s for s in value_spans(item) if s.kind == "year")
        reading = read_value(ScriptedChatModel([]), [lead, life], item, span)
        assert (reading.check.read, reading.check.outcome, reading.calls) == (read, "confirmed", 0)
    # Another year is the model's to read (and the excuses' to weigh), and so is another person's lifespan.
    item = "He was born in 479 BC."
    span = next(s for s in value_spans(item) if s.kind == "year")
    assert read_value(ScriptedChatModel(["551 BCE"]), [lead, life], item, span).calls == 1
    laozi = Evidence("wikipedia", "Laozi (c. 571 – c. 471 BCE), Chinese philosopher.", title="Laozi")
    item = "He was born in 571 BC."
    span = next(s for s in value_spans(item) if s.kind == "year")
    reading = read_value(ScriptedChatModel(["NOT STATED"] * 2), [lead, laozi], item, span)
    assert reading.calls >= 1 and reading.check.outcome == "not_stated"


def test_a_place_the_subjects_own_article_gives_too_is_not_contradicted_by_a_place_within_it() -> None:
    lead = Evidence("wikipedia", "La tour de Pise est le campanile de la cathédrale de Pise, en Toscane "
                    "(Italie).", title="Tour de Pise")
    square = Evidence("wikipedia", "Elle est située à proximité du chevet de la cathédrale et fait partie "
                      "des monuments de la piazza dei Miracoli.", title="Tour de Pise")
    item = "La tour de Pise se trouve en Italie, dans la ville de Pise."
    span = next(s for s in value_spans(item, lang="fr") if s.text == "Italie")
    reading = read_value(ScriptedChatModel(["piazza dei Miracoli"]), [square, lead], item, span, lang="fr")
    assert (reading.check.outcome, reading.check.excused) == ("not_stated", "place_within")
    # A place the article never gives is contradicted; so is a birthplace, whatever else the article names.
    item = "La tour de Pise se trouve en Espagne."
    span = next(s for s in value_spans(item, lang="fr") if s.text == "Espagne")
    reading = read_value(ScriptedChatModel(["Italie"]), [lead], item, span, lang="fr")
    assert reading.check.outcome == "contradicted"
    vienna = Evidence("wikipedia", "Mozart was born in Salzburg. He settled in Vienna in 1781.",
                      title="Mozart")
    item = "Mozart was born in Vienna."
    span = next(s for s in value_spans(item) if s.text == "Vienna")
    assert read_value(ScriptedChatModel(["Salzburg"]), [vienna], item, span).check.outcome == "contradicted"


def test_the_own_leads_value_stands_where_the_english_one_was_excused_as_another_subjects() -> None:
    # *Mount Kilimanjaro* shares no name with *Kilimandjaro*: its "5,895" is excused as another subject's,
    # and the French lead alone, read again, gives the summit's height.
    french = Evidence("wikipedia", "Le Kilimandjaro est une montagne de Tanzanie dont le pic Uhuru, à "
                      "5 891,8 mètres d'altitude, constitue le point culminant de l'Afrique.",
                      title="Kilimandjaro")
    english = Evidence("wikipedia", "Mount Kilimanjaro is a dormant volcano in Tanzania. It is the highest "
                       "mountain in Africa, at 5,895 m above sea level.", title="Mount Kilimanjaro")
    item = "Il culmine à 8 848 mètres."
    span = next(s for s in value_spans(item) if s.kind == "number")
    model = ScriptedChatModel(["5,895", "5 891,8"])
    reading = read_value(model, [french, english], item, span, question="Où se trouve le Kilimandjaro ?")
    assert (reading.check.read, reading.check.outcome, reading.passage) == ("5 891,8", "contradicted", 0)
    assert reading.calls == 2 and "Mount Kilimanjaro" not in model.calls[1][0]["content"]


def test_a_nationality_is_asked_for_as_one_and_a_nation_of_the_union_read_is_no_swap() -> None:
    gagarin = Evidence("wikipedia", "Yuri Gagarin was a Soviet pilot and cosmonaut who became the first "
                       "person to journey into outer space.", title="Yuri Gagarin")
    for item, outcome in (("He was an American astronaut.", "contradicted"),
                          ("He was a Russian cosmonaut.", "not_stated")):
        span = value_spans(item)[0]
        model = ScriptedChatModel(["Soviet"])
        reading = read_value(model, [gagarin], item, span)
        assert "___ (a nationality)" in model.calls[0][0]["content"]
        assert (reading.check.read, reading.check.outcome) == ("Soviet", outcome)


def test_the_name_of_the_article_taken_for_an_unnamed_items_subject_is_no_value_of_it() -> None:
    # The play has no article: its author's was read, whose name fills no slot of "Es una obra … del ___".
    calderon = Evidence("wikipedia", "Pedro Calderón de la Barca y de Henao fue un escritor y dramaturgo "
                        "español.", title="Pedro Calderón de la Barca")
    model = ScriptedChatModel(["Pedro Calderón de la Barca"])
    [reading] = check_values(model, "Es una obra de teatro del Siglo de Oro.", [calderon],
                             question="¿Quién escribió La vida es sueño?")
    assert (reading.check.outcome, reading.check.excused) == ("not_stated", "own_subject")
    # An item that names its subject still reads another's name as a swap.
    model = ScriptedChatModel(["Pedro Calderón de la Barca"])
    [reading] = check_values(model, "La vida es sueño fue escrita por Lope de Vega.", [calderon],
                             question="¿Quién escribió La vida es sueño?")
    assert reading.check.outcome == "contradicted"
