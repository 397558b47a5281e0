"""Writing the files a command produces: checked before the work, atomic when written.

Every output (a record, ``--out`` lines, ``--json``, a picture, a viewer) goes
through here, so a bad path fails before a long job starts and an interrupted
run never leaves half a file.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, TextIO

from ..errors import UserError
from ..rules.reading import os_reason, type_problem


def check_distinct(outputs: dict[str, str | Path | None], inputs: dict[str, str | Path | None] | None = None) -> None:
    """:class:`UserError` (code ``usage``) if two of a command's outputs, or an output and
    one of its inputs, are the same file: the last write would silently replace the
    other (a record overwritten by its own ``--json``).

    ``outputs`` and ``inputs`` map what the user named (``--json``, ``RECORD``)
    to the path given; None and ``-`` (standard output) are left out.
    """
    def key(path: str | Path) -> str:
        return os.path.realpath(path)  # never raises: a loop or a missing file keeps its own name

    seen: dict[str, str] = {}
    for name, path in (inputs or {}).items():
        if path not in (None, "-", ""):
            seen.setdefault(key(path), name)
    for name, path in outputs.items():
        if path in (None, "-", ""):
            continue
        other = seen.get(key(path))
        if other is not None:
            raise UserError(f"{name} {path} is the same file as {other}: one would overwrite the other",
                            code="usage")
        seen[key(path)] = name


def check_writable(path: str | Path) -> Path:
    """The real path a file will be written to, or :class:`UserError` (code ``io``) if it cannot be.

    Refused: an existing target that is not a regular file (a folder, a FIFO,
    a socket, a device such as /dev/null), a symbolic link loop, a link to a
    missing file (writing through it would create a file elsewhere, as ``cp``
    refuses to), a name too long for the file system, a folder that is missing
    or read-only.  Looks with ``stat`` only, so a FIFO is never opened (which
    would block).  Called before a long job, so a bad path fails at once;
    :func:`atomic_file` calls it again and reports what the system refuses at
    write time (root passes the permission test and may still meet a
    read-only file system).
    """
    file = str(path)
    if not file:
        raise UserError("no file name given", code="io")
    try:
        info: os.stat_result | None = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as error:  # a name too long, a part of the path that is a file, ...
        raise _cannot(file, os_reason(error)) from None
    except ValueError:
        raise _cannot(file, "the name has a NUL character") from None
    if info is not None and stat.S_ISLNK(info.st_mode):
        try:
            info = os.stat(path)  # write through symlinks, never replace them
        except FileNotFoundError:
            raise _cannot(file, "it is a symbolic link to a missing file") from None
        except OSError as error:
            raise _cannot(file, os_reason(error)) from None
    if info is not None:
        problem = type_problem(info.st_mode)
        if problem is not None:
            raise _cannot(file, problem)
    target = Path(os.path.realpath(path))
    folder = target.parent
    try:
        folder_is_dir = stat.S_ISDIR(os.stat(folder).st_mode)
    except FileNotFoundError:
        raise _cannot(file, f"folder {folder} does not exist") from None
    except OSError as error:
        raise _cannot(file, os_reason(error)) from None
    if not folder_is_dir:
        raise _cannot(file, f"{folder} is not a folder")
    if not os.access(folder, os.W_OK) or (info is not None and not os.access(target, os.W_OK)):
        raise _cannot(file, "permission denied")
    return target


def _cannot(file: str, reason: str) -> UserError:
    return UserError(f"cannot write {file}: {reason}", file=file, code="io")


def _temp_prefix(name: str) -> str:
    """``.NAME.`` for the temporary file beside the target, short enough that the random
    suffix still fits in a file name (255 bytes) when ``NAME`` itself nearly fills one."""
    while len(os.fsencode(name)) > 200:
        name = name[:-1]
    return f".{name}."


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
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=_temp_prefix(target.name))
    except OSError as error:
        raise _cannot(str(path), os_reason(error)) from None
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
        raise _cannot(str(path), os_reason(error)) from None
    except BaseException:
        os.unlink(tmp)
        raise
