"""Reading the files a user names (engine.rules.reading), and the files rulesets, options,
scenarios and records name (engine.rules.references, engine.rules.compose): only a
regular file is opened, at most 16 MiB of it, as UTF-8 under one byte-order-mark policy."""

from __future__ import annotations

import codecs
import json
import os
import socket
from pathlib import Path
from typing import Callable, Iterator

import pytest

from engine.errors import UserError
from engine.files.record import load_record, replay
from engine.files.scenario import load_scenario, run_scenario
from engine.rules import reading
from engine.rules.reading import NO_SUCH_FILE, decode_text, input_problem, os_reason, read_bytes
from engine.rules.ruleset import load_ruleset

BASIC = Path(__file__).parents[2] / "rulesets" / "basic.yaml"


@pytest.fixture
def sockets() -> Iterator[list[socket.socket]]:
    opened: list[socket.socket] = []
    yield opened
    for server in opened:
        server.close()


def _fifo(tmp: Path) -> Path:
    os.mkfifo(tmp / "fifo.yaml")
    return tmp / "fifo.yaml"


def _loop(tmp: Path) -> Path:
    (tmp / "loop.yaml").symlink_to(tmp / "loop.yaml")
    return tmp / "loop.yaml"


def _dangling(tmp: Path) -> Path:
    (tmp / "dangling.yaml").symlink_to(tmp / "nowhere.yaml")
    return tmp / "dangling.yaml"


def _under_a_file(tmp: Path) -> Path:
    (tmp / "plain.txt").write_text("x")
    return tmp / "plain.txt" / "rules.yaml"


#: (what, how to make it in a folder, what input_problem says)
ODD: list[tuple[str, Callable[[Path], Path], str]] = [
    ("fifo", _fifo, "not a regular file (a named pipe)"),
    ("zero", lambda tmp: Path("/dev/zero"), "not a regular file (a device)"),
    ("null", lambda tmp: Path("/dev/null"), "not a regular file (a device)"),
    ("folder", lambda tmp: tmp, "it is a folder"),
    ("loop", _loop, "symbolic link loop"),
    ("dangling", _dangling, "it is a symbolic link to a missing file"),
    ("long", lambda tmp: tmp / ("x" * 300 + ".yaml"), "file name too long"),
    ("missing", lambda tmp: tmp / "no-such-folder" / "rules.yaml", NO_SUCH_FILE),
    ("under-a-file", _under_a_file, "a part of the path is not a folder"),
    ("nul", lambda tmp: tmp / "a\0b.yaml", "the name has a NUL character"),
]


def _socket(tmp: Path, sockets: list[socket.socket]) -> Path:
    path = tmp / "sock.yaml"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen()
    sockets.append(server)
    return path


# ------------------------------------------------------------------ one reading function


@pytest.mark.parametrize("make, reason", [(make, reason) for _, make, reason in ODD], ids=[o[0] for o in ODD])
def test_odd_paths_are_refused_before_any_open(tmp_path: Path, make: Callable[[Path], Path], reason: str) -> None:
    path = make(tmp_path)
    assert input_problem(path) == reason
    with pytest.raises(UserError) as info:
        read_bytes(path)  # a FIFO would block here if it were opened
    (found,) = info.value.diagnostics
    assert (found.message, found.file, found.code, found.line) == (f"cannot read {path}: {reason}", str(path),
                                                                   "io", None)


def test_a_socket_is_refused(tmp_path: Path, sockets: list[socket.socket]) -> None:
    path = _socket(tmp_path, sockets)
    assert input_problem(path) == "not a regular file (a socket)"
    with pytest.raises(UserError, match="not a regular file"):
        read_bytes(path)


def test_a_regular_file_and_a_link_to_one_are_read(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_bytes(b"name: x\n")
    (tmp_path / "link.yaml").symlink_to(path)
    assert input_problem(path) is None and input_problem(tmp_path / "link.yaml") is None
    assert read_bytes(path) == read_bytes(tmp_path / "link.yaml") == b"name: x\n"


def test_a_file_swapped_for_a_fifo_after_the_look_is_refused_without_blocking(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The stat said "regular file"; by the open it is a FIFO: O_NONBLOCK opens at once, fstat refuses it.
    path = _fifo(tmp_path)
    monkeypatch.setattr(reading, "input_problem", lambda p: None)
    with pytest.raises(UserError, match=r"not a regular file \(a named pipe\)"):
        read_bytes(path)


def test_files_over_the_limit_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert reading.MAX_INPUT_BYTES == 16 * 2**20
    monkeypatch.setattr(reading, "MAX_INPUT_BYTES", 2**20)
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * 2**20)
    assert len(read_bytes(path)) == 2**20  # exactly the limit is fine
    path.write_bytes(b"#" * (3 * 2**19))
    with pytest.raises(UserError) as info:
        read_bytes(path)
    (found,) = info.value.diagnostics
    assert found.code == "file-too-large"
    assert found.message == f"cannot read {path}: 1.5 MiB is more than the 1 MiB an input file may have"


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs Linux /proc")
def test_a_file_whose_size_lies_still_stops_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # /proc files say size 0 and then have content: the read itself is bounded.
    monkeypatch.setattr(reading, "MAX_INPUT_BYTES", 16)
    with pytest.raises(UserError, match="it is more than the") as info:
        read_bytes("/proc/self/status")
    assert info.value.diagnostics[0].code == "file-too-large"


def test_os_reasons_are_short_and_lower_case() -> None:
    import errno

    assert os_reason(OSError(errno.EACCES, "Permission denied")) == "permission denied"
    assert os_reason(OSError(errno.EROFS, "Read-only file system")) == "read-only file system"
    assert os_reason(OSError(errno.EIO, "Input/output error")) == "input/output error"


# ------------------------------------------------------------------ the byte-order-mark policy


def test_one_leading_utf8_bom_is_dropped() -> None:
    assert decode_text(codecs.BOM_UTF8 + "a: é\n".encode(), "f") == "a: é\n"
    assert decode_text("a: é\n".encode(), "f") == "a: é\n"
    # A second one is text (and the YAML or JSON syntax then says it is out of place).
    assert decode_text(codecs.BOM_UTF8 * 2 + b"a: 1", "f") == "\ufeffa: 1"


@pytest.mark.parametrize("bom, codec, name", [(codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
                                              (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
                                              (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
                                              (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32")])
def test_utf16_and_utf32_are_named(bom: bytes, codec: str, name: str) -> None:
    with pytest.raises(UserError) as info:
        decode_text(bom + "a: 1\n".encode(codec), "r.yaml")
    (found,) = info.value.diagnostics
    assert (found.message, found.line, found.col, found.code) == (
        f"{name} text (it starts with a {name} byte-order mark): save it as UTF-8", 1, 1, "encoding")


def test_a_byte_that_is_not_utf8_is_located() -> None:
    with pytest.raises(UserError) as info:
        decode_text(codecs.BOM_UTF8 + b"a: 1\nname: caf\xe9\n", "r.yaml")
    (found,) = info.value.diagnostics
    # Columns count in the file as the user sees it, after the BOM.
    assert (found.message, found.line, found.col, found.code) == ("not valid UTF-8 (byte 0xe9)", 2, 10, "encoding")


# ------------------------------------------------------------------ files that other files name


def _located(error: pytest.ExceptionInfo[UserError]) -> tuple[str | None, int | None, int | None, str, str | None]:
    (found,) = error.value.diagnostics
    return Path(found.file).name if found.file else None, found.line, found.col, found.message, found.code


@pytest.mark.parametrize("make, reason", [(make, reason) for what, make, reason in ODD if what != "missing"],
                         ids=[o[0] for o in ODD if o[0] != "missing"])
def test_an_odd_extends_parent_is_reported_at_the_extends_line(tmp_path: Path, make: Callable[[Path], Path],
                                                               reason: str) -> None:
    parent = make(tmp_path)
    child = tmp_path / "child.yaml"
    child.write_text(f"name: child\nextends: {json.dumps(str(parent))}\n")  # JSON strings are YAML, \u0000 too
    with pytest.raises(UserError) as info:
        load_ruleset(str(child))
    assert _located(info) == ("child.yaml", 2, 11, f"cannot read {parent}: {reason}", "io")  # after the quote


def test_a_socket_as_extends_parent_or_option(tmp_path: Path, sockets: list[socket.socket]) -> None:
    path = _socket(tmp_path, sockets)
    child = tmp_path / "child.yaml"
    child.write_text(f"name: child\nextends: {path}\n")
    with pytest.raises(UserError) as info:
        load_ruleset(str(child))
    assert _located(info)[:3] == ("child.yaml", 2, 10)
    with pytest.raises(UserError) as info:
        load_ruleset(f"basic+{path}")
    assert _located(info) == (None, None, None, f"cannot read {path}: not a regular file (a socket)", "io")


def test_a_fifo_as_an_option_or_a_ruleset(tmp_path: Path) -> None:
    path = _fifo(tmp_path)
    for ref in (str(path), f"basic+{path}"):
        with pytest.raises(UserError) as info:
            load_ruleset(ref)
        assert _located(info) == (None, None, None, f"cannot read {path}: not a regular file (a named pipe)", "io")


def test_a_missing_extends_parent_or_option_says_not_found(tmp_path: Path) -> None:
    child = tmp_path / "child.yaml"
    child.write_text("name: child\nextends: gone/parent.yaml\n")
    with pytest.raises(UserError) as info:
        load_ruleset(str(child))
    assert _located(info) == ("child.yaml", 2, 10, f"ruleset file not found: {tmp_path / 'gone/parent.yaml'}",
                              "io")
    with pytest.raises(UserError, match="option file not found"):
        load_ruleset(f"basic+{tmp_path / 'gone.yaml'}")


SHADOW = "root:$6$SECRET-hash:20228:0:99999:7::\ndaemon:*:20228:0:99999:7::\n"


@pytest.mark.parametrize("content, why, at", [
    (SHADOW.encode(), "it has none of the keys of a ruleset (features and tiles, or extends) or of an option (patch)",
     (1, 1)),
    (b"root:x:0:0:SECRET:/root:/bin/bash\n", "it is a single value, not a mapping of keys", (1, 1)),
    # YAML gives up at the unknown escape: line 1, column 16 (the backslash).
    (b'token: "SECRET \\q"\n', "it is not well-formed YAML, and has none of the keys of a ruleset (features and "
                               "tiles, or extends) or of an option (patch)", (1, 16)),
    # The first byte that is not UTF-8 is 0xff, the 15th byte of line 1.
    (b"\x7fELF\x02\x01\x01\x00SECRET\xff\xfe", "it is not UTF-8 text", (1, 15)),
    (b"name: x\nSECRET caf\xe9\n", "it is not UTF-8 text", (2, 11)),
    (codecs.BOM_UTF16_LE + "tiles: {}".encode("utf-16-le"), "it is UTF-16 text, not UTF-8", (1, 1)),
], ids=["shadow", "passwd", "broken", "binary", "latin1", "utf16"])
def test_a_named_file_that_is_no_ruleset_is_refused_unquoted(tmp_path: Path, content: bytes, why: str,
                                                             at: tuple[int, int]) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_bytes(content)
    child = tmp_path / "child.yaml"
    child.write_text(f"name: child\nextends: {secret}\n")
    # Named by another file, it is reported where that file names it; named on its own, in itself.
    for ref, where in ((str(child), ("child.yaml", 2, 10)), (str(secret), ("secret.txt", *at))):
        with pytest.raises(UserError) as info:
            load_ruleset(ref)
        assert "SECRET" not in info.value.render()
        assert _located(info) == (*where, f"{secret} is not a ruleset file: {why}", "not-ruleset")
    with pytest.raises(UserError) as info:
        load_ruleset(f"basic+{secret}")
    assert _located(info) == ("secret.txt", *at, f"{secret} is not an option file: {why}", "not-option")


def test_a_ruleset_with_a_typo_still_gets_its_located_yaml_error(tmp_path: Path) -> None:
    # Shape only hides errors of files that are no ruleset: this one has `tiles:`.
    path = tmp_path / "typo.yaml"
    path.write_text("name: typo\nextends: basic\ntiles: {A: {count: 1]\n")
    with pytest.raises(UserError) as info:
        load_ruleset(str(path))
    found = info.value.diagnostics[0]
    assert (Path(found.file).name, found.line, found.code) == ("typo.yaml", 3, "yaml-syntax")


def test_a_record_naming_a_fifo_or_a_secret_is_refused_at_its_ruleset_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    game = tmp_path / "game.json"
    subprocess.run([sys.executable, "-m", "engine.cli", "play", "-s", "2", "-q", "--record", str(game)], check=True,
                   capture_output=True)
    data = json.loads(game.read_text())
    fifo = _fifo(tmp_path)
    (tmp_path / "secret.txt").write_text(SHADOW)
    shadow = (f"{tmp_path / 'secret.txt'} is not a ruleset file: it has none of the keys of a ruleset (features "
              "and tiles, or extends) or of an option (patch)")
    for ref, message, code in ((str(fifo), f"cannot read {fifo}: not a regular file (a named pipe)", "io"),
                               ("secret.txt", shadow, "not-ruleset")):
        game.write_text(json.dumps({**data, "ruleset": ref}, indent=1))
        with pytest.raises(UserError) as info:
            replay(load_record(game))
        assert _located(info) == ("game.json", 4, 14, message, code)
        assert "SECRET" not in info.value.render()


def test_a_scenario_naming_a_fifo_is_refused_at_its_rulesets_line(tmp_path: Path) -> None:
    fifo = _fifo(tmp_path)
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"rulesets: [basic, {fifo}]\nplayers: [A, B]\nturns: []\n")
    with pytest.raises(UserError) as info:
        run_scenario(load_scenario(scenario))
    assert _located(info) == ("s.yaml", 1, 19, f"cannot read {fifo}: not a regular file (a named pipe)", "io")


def test_a_file_that_is_no_ruleset_has_the_documented_shape_on_the_command_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    latin1 = tmp_path / "latin1.yaml"
    latin1.write_bytes(b"name: x\nSECRET caf\xe9\n")  # the first byte that is not UTF-8: line 2, column 11
    done = subprocess.run([sys.executable, "-m", "engine.cli", "rulesets", "validate", str(latin1)],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == f"{latin1}:2:11: error: {latin1} is not a ruleset file: it is not UTF-8 text [not-ruleset]\n"
