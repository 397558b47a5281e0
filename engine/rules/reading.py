"""Reading the files a user names: regular files only, a size limit, UTF-8 text.

Every input (a ruleset, an option, an ``extends`` parent, a scenario, a
record) is read by :func:`read_bytes`, which refuses a FIFO, a socket, a
device, a folder, a symlink loop or a dangling link before any ``open`` could
block, and reads at most :data:`MAX_INPUT_BYTES`; :func:`decode_text` turns
the bytes into text under the one byte-order-mark policy for YAML and JSON.
:func:`input_problem` and :func:`os_reason` say what is wrong in the words
every ``cannot read FILE: …`` / ``cannot write FILE: …`` message uses
(:mod:`engine.files.output` writes with them).
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
from pathlib import Path

from ..errors import UserError

__all__ = ["MAX_INPUT_BYTES", "NO_SUCH_FILE", "decode_text", "input_problem", "os_reason", "read_bytes",
           "type_problem", "wide_encoding"]

#: The most bytes an input file may have: hundreds of times any real ruleset or record
#: (the shipped ones are a few KiB), so that /dev/zero-like input fails at once.
MAX_INPUT_BYTES = 16 * 1024 * 1024

#: What :func:`input_problem` says of a path where nothing is.
NO_SUCH_FILE = "no such file"

_REASONS = {
    errno.ENOENT: NO_SUCH_FILE,
    errno.ELOOP: "symbolic link loop",
    errno.ENAMETOOLONG: "file name too long",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.EISDIR: "it is a folder",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "read-only file system",
    errno.ENOSPC: "no space left on the device",
    errno.ENXIO: "not a regular file",
}
_NOT_REGULAR = ((stat.S_ISDIR, "it is a folder"), (stat.S_ISFIFO, "not a regular file (a named pipe)"),
                (stat.S_ISSOCK, "not a regular file (a socket)"), (stat.S_ISCHR, "not a regular file (a device)"),
                (stat.S_ISBLK, "not a regular file (a device)"))


def os_reason(error: OSError) -> str:
    """Why an ``OSError`` happened, in the words of ``cannot read/write FILE: REASON``."""
    return _REASONS.get(error.errno or 0) or (error.strerror or str(error)).lower()


def type_problem(mode: int) -> str | None:
    """Why a file of ``st_mode`` ``mode`` is not a regular file (``it is a folder``, ``not a regular
    file (a named pipe)``, ...), or None for a regular file."""
    for test, reason in _NOT_REGULAR:
        if test(mode):
            return reason
    return None if stat.S_ISREG(mode) else "not a regular file"


def input_problem(path: str | Path) -> str | None:
    """Why ``path`` is not a regular file one may read, or None if it is one.

    Looks (``stat``) without opening: opening a FIFO blocks until someone
    writes, and opening a device may do anything.  The reasons read after
    ``cannot read FILE:``: :data:`NO_SUCH_FILE`, ``it is a folder``, ``not a
    regular file (a named pipe)``, ``it is a symbolic link to a missing
    file``, ``symbolic link loop``, ``file name too long``, ...
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        try:
            if stat.S_ISLNK(os.lstat(path).st_mode):
                return "it is a symbolic link to a missing file"
        except OSError:
            pass
        return NO_SUCH_FILE
    except OSError as error:
        return os_reason(error)
    except ValueError:  # a NUL in the name (which a record or scenario can spell as \u0000)
        return "the name has a NUL character"
    return type_problem(info.st_mode)


def read_bytes(path: str | Path) -> bytes:
    """The bytes of the input file at ``path``: a regular file of at most :data:`MAX_INPUT_BYTES`.

    :class:`UserError` (located at the file) with code ``io`` for anything
    else, said as :func:`input_problem` says it, and ``file-too-large`` for a
    bigger file; never blocks on a FIFO or reads without a limit.
    """
    file = str(path)
    problem = input_problem(path)
    if problem is not None:
        raise UserError(f"cannot read {file}: {problem}", file=file, code="io")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    raw = b""
    try:
        # O_NONBLOCK: should the file have been swapped for a FIFO since the stat, open
        # returns at once instead of waiting for a writer, and fstat below refuses it.
        with open(os.open(path, flags), "rb") as stream:
            info = os.fstat(stream.fileno())
            problem = type_problem(info.st_mode)
            if problem is None and info.st_size <= MAX_INPUT_BYTES:
                raw = stream.read(MAX_INPUT_BYTES + 1)  # a file growing (or /proc's size 0) still stops here
    except OSError as error:
        raise UserError(f"cannot read {file}: {os_reason(error)}", file=file, code="io") from None
    if problem is not None:
        raise UserError(f"cannot read {file}: {problem}", file=file, code="io")
    if max(info.st_size, len(raw)) > MAX_INPUT_BYTES:
        size = f"{info.st_size / 2**20:.1f} MiB" if info.st_size > MAX_INPUT_BYTES else "it"
        raise UserError(f"cannot read {file}: {size} is more than the {MAX_INPUT_BYTES >> 20} MiB an input "
                        "file may have", file=file, code="file-too-large")
    return raw


_WIDE_BOMS = ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
              (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"))


def wide_encoding(raw: bytes) -> str | None:
    """``"UTF-16"`` or ``"UTF-32"`` if ``raw`` starts with that encoding's byte-order mark, else None."""
    for bom, name in _WIDE_BOMS:
        if raw.startswith(bom):
            return name
    return None


def decode_text(raw: bytes, file: str) -> str:
    """``raw`` as UTF-8 text, without a leading byte-order mark.

    BOM policy: one UTF-8 BOM at the very start is dropped, for YAML (whose
    spec allows it) and JSON alike (RFC 8259 lets a parser ignore it, and
    Windows editors write it); a BOM anywhere else is text, which the syntax
    then refuses.  :class:`UserError` ``encoding`` for a UTF-16 or UTF-32
    file (at 1:1) and at the line and column of the first byte that is not
    UTF-8.
    """
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8):]
    wide = wide_encoding(raw)
    if wide is not None:
        raise UserError(f"{wide} text (it starts with a {wide} byte-order mark): save it as UTF-8", file=file,
                        line=1, col=1, code="encoding")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise UserError(f"not valid UTF-8 (byte 0x{raw[exc.start]:02x})", file=file, line=line, col=col,
                        code="encoding") from None
