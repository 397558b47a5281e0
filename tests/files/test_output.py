"""Writing outputs (engine.files.output): every odd target is refused before the work, with
nothing created anywhere, and what the system refuses at write time is a one-line error too."""

from __future__ import annotations

import errno
import os
import socket
import tempfile
from pathlib import Path

import pytest

from engine.errors import UserError
from engine.files import output
from engine.files.output import atomic_file, check_writable, write_text


def refused(path: str | Path) -> tuple[str, str | None, str | None]:
    with pytest.raises(UserError) as info:
        check_writable(path)
    (found,) = info.value.diagnostics
    return found.message, found.file, found.code


def test_a_fifo_a_socket_a_device_and_a_folder_are_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.json")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "sock.json"))
    try:
        for path, reason in ((tmp_path / "fifo.json", "not a regular file (a named pipe)"),
                             (tmp_path / "sock.json", "not a regular file (a socket)"),
                             (Path("/dev/null"), "not a regular file (a device)"),
                             (Path("/dev/zero"), "not a regular file (a device)"),
                             (tmp_path, "it is a folder")):
            assert refused(path) == (f"cannot write {path}: {reason}", str(path), "io")
    finally:
        server.close()


def test_a_link_loop_and_a_dangling_link_are_refused_and_nothing_is_created(tmp_path: Path) -> None:
    (tmp_path / "loop.json").symlink_to(tmp_path / "loop.json")
    (tmp_path / "dangling.json").symlink_to(tmp_path / "elsewhere.json")
    assert refused(tmp_path / "loop.json")[0] == f"cannot write {tmp_path / 'loop.json'}: symbolic link loop"
    # Writing through it would create a file where the link points (cp refuses the same).
    assert refused(tmp_path / "dangling.json")[0] == (
        f"cannot write {tmp_path / 'dangling.json'}: it is a symbolic link to a missing file")
    with pytest.raises(UserError):
        write_text(tmp_path / "dangling.json", "x")
    assert not (tmp_path / "elsewhere.json").exists()


def test_bad_names_and_folders(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    long = tmp_path / ("x" * 300 + ".json")
    cases = [(long, "file name too long"),
             (tmp_path / "nowhere" / "out.json", f"folder {tmp_path / 'nowhere'} does not exist"),
             (tmp_path / "plain" / "out.json", "a part of the path is not a folder"),
             (tmp_path / "a\0b.json", "the name has a NUL character")]
    for path, reason in cases:
        assert refused(path)[0] == f"cannot write {path}: {reason}"
    assert refused("") == ("no file name given", None, "io")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only folder")
def test_a_read_only_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        assert refused(folder / "out.json")[0] == f"cannot write {folder / 'out.json'}: permission denied"
    finally:
        folder.chmod(0o755)


def test_a_folder_the_user_may_not_write_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # What os.access says for a non-root user in a read-only folder (root is always let in).
    monkeypatch.setattr(output.os, "access", lambda path, mode: False)
    assert refused(tmp_path / "out.json")[0] == f"cannot write {tmp_path / 'out.json'}: permission denied"


def test_writable_targets_and_links_are_written_through(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old")
    (tmp_path / "link.json").symlink_to(real)
    assert check_writable(tmp_path / "new.json") == tmp_path.resolve() / "new.json"
    assert check_writable(tmp_path / "link.json") == real.resolve()
    write_text(tmp_path / "link.json", "new")
    assert (tmp_path / "link.json").is_symlink() and real.read_text() == "new"


def test_a_name_that_nearly_fills_the_limit_still_gets_a_temporary_file(tmp_path: Path) -> None:
    # The temporary file beside it is ".NAME.random": NAME is shortened so that it fits too.
    path = tmp_path / ("y" * 250 + ".json")
    write_text(path, "done")
    assert path.read_text() == "done"
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


@pytest.mark.parametrize("code, reason", [(errno.EACCES, "permission denied"),
                                          (errno.EROFS, "read-only file system"),
                                          (errno.ENOSPC, "no space left on the device")])
def test_what_the_system_refuses_at_write_time_is_one_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            code: int, reason: str) -> None:
    # Root passes the permission check and still meets a read-only file system: the write says so.
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(UserError) as info:
        write_text(tmp_path / "out.json", "x")
    assert info.value.diagnostics[0].message == f"cannot write {tmp_path / 'out.json'}: {reason}"
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_leaves_neither_the_file_nor_a_temporary_one(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text("before")
    with pytest.raises(UserError, match="no space left on the device"):
        with atomic_file(target) as out:
            out.write("half")
            raise OSError(errno.ENOSPC, "No space left on device")
    with pytest.raises(KeyboardInterrupt):
        with atomic_file(target) as out:
            out.write("half")
            raise KeyboardInterrupt
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"] and target.read_text() == "before"


def test_the_temporary_prefix_is_short_in_bytes() -> None:
    assert output._temp_prefix("é" * 200).encode() == b"." + "é".encode() * 100 + b"."
    assert output._temp_prefix("game.json") == ".game.json."
