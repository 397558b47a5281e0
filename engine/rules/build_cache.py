"""A per-user disk cache for what every process would otherwise rebuild at start-up.

Two things cost most of a short command's start-up and never change between
runs: the formula parser's LALR tables (lark) and the schema checker that
fastjsonschema generates as Python source.  Built once, they are kept under
``$XDG_CACHE_HOME/carcassonne-rules`` (default ``~/.cache/carcassonne-rules``;
``CARCASSONNE_CACHE_DIR`` overrides it), in files whose names carry a hash of
everything they were built from, so a changed schema, grammar, library or
Python builds a new file instead of reading a stale one.

The cache only ever saves time: a folder that cannot be made or written, or a
file that cannot be read, means building in memory as if there were no cache.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
from pathlib import Path
from types import CodeType
from typing import Callable, TypeVar

T = TypeVar("T")


def cache_dir() -> Path | None:
    """The cache folder, made if missing; None when it cannot be made (then nothing is cached)."""
    chosen = os.environ.get("CARCASSONNE_CACHE_DIR")
    if chosen:
        folder = Path(chosen)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = Path(base) / "carcassonne-rules"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK | os.X_OK) else None


def cache_key(*parts: str) -> str:
    """A short hash of ``parts`` and the running Python's version (bytecode depends on it)."""
    digest = hashlib.sha256("\0".join((sys.version, *parts)).encode("utf-8"))
    return digest.hexdigest()[:24]


def cached(name: str, key: str, build: Callable[[], bytes], decode: Callable[[bytes], T]) -> T:
    """``decode(data)`` of the bytes stored for ``name`` and ``key``; when there are none, or
    they are damaged (each file starts with the SHA-256 of its data, checked before
    decoding: unmarshalling garbage can take seconds and gigabytes), or they do not
    decode, ``build()`` makes them, and they are stored (atomically: a reader never
    sees a half-written file) before being decoded.  Decoding errors of a fresh
    build propagate: they are bugs, not a stale cache."""
    folder = cache_dir()
    file = folder / f"{name}-{key}.bin" if folder is not None else None
    if file is not None:
        try:
            stored = file.read_bytes()
            digest, data = stored[:32], stored[32:]
            if hashlib.sha256(data).digest() == digest:
                return decode(data)
        except Exception:  # missing, unreadable or from another version: build it again
            pass
    data = build()
    if file is not None:
        _store(file, hashlib.sha256(data).digest() + data)
    return decode(data)


def _store(file: Path, content: bytes) -> None:
    try:
        fd, tmp = tempfile.mkstemp(dir=file.parent, prefix=f".{file.stem}-")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(content)
        os.replace(tmp, file)
    except OSError:  # a full disk, or a folder where the file should be: no cache, no litter
        Path(tmp).unlink(missing_ok=True)


def cached_code(name: str, key: str, build_source: Callable[[], str]) -> CodeType:
    """The code object of the Python source ``build_source()`` returns, cached as bytecode."""
    def decode(data: bytes) -> CodeType:
        code = marshal.loads(data)
        if not isinstance(code, CodeType):
            raise TypeError("not a code object")
        return code

    return cached(name, key, lambda: marshal.dumps(compile(build_source(), f"<{name}>", "exec")), decode)
