"""A sentence its context states nearly word for word, its values confirmed, is supported at any context
length; an added fact beside a confirmed value is not, and its added words are the span.

Before, a sentence copied from a 2,000-word context ("Its main span is 1,280 metres long."), read in
windows of 200 tokens with its value read and confirmed, was still judged false at P(No) 0.49: a
confirmed value did not count for the item.
"""

from __future__ import annotations

import dataclasses

import pytest

from factjudge import explain
from factjudge.checking.checker import Checker
from factjudge.config import CheckConfig
from factjudge.grounds import Grounds, ValueCheck
from factjudge.judges.verbatim import answer_unread, confirmed_by_values
from factjudge.llm.base import Completion, Message
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import CheckResult, Evidence, Verdict
from factjudge.text.unsupported import stated_share, unsupported_spans
from tests.judges.test_evidence_judge import yes_no

BRIDGE = ("The Golden Gate Bridge is a suspension bridge spanning the Golden Gate strait at the entrance to "
          "San Francisco Bay. It opened to traffic in May 1937. Its main span is 1,280 metres long, and it "
          "was the longest suspension bridge span in the world until 1964.")
FILLER = [f"Town {n} has a library, a market square and a bridge over the canal built in 18{n % 100:02d}."
          for n in range(130)]
# Values a careful reader reads from the context, by what the blank asks about.
READ = {"opened": "1937", "main span": "1,280 metres", "painted": "NOT STATED"}


def judge(doubt: dict[str, float]) -> ScriptedChatModel:
    """Fills a value's blank from ``READ``; asked whether the passages support a statement, doubts it by
    the first key of ``doubt`` it contains (P(No) 0.1 otherwise), and more (0.95) where they are only
    other towns'."""

    def reply(messages: list[Message]) -> Completion | str:
        content = messages[-1]["content"]
        # A value is asked as a cloze, or again as a question when the cloze missed it.
        tag = "<statement>" if "<statement>" in content else "<question>"
        passages, statement = content.rsplit(tag, 1)
        if "___" in statement or tag == "<question>":
            return next((value for key, value in READ.items() if key in statement), "NOT STATED")
        if "Town" in passages and "Golden Gate" not in passages and "Library" not in passages:
            return yes_no(0.95)
        return yes_no(next((p for key, p in doubt.items() if key in statement), 0.1))

    return ScriptedChatModel(reply, name=LOCAL_DEFAULT)


def check(answer: str, model: ScriptedChatModel, context: list[str]) -> CheckResult:
    config = CheckConfig(strategy="supported")  # the default reading: windows of 200 tokens
    return Checker(config, model).check("When did the Golden Gate Bridge open, and how long is it?", answer,
                                        context=context)


def long_context() -> list[str]:
    """The bridge's passage in the middle of about 2,000 words of other towns."""
    return [" ".join(FILLER[:65]), BRIDGE, " ".join(FILLER[65:])]


def test_a_sentence_copied_from_a_long_context_is_supported_and_an_added_fact_is_not() -> None:
    context = long_context()
    assert 1900 < sum(len(c.split()) for c in context) < 2300
    answer = ("The Golden Gate Bridge opened in 1937. Its main span is 1,280 metres long. "
              "It was painted bright blue in 1990.")
    # The model doubts the copied sentence as much as the issue saw (0.55, above the risen cut).
    result = check(answer, judge({"main span": 0.55, "painted": 0.9}), context)
    opened, span, painted = result.segment_verdicts
    assert [v.label for v in result.segment_verdicts] == ["true", "true", "false"]
    assert span.grounds.windows > 1 and span.grounds.rule == "verbatim"
    assert span.error_score is not None and span.error_score < span.grounds.true_below  # type: ignore[operator]
    assert span.grounds.passage == "Its main span is 1,280 metres long, and it was the longest suspension " \
                                   "bridge span in the world until 1964."
    assert explain.why(span) == ("the context states it nearly word for word; the context says "
                                 "1,280 metres, as the answer does")
    assert opened.grounds.rule == "cut"  # the model's own Yes: the rule never makes a true verdict false
    # The added sentence is flagged by the words no passage holds, as one phrase: "bright" and "blue"
    # are in no window, "painted" in none either; "1990" too.
    assert [s.text for s in painted.spans] == ["painted bright blue in 1990"]
    assert all(answer[s.start:s.end] == s.text for s in painted.spans)
    assert explain.reason(result) == (
        "2 of 3 checked sentences are supported by the context; not supported: 'It was painted bright blue "
        "in 1990.' (not supported by the context; flagged: 'painted bright blue in 1990').")


def test_an_added_fact_next_to_a_confirmed_value_stays_unsupported() -> None:
    answer = "Its main span is 1,280 metres long and it is painted bright blue."
    result = check(answer, judge({"main span": 0.55}), long_context())
    [verdict] = result.segment_verdicts
    assert verdict.label == "false" and verdict.grounds.rule == "cut"
    assert [v.outcome for v in verdict.grounds.values] == ["confirmed"]
    assert [s.text for s in verdict.spans] == ["painted bright blue"]


def test_a_verbatim_sentence_whose_value_differs_stays_false() -> None:
    # A wrong number breaks both the value and the near-verbatim share.
    result = check("Its main span is 1,480 metres long.", judge({"main span": 0.55}), long_context())
    [verdict] = result.segment_verdicts
    assert verdict.label == "false" and verdict.grounds.rule != "verbatim"



def test_a_confirmed_value_in_other_words_counts_as_stated() -> None:
    # "one thousand two hundred and eighty metres" is the passage's "1,280 metres": read and confirmed,
    # its words are not the passage's, yet the sentence is the passage's (before: false at P(No) 0.55).
    answer = "Its main span is one thousand two hundred and eighty metres long."
    result = check(answer, judge({"main span": 0.55}), long_context())
    [verdict] = result.segment_verdicts
    assert [v.outcome for v in verdict.grounds.values] == ["confirmed"]
    assert verdict.label == "true" and verdict.grounds.rule == "verbatim"
    # A wrong figure in words is still no copy of the sentence.
    [wrong] = check("Its main span is one thousand four hundred metres long.", judge({"main span": 0.55}),
                    long_context()).segment_verdicts
    assert wrong.label == "false" and wrong.grounds.rule != "verbatim"

PASSAGE = " ".join((
    "The Riverside Library reopened on Monday after a two-year renovation that cost 4 million dollars.",
    "The building, first opened in 1908, now has a larger children's section and a rooftop reading room.",
    "Mayor Ellen Park cut the ribbon at a ceremony attended by about 300 residents.",
    "The library will be open seven days a week, from 9 a.m. to 8 p.m.",
    "Its collection has grown to 120,000 books, and a new digital lab offers free classes in coding and "
    "video editing.",
    "Staff said the renovation kept the original reading hall and its stained-glass ceiling."))
SIX = ("The Riverside Library reopened on Monday after a two-year renovation. The work cost 4 million "
       "dollars. Mayor Ellen Park cut the ribbon in front of about 300 residents. The building now has a "
       "rooftop reading room and a larger children's section. A new digital lab offers free coding classes, "
       "funded by a grant from the Hartley Foundation. The library is open seven days a week.")


def test_an_added_fact_in_a_six_sentence_rag_answer_is_flagged_with_its_words() -> None:
    result = check(SIX, judge({"Hartley": 0.85}), [PASSAGE])
    labels = [v.label for v in result.segment_verdicts]
    assert labels == ["true", "true", "true", "true", "false", "true"]
    flagged = result.segment_verdicts[4]
    assert [s.text for s in flagged.spans] == ["funded by a grant from the Hartley Foundation"]
    assert all(SIX[s.start:s.end] == s.text for s in flagged.spans)


def test_stated_share_is_the_best_single_sentence() -> None:
    share, sentence = stated_share("Its main span is 1,280 metres long.", [BRIDGE])
    assert share == 1.0 and sentence is not None and sentence.startswith("Its main span")
    share, _ = stated_share("Its main span is 1,280 metres long and painted blue.", [BRIDGE])
    assert share < 0.9
    # Spread over two sentences, it is no copy of either.
    share, _ = stated_share("The Golden Gate Bridge opened in 1937.", [BRIDGE])
    assert share < 0.9


def test_flagged_words_join_into_phrases_across_few_known_words() -> None:
    item = "It was painted blue in 1990 by the city of Sausalito."
    words = unsupported_spans(item, [BRIDGE], item, 0, len(item))
    assert [s.text for s in words] == ["painted", "blue", "1990", "city", "Sausalito"]
    # Only stop words lie between them: one phrase.
    joined = unsupported_spans(item, [BRIDGE], item, 0, len(item), join=2)
    assert [(s.text, item[s.start:s.end]) for s in joined] == [(item[7:-1], item[7:-1])]
    # A passage that names the city: one known word between 1990 and Sausalito.
    passages = [BRIDGE + " The city of San Francisco lies south of the bridge."]
    assert [s.text for s in unsupported_spans(item, passages, item, 0, len(item), join=1)] == [item[7:-1]]
    apart = unsupported_spans(item, passages, item, 0, len(item), join=0)
    assert [s.text for s in apart] == ["painted blue in 1990", "Sausalito"]


def test_a_sentence_joining_two_windows_whose_words_the_context_holds_is_supported() -> None:
    # Read in windows of 200 tokens, no window holds both halves, and the model doubts it in each; the
    # whole context holds every word and number of it, and its value is read and confirmed.
    answer = "The Golden Gate Bridge opened in 1937, and Town 7 has a market square."
    result = check(answer, judge({"Town 7": 0.9}), long_context())
    [verdict] = result.segment_verdicts
    assert verdict.label == "true" and verdict.grounds.rule == "context_words"
    assert verdict.grounds.windows > 1 and not verdict.spans
    assert verdict.error_score is not None and verdict.error_score < verdict.grounds.true_below  # type: ignore[operator]
    assert explain.why(verdict) == "the context holds every word and number of it, and no value read differs"


def test_a_sentence_whose_words_the_context_holds_but_whose_value_it_contradicts_stays_false() -> None:
    # 1964 is in the context, but not as the year the bridge opened: the value decides.
    result = check("The Golden Gate Bridge opened in 1964.", judge({"opened": 0.9}), long_context())
    [verdict] = result.segment_verdicts
    assert verdict.label == "false" and verdict.grounds.rule == "values"


def test_a_sentence_with_words_the_context_lacks_stays_the_models_call() -> None:
    # Two of its eleven content words are in no passage: below the bar (0.9).
    result = check("The Golden Gate Bridge opened in 1937, and Town 7 has a famous and busy market square.",
                   judge({"Town 7": 0.9}), long_context())
    [verdict] = result.segment_verdicts
    assert verdict.label == "false" and verdict.grounds.rule == "cut"
    assert [s.text for s in verdict.spans] == ["famous and busy"]


def _unsure(text: str, *values: tuple[str, str], rule: str = "band") -> Verdict:
    """An unverified verdict on ``text`` by the model's doubt, its ``values`` (stated, outcome) read."""
    checks = tuple(ValueCheck(stated, "name", "", stated if outcome == "confirmed" else None,
                              outcome) for stated, outcome in values)  # type: ignore[arg-type]
    grounds = Grounds(rule, score=0.47, true_below=0.41, false_from=0.5, values=checks)  # type: ignore[arg-type]
    return Verdict("segment", 0, "unverified", 0.47, "evidence", grounds=grounds)


def test_every_value_read_as_stated_supports_what_the_model_was_unsure_of() -> None:
    text = "Zola a vu le jour à Paris en 1840."
    verdict = confirmed_by_values(_unsure(text, ("Paris", "confirmed"), ("1840", "confirmed"), rule="silent"),
                                  text)
    assert verdict.label == "true" and verdict.grounds.rule == "confirmed"
    assert verdict.error_score is not None and verdict.error_score < 0.41
    assert explain.why(verdict) == "the passage says Paris and 1840, as the answer does"


@pytest.mark.parametrize(("text", "values"), [
    # One value the passages do not give.
    ("Zola a vu le jour à Paris en 1840.", [("Paris", "confirmed"), ("1840", "not_stated")]),
    # A negation: both values are the lead's, the sentence denies them.
    ("Alexander Fleming did not discover penicillin in 1928.", [("1928", "confirmed")]),
    ("Fleming didn't discover penicillin in 1928.", [("1928", "confirmed")]),
    ("Zola n'est pas né à Paris.", [("Paris", "confirmed")]),
    ("Zola no nació en París.", [("París", "confirmed")]),
    # Its only value is its own subject, which the passages name whatever they say of it.
    ("L'Everest est la plus haute montagne du monde.", [("L'Everest", "confirmed")]),
])
def test_a_value_missing_a_negation_or_only_the_subject_leaves_it_unverified(
        text: str, values: list[tuple[str, str]]) -> None:
    assert confirmed_by_values(_unsure(text, *values), text).label == "unverified"


def test_an_attribute_the_record_denies_is_not_stated_by_its_words() -> None:
    # "outdoor seating: no" holds every word of the sentence; it denies them, so the model's doubt stands,
    # while the sentence that denies it too rests on the same words.
    record = ["name: Finch & Fork\ncity: Santa Barbara",
              "outdoor seating: no\nWiFi: free\nparking: garage yes, lot no"]
    model = ScriptedChatModel(lambda messages: "NOT STATED" if "___" in messages[-1]["content"]
                              else yes_no(0.9), name=LOCAL_DEFAULT)
    offers, lacks = (Checker(CheckConfig(strategy="supported"), model).check("", answer, context=record)
                     .segment_verdicts[0] for answer in ("Finch & Fork offers outdoor seating.",
                                                         "Finch & Fork has no outdoor seating."))
    assert (offers.label, offers.grounds.rule) == ("false", "cut")
    assert (lacks.label, lacks.grounds.rule) == ("true", "context_words")


MISSISSIPPI = Evidence("wikipedia", "El Misisipi es un largo río del centro de Estados Unidos.",
                       title="Río Misisipi")


def _believed(text: str, title: str, *values: tuple[str, str]) -> Verdict:
    """A true verdict on ``text`` by the model's belief, read in the article ``title``, with ``values``."""
    checks = tuple(ValueCheck(stated, "name", "", stated if outcome == "confirmed" else None,
                              outcome) for stated, outcome in values)  # type: ignore[arg-type]
    grounds = Grounds("band", score=0.32, true_below=0.41, false_from=0.5, values=checks)
    evidence = (dataclasses.replace(MISSISSIPPI, title=title),)
    return Verdict("segment", 0, "true", 0.32, "evidence", evidence=evidence, grounds=grounds)


def test_what_an_item_says_its_articles_subject_is_is_unverified_where_that_article_does_not_say_it() -> None:
    text = "El río más largo del mundo es el Misisipi."
    verdict = answer_unread(_believed(text, "Río Misisipi", ("Misisipi", "not_stated")), text)
    assert (verdict.label, verdict.grounds.rule) == ("unverified", "silent")
    assert explain.why(verdict).startswith("not enough evidence: the passage does not state it")


@pytest.mark.parametrize(("title", "values"), [
    # Its subject's article confirms it.
    ("Río Misisipi", [("Misisipi", "confirmed")]),
    # Another article's name left unread: the model's call stands.
    ("Estados Unidos", [("Misisipi", "not_stated")]),
    ("Río Misisipi", [("1541", "not_stated")]),
])
def test_a_true_verdict_stands_where_its_articles_subject_is_read_or_not_stated(
        title: str, values: list[tuple[str, str]]) -> None:
    text = "El Misisipi fue descubierto en 1541."
    assert answer_unread(_believed(text, title, *values), text).label == "true"


def test_a_true_verdict_on_a_birth_or_death_place_no_passage_writes_is_unverified() -> None:
    # "Murió en Cuba", called supported by "la Revolución cubana": the place of a death no passage writes.
    def believed(text: str, place: str) -> Verdict:
        verdict = _believed(text, "Che Guevara", (place, "not_stated"))
        values = tuple(dataclasses.replace(v, kind="place") for v in verdict.grounds.values)
        return dataclasses.replace(verdict, grounds=dataclasses.replace(verdict.grounds, values=values))

    verdict = answer_unread(believed("Murió en Cuba.", "Cuba"), "Murió en Cuba.")
    assert (verdict.label, verdict.grounds.rule) == ("unverified", "silent")
    # A place the passage writes, or one of no birth or death: the judge's call stands.
    for text, place in (("Nació en Estados Unidos.", "Estados Unidos"),
                        ("Ea was the god of wisdom in Mesopotamia.", "Mesopotamia")):
        assert answer_unread(believed(text, place), text).label == "true"


def test_a_true_verdict_on_a_slot_the_passage_fills_twice_is_unverified() -> None:
    text = "La capitale du Maroc est Casablanca."
    verdict = _believed(text, "Maroc", ("Casablanca", "not_stated"))
    named = tuple(dataclasses.replace(v, read="Rabat", excused="named_too") for v in verdict.grounds.values)
    verdict = dataclasses.replace(verdict, grounds=dataclasses.replace(verdict.grounds, values=named))
    assert answer_unread(verdict, text).label == "unverified"


def test_a_true_verdict_on_a_place_narrower_than_the_one_read_is_unverified() -> None:
    # "Fiji is located in Suva" on "in Oceania": Suva may lie in Oceania, which says nothing narrower.
    text = "Fiji is a country located in Suva."
    verdict = _believed(text, "Fiji", ("Suva", "not_stated"))
    narrower = tuple(dataclasses.replace(v, read="Oceania", excused="narrower")
                     for v in verdict.grounds.values)
    verdict = dataclasses.replace(verdict, grounds=dataclasses.replace(verdict.grounds, values=narrower))
    assert answer_unread(verdict, text).label == "unverified"
