from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.errors import InputError, RetrievalError
from factjudge.retrieval.wiki.mediawiki import MediaWikiApi, endpoint
from factjudge.version import package_version
from tests.retrieval.wiki.mediawiki_server import MediaWikiServer, serve

ARTICLES = {
    "Madrid": "Madrid is the capital and most populous city of Spain. It lies on the Manzanares river.",
    "Spain": "Spain is a country in southwestern Europe. Its capital and largest city is Madrid.",
    "Paris": "Paris is the capital of France. The Louvre museum is in Paris.",
}


def api(server: MediaWikiServer, cache: Path | None = None, per_second: float = 100.0) -> MediaWikiApi:
    return MediaWikiApi(server.url, cache_dir=cache, allow_loopback=True, per_second=per_second)


def test_endpoint_of_each_spec_form() -> None:
    assert endpoint("") == ("https://en.wikipedia.org/w/api.php", "en")
    assert endpoint("es") == ("https://es.wikipedia.org/w/api.php", "es")
    assert endpoint("https://fr.wikipedia.org/w/api.php") == ("https://fr.wikipedia.org/w/api.php", "fr")
    assert endpoint("https://wiki.example.org/w/api.php") == ("https://wiki.example.org/w/api.php", "")
    assert str(MediaWikiApi("es", cache_dir=None).spec) == "api:es"


def test_a_malformed_edition_is_an_input_error() -> None:
    with pytest.raises(InputError, match="bad Wikipedia language"):
        MediaWikiApi("Spanish please")


def test_the_topic_article_comes_first_with_its_page_address() -> None:
    with serve(MediaWikiServer(ARTICLES)) as server:
        found = api(server).search("Madrid is the capital of Spain", 3, topics=["spain"])
    assert found[0].title == "Spain"
    assert found[0].url is not None and found[0].url.endswith("/wiki/Spain")
    assert {e.title for e in found} >= {"Spain", "Madrid"}
    assert all(e.source == "wikipedia" for e in found)


def test_a_topic_that_redirects_still_comes_first() -> None:
    with serve(MediaWikiServer(ARTICLES, redirects={"Spanish capital": "Madrid"})) as server:
        found = api(server).search("Spain is in Europe", 2, topics=["Spanish capital"])
    assert found[0].title == "Madrid"


def test_without_a_topic_the_search_finds_the_article_and_retries_with_or() -> None:
    with serve(MediaWikiServer(ARTICLES)) as server:
        found = api(server).search("Which city hosts the Louvre?", 2)
        searches = [r.params["srsearch"] for r in server.requests if r.params.get("list") == "search"]
    assert found[0].title == "Paris"
    assert searches == ["city hosts louvre", "city OR hosts OR louvre"]


def test_user_text_is_never_search_syntax() -> None:
    with serve(MediaWikiServer(ARTICLES)) as server:
        api(server).search('intitle:"Paris" AND -Louvre', 2)
        first = next(r for r in server.requests if r.params.get("list") == "search")
    assert first.params["srsearch"] == "intitle paris louvre"


def test_a_descriptive_user_agent_is_sent() -> None:
    with serve(MediaWikiServer(ARTICLES)) as server:
        api(server).search("capital of France", 1)
        agents = {r.headers["user-agent"] for r in server.requests}
    assert len(agents) == 1
    assert agents.pop().startswith(f"factjudge/{package_version()} (fact-checking tool")


def test_requests_are_spaced_by_the_rate_limit() -> None:
    with serve(MediaWikiServer(ARTICLES)) as server:
        api(server, per_second=4.0).search("Madrid Spain capital", 2, topics=["Spain"])
        times = [r.at for r in server.requests]
    # Each start waits for its slot, 0.25 s after the last; the server sees them later by a
    # connection time that varies on a busy machine, hence the span and its margin.
    assert len(times) >= 3
    assert times[-1] - times[0] >= 0.25 * (len(times) - 1) - 0.1


def test_a_repeated_search_is_answered_from_the_disk_cache(tmp_path: Path) -> None:
    with serve(MediaWikiServer(ARTICLES)) as server:
        first = api(server, tmp_path).search("Madrid is the capital of Spain", 3, topics=["Spain"])
        sent = len(server.requests)
        again = api(server, tmp_path).search("Madrid is the capital of Spain", 3, topics=["Spain"])
        assert len(server.requests) == sent > 0
    assert again == first


def test_private_and_loopback_addresses_are_refused_unless_allowed() -> None:
    with pytest.raises(RetrievalError, match=r"refused private address 10\.1\.2\.3"):
        MediaWikiApi("http://10.1.2.3/w/api.php", cache_dir=None).search("Paris", 1)
    with serve(MediaWikiServer(ARTICLES)) as server:
        with pytest.raises(RetrievalError, match="refused loopback"):
            MediaWikiApi(server.url, cache_dir=None).search("Paris", 1)
        assert server.requests == []


def test_a_server_error_is_one_retrieval_error_line() -> None:
    with serve(MediaWikiServer(ARTICLES, status=500)) as server, \
            pytest.raises(RetrievalError, match="HTTP 500") as caught:
        api(server).search("Paris", 1, topics=["Paris"])
    assert "\n" not in str(caught.value) and server.url in str(caught.value)


def test_an_api_error_reply_is_raised_and_not_cached(tmp_path: Path) -> None:
    class Refusing(MediaWikiServer):
        def reply(self, params: dict[str, str]) -> dict[str, object]:
            return {"error": {"code": "ratelimited", "info": "You've exceeded your rate limit.\nWait."}}

    with serve(Refusing(ARTICLES)) as server:
        wiki = api(server, tmp_path)
        for _ in range(2):
            with pytest.raises(RetrievalError, match=r"exceeded your rate limit\. Wait\."):
                wiki.search("Paris", 1)
        assert len(server.requests) == 2


@pytest.mark.parametrize(("reply", "shown"), [
    ({"query": {"pages": [1]}}, "query.pages holds [1]"),
    ({"query": {"pages": {"12": {"ns": 0}}}}, "pages has title null"),
    ({"query": {"search": [{"ns": 0}]}}, "search has title null"),
    ({"query": {"redirects": [{"from": "A"}]}}, "redirects has to null"),
    ({"query": ["pages"]}, 'query holds ["pages"]'),
])
def test_a_malformed_reply_is_one_retrieval_error_line(reply: dict[str, object], shown: str) -> None:
    class Malformed(MediaWikiServer):
        def reply(self, params: dict[str, str]) -> dict[str, object]:
            return reply

    with serve(Malformed(ARTICLES)) as server, \
            pytest.raises(RetrievalError, match="a malformed reply") as caught:
        api(server).search("Madrid is the capital of Spain", 2, topics=["Spain"])
    assert shown in str(caught.value) and "\n" not in str(caught.value)


def test_pages_keyed_by_id_as_formatversion_1_sends_them_are_read() -> None:
    class ById(MediaWikiServer):
        def reply(self, params: dict[str, str]) -> dict[str, object]:
            query = super().reply(params)
            pages = query["query"].get("pages", [])  # type: ignore[union-attr]
            query["query"]["pages"] = {str(i): page for i, page in enumerate(pages)}  # type: ignore[index]
            return query

    with serve(ById(ARTICLES)) as server:
        assert api(server).search("Spain is in Europe", 1, topics=["Spain"])[0].title == "Spain"


@pytest.mark.parametrize("address", ["http://[::1", "http://[::1]:99999/w/api.php", "https:///w/api.php"])
def test_a_malformed_address_is_one_input_error(address: str) -> None:
    from factjudge.config import CheckConfig

    with pytest.raises(InputError, match="bad MediaWiki address") as caught:
        MediaWikiApi(address)
    assert "\n" not in str(caught.value)
    with pytest.raises(InputError, match="bad MediaWiki address"):
        CheckConfig(wiki=f"api:{address}")  # the flag's and the TOML file's way in


def test_a_malformed_address_on_the_command_line_or_in_toml_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from factjudge import cli

    toml = tmp_path / "check.toml"
    toml.write_text('[check]\nwiki = "api:http://[::1"\n', encoding="utf-8")
    for extra in (["--wiki", "api:http://[::1"], ["--config", str(toml)]):
        assert cli.main(["check", "Where is Madrid?", "Madrid is in Spain.", *extra]) == 2
        err = capsys.readouterr().err
        assert err.startswith("factjudge: error: bad MediaWiki address") and err.count("\n") == 1
