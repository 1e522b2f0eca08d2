"""The more passage text the embedded judge reads, the more it doubts a statement they support: its
threshold, tuned on short groundings, rises with the tokens it read (README, "Long contexts").

Before, a consistent BEGIN dev response read in a 200-token window of its grounding padded to 2,000
words scored P(No) 0.47 (0.21 against its own grounding alone) and came out false at the cut of 0.41
tuned on short groundings; the same doubt over a one-sentence grounding is still false.
"""

from __future__ import annotations

import pytest

from factjudge import explain
from factjudge.checking.checker import Checker
from factjudge.config import CheckConfig
from factjudge.judges.decision import Band
from factjudge.judges.strategies import EVIDENCE_BAND, SUPPORTED_BAND, SUPPORTED_THRESHOLD
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.llm.tokens import get_encoding
from factjudge.records import Evidence
from tests.judges.test_evidence_judge import yes_no

FACT = "The city museum opened in 1998 on the south bank of the river."
FILLER = [f"Town {n} has a library, a market square and a bridge over the canal built in 18{n:02d}."
          for n in range(60)]


def _passages(tokens: int) -> list[Evidence]:
    """One passage of exactly ``tokens`` tokens."""
    encoding = get_encoding()
    return [Evidence("context", encoding.decode(encoding.encode_ordinary(" ".join(FILLER))[:tokens]))]


def test_the_band_rises_across_its_ramp_and_stays() -> None:
    band = Band(0.41, 0.5, rise=0.1, ramp=(50, 200))
    assert band.reading(_passages(40)) == band  # short: the band as tuned
    assert band.reading(_passages(50)) == band
    halfway = band.reading(_passages(125))
    assert (halfway.true_below, halfway.false_from) == (0.46, 0.55)
    for tokens in (200, 900):
        risen = band.reading(_passages(tokens))
        assert (risen.true_below, risen.false_from) == (0.51, 0.6)
    assert Band(0.41, 0.41).reading(_passages(900)) == Band(0.41, 0.41)  # no rise: never counted


def test_the_shipped_bands() -> None:
    assert SUPPORTED_BAND.rise > 0 and SUPPORTED_BAND.true_below == SUPPORTED_THRESHOLD
    # The Wikipedia band was tuned on passages as long as it reads: it does not rise.
    assert EVIDENCE_BAND.rise == 0


@pytest.mark.parametrize("context, label", [
    ([Evidence("context", FACT)], "false"),  # a short grounding: the tuned cut
    ([Evidence("context", " ".join(FILLER)), Evidence("context", FACT)], "true"),  # a window of 200
])
def test_the_same_doubt_is_judged_by_what_was_read(context: list[Evidence], label: str) -> None:
    p_no = SUPPORTED_THRESHOLD + 0.8 * SUPPORTED_BAND.rise
    model = ScriptedChatModel(lambda _: yes_no(p_no), name=LOCAL_DEFAULT)
    config = CheckConfig(strategy="supported", chunk_tokens=200, values=0)
    result = Checker(config, model).check("q", "The museum opened in 1998.", context=context)
    [verdict] = result.segment_verdicts
    assert verdict.label == label
    if label == "true":  # the cut it was judged at is recorded and shown
        cut = round(SUPPORTED_THRESHOLD + SUPPORTED_BAND.rise, 2)
        assert verdict.cut == cut and verdict.grounds.false_from == cut
        assert f"false from {cut:.2f}" in explain.score_note(verdict)
    else:
        assert verdict.cut == SUPPORTED_THRESHOLD
