"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from factjudge.transcript import Transcript, recording


@pytest.fixture
def transcript() -> Iterator[Transcript]:
    """A check's transcript open for the whole test: the model calls the code under test records."""
    with recording() as opened:
        yield opened
