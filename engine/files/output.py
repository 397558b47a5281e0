"""Writing the files a command produces: checked before the work, atomic when written.

Every output (a record, ``--out`` lines, ``--json``, a picture, a viewer) goes
through here, so a bad path fails before a long job starts and an interrupted
run never leaves half a file.
"""

from __future__ import annotations

import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, TextIO

from ..errors import UserError


def check_writable(path: str | Path) -> Path:
    """The real path a file will be written to, or :class:`UserError` if it cannot be:
    an existing target that is not a regular file, or a folder that is missing or
    read-only.  Called before a long job, so a bad path fails at once."""
    if not str(path):
        raise UserError("no file name given", code="io")
    target = Path(path).resolve()  # write through symlinks, never replace them
    if target.exists() and not target.is_file():
        raise UserError(f"cannot write {path}: not a regular file", file=str(path), code="io")
    folder = target.parent
    if not folder.is_dir():
        raise UserError(f"cannot write {path}: folder {folder} does not exist", file=str(path), code="io")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise UserError(f"cannot write {path}: permission denied", file=str(path), code="io")
    return target


def write_json(path: str | Path, data: Any) -> None:
    """Write ``data`` as JSON atomically: a failed write leaves no half file.

    The file gets the usual permissions (as ``open`` would create it, or the
    old file's); symlinks are written through.  :class:`UserError` if the path
    cannot be written.
    """
    write_text(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` atomically (see :func:`write_json`); :class:`UserError` if it cannot be."""
    with atomic_file(path) as out:
        out.write(text)


@contextmanager
def atomic_file(path: str | Path) -> Iterator[TextIO]:
    """A text file to stream into, which appears at ``path`` only when the block ends
    without an error (a failed or interrupted run leaves no half file).

    The file gets the usual permissions (as ``open`` would create it, or the
    old file's); symlinks are written through.  :class:`UserError` if the path
    cannot be written.
    """
    target = check_writable(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror}", file=str(path), code="io") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            yield out
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except OSError as error:
        os.unlink(tmp)
        raise UserError(f"cannot write {path}: {error.strerror}", file=str(path), code="io") from None
    except BaseException:
        os.unlink(tmp)
        raise
