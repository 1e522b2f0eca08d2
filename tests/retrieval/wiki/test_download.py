"""``factjudge wiki get`` against a real HTTP server on 127.0.0.1 serving a ZIM built here."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from factjudge.errors import InputError, RetrievalError
from factjudge.retrieval.wiki import download as download_module
from factjudge.retrieval.wiki.download import Fetched, fetcher_for, get_edition, newest_file, published_sha256
from factjudge.testing.live import serve_handler

pytest.importorskip("libzim.writer")

NAME = "wikipedia_en_top_nopic_2024-06.zim"
OLDER = "wikipedia_en_top_nopic_2023-11.zim"


@dataclass
class Kiwix:
    """A folder of Kiwix files: a listing, the files, their checksums, and what the server saw."""

    files: dict[str, bytes]
    ranges: bool = True  # honours Range; False: sends the whole file whatever is asked
    cut_after: int | None = None  # the first download of a file stops after this many bytes
    checksums: dict[str, str] = field(default_factory=dict)
    extra_listed: list[str] = field(default_factory=list)  # names listed but not served
    chunked: bool = False  # listings and checksums sent chunked, without a Content-Length (autoindex)
    asked: list[tuple[str, str | None]] = field(default_factory=list)
    url: str = ""

    def listing(self) -> bytes:
        links = "".join(f'<a href="{n}">{n}</a> 12-Jun-2024 2G\n'
                        for n in sorted([*self.files, *self.extra_listed]))
        return f"<html><body><h1>Index of /zim/wikipedia/</h1><pre>{links}</pre></body></html>".encode()


@contextmanager
def serve(kiwix: Kiwix) -> Iterator[Kiwix]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            name = self.path.rsplit("/", 1)[-1]
            kiwix.asked.append((name, self.headers.get("Range")))
            if self.path.endswith("/"):
                return self._send(200, kiwix.listing(), "text/html")
            if name.endswith(".sha256") and name[:-7] in kiwix.files:
                digest = kiwix.checksums.get(name[:-7]) or hashlib.sha256(kiwix.files[name[:-7]]).hexdigest()
                return self._send(200, f"{digest}  {name[:-7]}\n".encode(), "text/plain")
            if name not in kiwix.files:
                return self._send(404, b"not found", "text/plain")
            body = kiwix.files[name]
            wanted = self.headers.get("Range", "")
            if kiwix.ranges and wanted.startswith("bytes="):
                start = int(wanted[6:].rstrip("-"))
                if start >= len(body):  # as Apache and nginx answer a range past the end
                    self.send_response(416)
                    self.send_header("Content-Range", f"bytes */{len(body)}")
                    return self._body(b"", "text/plain", 0)
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
                return self._body(body[start:], "application/octet-stream", len(body) - start)
            self.send_response(200)
            self._body(body, "application/octet-stream", len(body))

        def _send(self, status: int, body: bytes, kind: str) -> None:
            if kiwix.chunked:
                self.protocol_version = "HTTP/1.1"
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Transfer-Encoding", "chunked")
                self.send_header("Connection", "close")
                self.end_headers()
                for at in range(0, len(body), 100):
                    piece = body[at:at + 100]
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.write(b"0\r\n\r\n")
                self.close_connection = True
                return
            self.send_response(status)
            self._body(body, kind, len(body))

        def _body(self, body: bytes, kind: str, length: int) -> None:
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(length))
            self.end_headers()
            if kiwix.cut_after is not None and len(body) > kiwix.cut_after:
                self.wfile.write(body[: kiwix.cut_after])  # then the connection drops
                kiwix.cut_after = None
                self.close_connection = True
                return
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    with serve_handler(Handler) as base:
        kiwix.url = f"{base}/zim/wikipedia/"
        yield kiwix


@pytest.fixture(scope="module")
def zim_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    from tests.retrieval.wiki.test_zim import make_zim

    path = make_zim(tmp_path_factory.mktemp("kiwix") / NAME, name="wikipedia_en_top_nopic")
    return path.read_bytes()


def _get(kiwix: Kiwix, folder: Path, edition: str | None = "top_nopic") -> Fetched:
    return get_edition("en", edition, mirror=kiwix.url, directory=folder,
                       fetcher=fetcher_for(allow_loopback=True))


def test_the_newest_file_is_downloaded_verified_and_installed(tmp_path: Path, zim_bytes: bytes) -> None:
    with serve(Kiwix({NAME: zim_bytes, OLDER: b"old"})) as kiwix:
        got = _get(kiwix, tmp_path, edition=None)  # English's default edition
    assert got.path == tmp_path / NAME and got.path.read_bytes() == zim_bytes and not got.already
    assert sorted(p.name for p in tmp_path.iterdir()) == [NAME, f"{NAME}.lock"]  # no part left
    from factjudge.retrieval.wiki.zim import ZimWiki

    assert ZimWiki(got.path).search("capital of Spain", 1)[0].title == "Madrid"


def test_an_interrupted_download_is_resumed_where_it_stopped(tmp_path: Path, zim_bytes: bytes) -> None:
    with serve(Kiwix({NAME: zim_bytes}, cut_after=len(zim_bytes) // 3)) as kiwix:
        with pytest.raises(RetrievalError, match="run the same command again to resume") as caught:
            _get(kiwix, tmp_path)
        assert "\n" not in str(caught.value)
        kept = (tmp_path / f"{NAME}.part").stat().st_size
        assert 0 < kept < len(zim_bytes) and not (tmp_path / NAME).exists()
        got = _get(kiwix, tmp_path)
        downloads = [rng for name, rng in kiwix.asked if name == NAME]
    assert downloads == [None, f"bytes={kept}-"]
    assert got.resumed_from == kept and got.path.read_bytes() == zim_bytes


def test_a_server_without_range_support_sends_the_file_again(tmp_path: Path, zim_bytes: bytes) -> None:
    with serve(Kiwix({NAME: zim_bytes}, ranges=False, cut_after=len(zim_bytes) // 2)) as kiwix:
        with pytest.raises(RetrievalError):
            _get(kiwix, tmp_path)
        got = _get(kiwix, tmp_path)
    assert got.restarted and got.resumed_from == 0
    assert got.path.read_bytes() == zim_bytes  # not the first half twice


def test_a_checksum_mismatch_is_refused_and_the_file_removed(tmp_path: Path, zim_bytes: bytes) -> None:
    removed = r"not the 0{64} published beside it: the download was removed"
    with serve(Kiwix({NAME: zim_bytes}, checksums={NAME: "0" * 64})) as kiwix, \
            pytest.raises(RetrievalError, match=removed):
        _get(kiwix, tmp_path)
    assert not (tmp_path / NAME).exists() and not (tmp_path / f"{NAME}.part").exists()


def test_an_edition_not_listed_and_a_listed_file_that_is_missing_are_one_line(
        tmp_path: Path, zim_bytes: bytes) -> None:
    newer = NAME.replace("2024-06", "2025-01")
    with serve(Kiwix({NAME: zim_bytes}, extra_listed=[newer])) as kiwix:
        with pytest.raises(RetrievalError, match="no wikipedia_en_all_maxi file is listed"):
            _get(kiwix, tmp_path, edition="all_maxi")
        with pytest.raises(RetrievalError, match="HTTP 404") as caught:
            _get(kiwix, tmp_path)  # the newest listed file is not there (nor its checksum)
    assert "\n" not in str(caught.value) and not list(tmp_path.glob("*.zim*"))


def test_a_short_disk_is_refused_before_the_first_byte(tmp_path: Path, zim_bytes: bytes,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(download_module, "_free_bytes", lambda folder: 1000)
    with serve(Kiwix({NAME: zim_bytes})) as kiwix, pytest.raises(InputError, match="not enough disk space"):
        _get(kiwix, tmp_path)
    assert not list(tmp_path.glob("*.zim")) and not list(tmp_path.glob("*.part"))


def test_every_byte_goes_through_the_link_guards(tmp_path: Path, zim_bytes: bytes) -> None:
    with serve(Kiwix({NAME: zim_bytes})) as kiwix:
        with pytest.raises(RetrievalError, match="refused loopback"):
            get_edition("en", mirror=kiwix.url, directory=tmp_path)  # the default fetcher: no loopback
        assert kiwix.asked == []


def test_auto_prefers_an_installed_zim_of_the_answers_language(tmp_path: Path, zim_bytes: bytes,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from factjudge.config import CheckConfig
    from factjudge.environment import zim_dir

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    before = CheckConfig(language="en").wiki_source()
    with serve(Kiwix({NAME: zim_bytes})) as kiwix:
        got = get_edition("en", mirror=kiwix.url, fetcher=fetcher_for(allow_loopback=True))
    assert got.path.parent == zim_dir() == tmp_path / "factjudge" / "wiki"
    assert CheckConfig(language="en").wiki_source() == f"zim:{got.path}" != before
    assert CheckConfig(language="fr").wiki_source() == before  # no French edition: as it was
    with serve(Kiwix({NAME: zim_bytes})) as kiwix:
        again = get_edition("en", mirror=kiwix.url, fetcher=fetcher_for(allow_loopback=True))
        # The listing and the checksum the installed file is verified against; not the file
        assert again.already and [name for name, _ in kiwix.asked] == ["", f"{NAME}.sha256"]


def test_a_listing_and_checksum_served_chunked_are_read_within_the_cap(
        tmp_path: Path, zim_bytes: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    with serve(Kiwix({NAME: zim_bytes}, chunked=True)) as kiwix:
        got = _get(kiwix, tmp_path)
        assert got.path.read_bytes() == zim_bytes
        monkeypatch.setattr(download_module, "MAX_LISTING_BYTES", 100)  # the listing is longer
        with pytest.raises(RetrievalError, match="more than the 100 bytes allowed"):
            _get(kiwix, tmp_path / "other")


def test_a_part_longer_than_the_file_is_fetched_again_from_the_start(tmp_path: Path,
                                                                      zim_bytes: bytes) -> None:
    (tmp_path / f"{NAME}.part").write_bytes(b"x" * (len(zim_bytes) + 100))  # not this file's start
    with serve(Kiwix({NAME: zim_bytes})) as kiwix:
        got = _get(kiwix, tmp_path)
        downloads = [rng for name, rng in kiwix.asked if name == NAME]
    assert downloads == [f"bytes={len(zim_bytes) + 100}-", None]  # one 416, then the whole file
    assert got.path.read_bytes() == zim_bytes and got.restarted and not (tmp_path / f"{NAME}.part").exists()


@pytest.mark.parametrize(("found", "why"), [(b"", "empty (0 bytes)"),
                                            (b"not this file", "not the published file")])
def test_get_verifies_a_file_it_finds_and_replaces_a_bad_one(tmp_path: Path, zim_bytes: bytes,
                                                             found: bytes, why: str) -> None:
    (tmp_path / NAME).write_bytes(found)
    with serve(Kiwix({NAME: zim_bytes})) as kiwix:
        got = _get(kiwix, tmp_path)
        assert not got.already and got.replaced.startswith(why) and got.path.read_bytes() == zim_bytes
        again = _get(kiwix, tmp_path)  # the file now there is verified against the checksum, not fetched
    assert again.already and again.replaced == ""
    assert [name for name, _ in kiwix.asked].count(NAME) == 1


def test_a_listing_is_read_in_linear_time_with_a_bound() -> None:
    import time

    started = time.monotonic()
    # 400 KB of a name's start, repeated: a backtracking pattern tried each from every start (minutes)
    assert newest_file("wikipedia_" * 40_000 + NAME, "en", "top_nopic") is None  # glued on: no name
    assert newest_file("wikipedia_" * 40_000 + f" {NAME}", "en", "top_nopic") == NAME
    assert time.monotonic() - started < 5
    with pytest.raises(RetrievalError, match="reading the folder listing took over"):
        newest_file("wikipedia_ " * 10_000, "en", "top_nopic", seconds=-1)


def test_listings_and_checksum_files_are_read_as_kiwix_writes_them() -> None:
    listing = f'<a href="{OLDER}">{OLDER}</a> <a href="{NAME}">{NAME}</a> <a href="{NAME}.meta4">m</a>'
    assert newest_file(listing, "en", "top_nopic") == NAME
    assert newest_file(listing, "en", "all_nopic") is None and newest_file(listing, "fr", "top_nopic") is None
    digest = "ab" * 32
    assert published_sha256(f"{digest}  {NAME}\n", NAME) == digest
    assert published_sha256(f'<metalink><file name="{NAME}"><hash type="sha-256">{digest.upper()}</hash>'
                            "</file></metalink>", NAME) == digest
    assert published_sha256(f"{digest}  another.zim\n", NAME) is None


def test_the_wiki_command_gets_an_edition_and_lists_it(tmp_path: Path, zim_bytes: bytes,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from factjudge import cli

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with serve(Kiwix({NAME: zim_bytes})) as kiwix:
        assert cli.main(["wiki", "get", "en", "--mirror", kiwix.url, "--no-progress"]) == 4
        assert "refused loopback" in capsys.readouterr().err  # a mirror here must be allowed
        assert cli.main(["wiki", "get", "en", "--mirror", kiwix.url, "--allow-private", "--no-progress"]) == 0
    out = capsys.readouterr().out
    installed = tmp_path / "factjudge" / "wiki" / NAME
    assert f"installed {installed}" in out and "SHA-256 verified" in out
    assert cli.main(["wiki", "status"]) == 0
    status = capsys.readouterr().out
    assert f"zim:{installed}: en, 5 articles" in status  # 4 pages and a redirect
    assert "the most-read articles; whole articles, no pictures" in status
    assert f"auto for en: zim:{installed}" in status
