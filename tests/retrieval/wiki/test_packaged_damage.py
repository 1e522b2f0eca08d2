"""A packaged index damaged inside its pages (its header, size and tables whole) is found by SQLite's
``quick_check`` after a read fails, and rebuilt: by the next check in this process, and by the next
process (issue 44.4: every check exited 4 promising a rebuild that never came)."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.errors import RetrievalError
from factjudge.retrieval.kb import file_damage
from factjudge.retrieval.wiki.packaged import PackagedWiki
from tests.retrieval.wiki.test_packaged import write_files

QUERY = "The Eiffel Tower is in Paris."


def damage_a_page(path: Path, page: int) -> None:
    """Overwrite one page of the SQLite file ``path`` in place: its size and header stay as they were."""
    whole = path.read_bytes()
    size = int.from_bytes(whole[16:18], "big")
    with path.open("r+b") as handle:
        handle.seek((page - 1) * size)
        handle.write(b"\xa5" * size)


@pytest.mark.parametrize("page", [6, 8])
def test_an_index_damaged_inside_its_pages_is_rebuilt_after_the_failed_read(tmp_path: Path,
                                                                           page: int) -> None:
    files, cache = write_files(tmp_path), tmp_path / "cache"
    wiki = PackagedWiki(cache, files)
    damage_a_page(wiki.path, page)
    assert file_damage(wiki.path) is None  # the cheap check on open cannot see it
    assert file_damage(wiki.path, thorough=True) is not None
    with pytest.raises(RetrievalError, match="rebuilt if need be, at the next check"):
        PackagedWiki(cache, files).search(QUERY, 1)  # another process's check: it fails once
    again = PackagedWiki(cache, files)  # the next process's check
    assert again.search(QUERY, 1)[0].title == "Eiffel Tower"
    assert file_damage(again.path, thorough=True) is None


def test_a_damaged_index_is_rebuilt_for_the_next_check_of_a_running_service(tmp_path: Path) -> None:
    wiki = PackagedWiki(tmp_path / "cache", write_files(tmp_path))  # a service opens it at start
    damage_a_page(wiki.path, 6)
    with pytest.raises(RetrievalError):
        wiki.search(QUERY, 1)
    assert wiki.search(QUERY, 1)[0].title == "Eiffel Tower"  # the same object: a service's next request
