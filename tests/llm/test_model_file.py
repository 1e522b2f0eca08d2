"""Joining the embedded model from its part packages: verified, atomic, and clear when a part is bad."""

from __future__ import annotations

import base64
import hashlib
import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from factjudge.errors import ModelError
from factjudge.llm.model_file import QWEN_1_5B, PartedModel, ensure_model_file, part_files

PARTS = [bytes([n]) * (1000 + n) for n in range(1, 4)]


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _install_fake_parts(site: Path) -> PartedModel:
    """Three part 'packages' laid out as pip installs wheels: dist-info with a RECORD, data/partNN.bin."""
    for n, data in enumerate(PARTS, start=1):
        module = site / f"fjtestpart{n}"
        (module / "data").mkdir(parents=True)
        (module / "data" / f"part{n:02d}.bin").write_bytes(data)
        info = site / f"fjtestpart{n}-0.1.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: fjtestpart{n}\nVersion: 0.1\n")
        (info / "RECORD").write_text(f"fjtestpart{n}/data/part{n:02d}.bin,{_record_hash(data)},{len(data)}\n"
                                     f"fjtestpart{n}-0.1.dist-info/RECORD,,\n")
    whole = b"".join(PARTS)
    return PartedModel("tiny.gguf", len(whole), hashlib.sha256(whole).hexdigest(), "fjtestpart", 3, "0.1")


@pytest.fixture()
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[PartedModel, Path]:
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    return _install_fake_parts(site), site


def test_parts_are_joined_verified_and_reused(fake: tuple[PartedModel, Path], tmp_path: Path) -> None:
    model, _ = fake
    path = ensure_model_file(model, tmp_path / "models")
    assert path.read_bytes() == b"".join(PARTS)
    stamp = path.stat().st_mtime_ns
    assert ensure_model_file(model, tmp_path / "models").stat().st_mtime_ns == stamp  # not joined again
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["tiny.gguf", "tiny.gguf.lock",
                                                                       "tiny.gguf.verified"]


def test_a_changed_joined_file_is_rebuilt(fake: tuple[PartedModel, Path], tmp_path: Path) -> None:
    model, _ = fake
    path = ensure_model_file(model, tmp_path)
    path.write_bytes(b"x" * model.size)  # same size, other bytes: the stamp no longer matches
    assert ensure_model_file(model, tmp_path).read_bytes() == b"".join(PARTS)


def _flip_a_byte_keeping_the_time(path: Path, offset: int) -> None:
    stat = path.stat()
    data = bytearray(path.read_bytes())
    data[offset] ^= 0xFF
    path.write_bytes(bytes(data))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_mtime_ns == stat.st_mtime_ns and path.stat().st_size == stat.st_size


def test_a_byte_flipped_with_its_time_restored_is_caught_and_rebuilt(fake: tuple[PartedModel, Path],
                                                                     tmp_path: Path) -> None:
    model, _ = fake
    path = ensure_model_file(model, tmp_path)
    _flip_a_byte_keeping_the_time(path, model.size // 2)
    assert ensure_model_file(model, tmp_path).read_bytes() == b"".join(PARTS)


def test_the_sampled_bytes_are_checked_on_every_load_even_when_the_times_match(
        fake: tuple[PartedModel, Path], tmp_path: Path) -> None:
    model, _ = fake
    path = ensure_model_file(model, tmp_path)
    _flip_a_byte_keeping_the_time(path, 10)
    # A stamp forged (or a file system whose change time says nothing) to vouch for the new times.
    stamp_path = tmp_path / "tiny.gguf.verified"
    stamp = json.loads(stamp_path.read_text())
    stamp_path.write_text(json.dumps({**stamp, "ctime_ns": path.stat().st_ctime_ns}))
    assert ensure_model_file(model, tmp_path).read_bytes() == b"".join(PARTS)


def test_a_stamp_that_cannot_vouch_costs_one_full_hash_not_a_join(fake: tuple[PartedModel, Path],
                                                                   tmp_path: Path) -> None:
    model, site = fake
    path = ensure_model_file(model, tmp_path)
    (tmp_path / "tiny.gguf.verified").unlink()
    for n in range(1, 4):  # the parts are gone: a join would fail
        (site / f"fjtestpart{n}" / "data" / f"part{n:02d}.bin").unlink()
    assert ensure_model_file(model, tmp_path) == path
    assert (tmp_path / "tiny.gguf.verified").is_file()


def test_a_killed_joins_part_file_is_removed_and_a_live_ones_kept(fake: tuple[PartedModel, Path],
                                                                   tmp_path: Path) -> None:
    model, _ = fake
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    stale = tmp_path / f"tiny.gguf.part-{dead}"
    stale.write_bytes(b"half a model")
    live = tmp_path / f"tiny.gguf.part-{os.getppid()}"
    live.write_bytes(b"being joined")
    ensure_model_file(model, tmp_path)
    assert not stale.exists() and live.exists()
    ensure_model_file(model, tmp_path)  # and when the file is verified already
    assert live.exists()


def test_a_directory_where_the_model_file_belongs_is_named_as_such(fake: tuple[PartedModel, Path],
                                                                  tmp_path: Path) -> None:
    model, _ = fake
    (tmp_path / "tiny.gguf").mkdir()
    with pytest.raises(ModelError, match=r"tiny\.gguf is a directory; the local model is a GGUF file") as err:
        ensure_model_file(model, tmp_path)
    assert "FACTJUDGE_MODELS" not in str(err.value)


def test_a_corrupted_part_is_refused_and_named(fake: tuple[PartedModel, Path], tmp_path: Path) -> None:
    model, site = fake
    part = site / "fjtestpart2" / "data" / "part02.bin"
    part.write_bytes(b"\x00" + part.read_bytes()[1:])  # same size, one byte changed
    with pytest.raises(ModelError, match=r"fjtestpart2 is damaged.*fjtestpart2==0\.1") as err:
        ensure_model_file(model, tmp_path)
    assert "fjtestpart1" not in str(err.value)
    assert not (tmp_path / "tiny.gguf").exists() and not list(tmp_path.glob("*.part-*"))


def test_a_truncated_part_is_refused_and_named(fake: tuple[PartedModel, Path], tmp_path: Path) -> None:
    model, site = fake
    part = site / "fjtestpart3" / "data" / "part03.bin"
    part.write_bytes(part.read_bytes()[:-10])
    with pytest.raises(ModelError, match=r"fjtestpart3's part file .* has 993 bytes, its package says 1,003"):
        ensure_model_file(model, tmp_path)
    assert not (tmp_path / "tiny.gguf").exists()


def test_a_missing_part_names_the_package(fake: tuple[PartedModel, Path], tmp_path: Path) -> None:
    model, _ = fake
    four = PartedModel(model.filename, model.size, model.sha256, model.package, 4, model.version)
    with pytest.raises(ModelError, match=r"needs the package fjtestpart4, which is not installed"):
        ensure_model_file(four, tmp_path)


def _join(site: str, directory: str, model: PartedModel) -> str:
    sys.path.insert(0, site)
    return str(ensure_model_file(model, Path(directory)))


def test_two_processes_joining_at_once_end_with_one_good_file(fake: tuple[PartedModel, Path],
                                                               tmp_path: Path) -> None:
    model, site = fake
    target = tmp_path / "shared"
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        paths = pool.starmap(_join, [(str(site), str(target), model)] * 4)
    assert len(set(paths)) == 1
    assert Path(paths[0]).read_bytes() == b"".join(PARTS)
    assert not list(target.glob("*.part-*"))


def test_the_embedded_model_is_pinned_to_the_published_file() -> None:
    assert QWEN_1_5B.size == 1_117_320_768 and QWEN_1_5B.parts == 22
    assert QWEN_1_5B.sha256 == "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
    pyproject = (Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    assert all(f'"{req}"' in pyproject for req in QWEN_1_5B.requirements())


def test_installed_parts_are_found_in_order() -> None:
    pytest.importorskip("llama_cpp")
    try:
        paths = part_files(QWEN_1_5B)
    except ModelError as exc:
        pytest.skip(str(exc))
    assert [p.name for p in paths] == [f"part{n:02d}.bin" for n in range(1, 23)]
