"""A data-to-text record (RAGTruth's Yelp businesses) is read as a person reads it: titled passages in
plain words, hours as times, yes/no, nested attributes parsed, each review a passage with its stars."""

from __future__ import annotations

from factjudge.eval.datasets.json_record import key_words, parsed, record_passages, value_words

# Shaped as ../shared/data/ragtruth_data2txt.jsonl's records, with the string forms of RAGTruth's own
# release (a Python-dict string with bare keys, u'free', "True").
REVIEW = ("We came on a Sunday for brunch and did not have to wait, which was nice. The mimosas were "
          "cheap and the eggs benedict was filling.")
RECORD = {
    "name": "Finch & Fork", "address": "31 W Carrillo St", "city": "Santa Barbara", "state": "CA",
    "categories": "Breakfast & Brunch, Bars",
    "hours": {"Monday": "0:0-0:0", "Tuesday": "17:0-21:0", "Wednesday": "17:0-21:0", "Thursday": "17:0-21:0",
              "Friday": "17:30-0:0", "Saturday": "9:0-14:30"},
    "attributes": {"BusinessParking": {"garage": True, "street": True, "lot": False},
                   "BusinessAcceptsCreditCards": "True", "OutdoorSeating": False, "WiFi": "u'free'",
                   "RestaurantsGoodForGroups": True, "HasTV": None,
                   "Music": "{dj: False, live: True, karaoke: None}",
                   "Ambience": "{'romantic': False, 'classy': True}"},
    "business_stars": 4.0,
    "review_info": [{"review_stars": 5.0, "review_date": "2021-12-21 03:21:40", "review_text": REVIEW},
                    {"review_stars": 2.0, "review_date": "2019-06-26 19:15:52",
                     "review_text": "Overpriced."}],
}


def test_a_record_is_titled_passages_a_person_reads() -> None:
    passages = record_passages(RECORD)
    assert [ev.title for ev in passages] == [
        "Finch & Fork", "Finch & Fork: hours", "Finch & Fork: attributes", "Finch & Fork: review 1 of 2",
        "Finch & Fork: review 2 of 2"]
    details, hours, attributes, review, short = (ev.text.split("\n") for ev in passages)
    assert details == ["name: Finch & Fork", "address: 31 W Carrillo St", "city: Santa Barbara", "state: CA",
                       "categories: Breakfast & Brunch, Bars", "business stars: 4.0"]
    # Times in both clocks; days with one range on one line; Yelp's 0:0-0:0 gives no hours.
    assert hours == ["Monday: 0:00-0:00 (no hours given)",
                     "Tuesday to Thursday: 5:00 PM to 9:00 PM (17:00-21:00)",
                     "Friday: 5:30 PM to midnight, 12:00 AM (17:30-0:00)",
                     "Saturday: 9:00 AM to 2:30 PM (9:00-14:30)"]
    assert attributes == ["parking: garage yes, street yes, lot no", "accepts credit cards: yes",
                          "outdoor seating: no", "WiFi: free", "good for groups: yes", "has TV: not given",
                          "Music: dj no, live yes", "Ambience: romantic no, classy yes"]
    # A review keeps its stars and date above its text, as a passage of its own.
    assert review == ["review stars: 5.0", "review date: 2021-12-21 03:21:40", REVIEW]
    assert short == ["review stars: 2.0", "review date: 2019-06-26 19:15:52", "review text: Overpriced."]


def test_keys_and_values_in_plain_words() -> None:
    assert [key_words(k) for k in ("RestaurantsTakeOut", "WiFi", "review_stars", "BYOB", "Monday")] == [
        "take out", "WiFi", "review stars", "BYOB", "Monday"]
    assert parsed("{'garage': False, 'valet': True}") == {"garage": False, "valet": True}
    assert (parsed("u'free'"), parsed("None"), parsed("{not a dict"), parsed(3)) == (
        "free", None, "{not a dict", 3)
    assert [value_words(v) for v in (True, None, [1, "two"], "a  b\nc", "25:0-26:0")] == [
        "yes", "not given", "1, two", "a b c", "25:0-26:0"]


def test_a_record_without_a_name_or_nesting_is_one_passage() -> None:
    [only] = record_passages({"id": 7, "open": False, "tags": ["a", "b"]})
    assert (only.title, only.text) == ("the record", "id: 7\nopen: no\ntags: a, b")
