"""Given segments (FELM's) located forgivingly in the answer, or marked ``located: false``."""

from __future__ import annotations

import pytest

from factjudge.eval.datasets.example import Example
from factjudge.eval.datasets.felm import load_felm
from factjudge.records import Segment
from factjudge.text.segmenter import segment
from factjudge.text.spans import find_loosely
from tests.text.test_segmenter import FELM


def placed(answer: str, given: list[str]) -> list[Segment]:
    segs = segment(answer, segments=given)
    for s in segs:
        assert s.located == (s.start >= 0)
        if s.located:
            assert answer[s.start : s.end] == s.text
    return segs


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("the ARCTIC is cold.", "The Arctic is cold."),  # case
        ('He said "it is cold".', "He said \u201cit is cold\u201d."),  # quote styles
        ("*It lies north.", "It lies north."),  # a bullet the dataset added
        ("it lies NORTH", "It lies north"),  # no full stop given, none taken
        ("It lies\nnorth!", "It lies north."),  # other punctuation, whitespace
    ],
)
def test_a_segment_differing_in_case_quotes_or_marks_is_found(given: str, expected: str) -> None:
    answer = "The Arctic is cold. He said \u201cit is cold\u201d. It lies north."
    (seg,) = placed(answer, [given])
    assert seg.text == expected


def test_literal_escapes_and_a_dropped_line_are_bridged() -> None:
    tail = "So twelve times three is 36, as the long multiplication above shows, one step after another."
    answer = r"To multiply them, use long multiplication as follows:\n\nmarkdown\nCopy code\n12*3\n" + tail
    given = "To multiply them, use long multiplication as follows:\n\n12*3\n" + tail
    (seg,) = placed(answer, [given])
    assert (seg.start, seg.end) == (0, len(answer))


def test_too_many_missing_words_or_a_changed_word_is_not_located() -> None:
    answer = "Cows give milk <<2*3=6>> 6 litres a day. The milk is white."
    segs = placed(answer, ["Cows give milk 6 litres a day.", "The milk is whyte.", "The milk is white."])
    assert [s.located for s in segs] == [False, False, True]
    assert (segs[0].start, segs[0].end, segs[0].text) == (-1, -1, "Cows give milk 6 litres a day.")
    assert segs[2].id == 3  # ids stay aligned with the labels


def test_repeated_sentences_map_in_order() -> None:
    answer = "It is COLD. Yes. It is cold."
    segs = placed(answer, ["it is cold.", "yes", "it is cold."])
    assert [(s.start, s.end) for s in segs] == [(0, 11), (12, 15), (17, 28)]


def test_find_loosely_returns_none_for_no_words() -> None:
    assert find_loosely("--- !", "Some answer.") is None
    assert find_loosely("answer", "Some answer.") == (5, 11)


def test_located_round_trips_and_old_records_tell_it_by_their_offsets() -> None:
    lost = Segment(2, "Not there.", -1, -1, located=False)
    assert Segment.from_dict(lost.to_dict()) == lost
    assert lost.to_dict()["located"] is False
    assert Segment.from_dict({"id": 2, "text": "x", "start": -1, "end": -1}).located is False
    assert Segment.from_dict({"id": 1, "text": "x", "start": 0, "end": 1}).located is True


def _felm() -> dict[str, Example]:
    if not FELM.exists():
        pytest.skip("FELM data not available")
    return {e.id: e for e in load_felm(FELM)}


def test_felm_0_and_194_are_located() -> None:
    examples = _felm()
    zero = examples["felm-0"]
    (whole,) = placed(zero.answer, list(zero.segments))
    assert (whole.start, whole.end) == (0, len(zero.answer))
    cow = examples["felm-194"]
    segs = placed(cow.answer, list(cow.segments))
    assert all(s.located for s in segs) and len(segs) == 4
    assert segs[1].text.startswith("The quality of milk") and segs[1].text.endswith("stored.")
    assert segs[3].end == len(cow.answer)


def test_few_felm_segments_stay_unlocated() -> None:
    unlocated = total = 0
    for example in _felm().values():
        segs = placed(example.answer, list(example.segments))
        total += len(segs)
        unlocated += sum(not s.located for s in segs)
    # Left: empty segments and ones the annotators edited (a typo, GSM8K's <<2*3=6>> removed).
    assert unlocated / total < 0.025
