"""The start-up cache: it only ever saves time, whatever state its folder is in."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.resources import rulesets_dir
from engine.rules import build_cache
from engine.rules.build_cache import cache_dir, cache_key, cached, cached_code

ROOT = rulesets_dir().parent


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("CARCASSONNE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_builds_once_then_reads(folder):
    builds = []

    def build() -> bytes:
        builds.append(1)
        return b"payload"

    assert cached("thing", "k1", build, bytes.decode) == "payload"
    assert cached("thing", "k1", build, bytes.decode) == "payload"
    assert len(builds) == 1
    assert [p.name for p in folder.iterdir()] == ["thing-k1.bin"]  # no temporary file left behind


def test_a_damaged_file_is_not_decoded_but_built_again(folder):
    folder.mkdir()
    (folder / "thing-k1.bin").write_bytes(b"\x00" * 40 + b"garbage")
    decoded = []

    def decode(data: bytes) -> str:
        decoded.append(data)
        return data.decode()

    assert cached("thing", "k1", lambda: b"good", decode) == "good"
    assert decoded == [b"good"]  # the damaged bytes never reached decode
    assert cached("thing", "k1", lambda: b"other", decode) == "good"  # the fresh file is read back


def test_a_folder_where_the_file_goes_leaves_no_temporary_files(folder):
    (folder / "thing-k1.bin").mkdir(parents=True)
    for _ in range(3):
        assert cached("thing", "k1", lambda: b"x", bytes.decode) == "x"
    assert [p.name for p in folder.iterdir()] == ["thing-k1.bin"]


def test_a_file_that_does_not_decode_is_built_again_and_replaced(folder):
    import hashlib

    folder.mkdir()
    (folder / "thing-k1.bin").write_bytes(hashlib.sha256(b"\x00garbage").digest() + b"\x00garbage")

    def decode(data: bytes) -> str:
        if not data.startswith(b"good"):
            raise ValueError("stale")
        return data.decode()

    assert cached("thing", "k1", lambda: b"good", decode) == "good"
    assert (folder / "thing-k1.bin").read_bytes()[32:] == b"good"


def test_no_folder_means_no_cache_but_the_same_result(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("CARCASSONNE_CACHE_DIR", str(blocker / "cache"))
    assert cache_dir() is None
    assert cached("thing", "k1", lambda: b"x", bytes.decode) == "x"
    code = cached_code("mod", "k1", lambda: "answer = 6 * 7\n")
    namespace: dict = {}
    exec(code, namespace)
    assert namespace["answer"] == 42


def test_the_key_depends_on_every_part_and_the_python():
    assert cache_key("a", "b") != cache_key("a", "c")
    assert cache_key("ab") != cache_key("a", "b")
    assert cache_key("a") == cache_key("a")


def test_a_bytecode_file_of_another_kind_is_rebuilt(folder):
    folder.mkdir()
    import hashlib
    import marshal

    data = marshal.dumps([1, 2, 3])  # valid marshal, not code
    (folder / "mod-k1.bin").write_bytes(hashlib.sha256(data).digest() + data)
    namespace: dict = {}
    exec(cached_code("mod", "k1", lambda: "x = 1\n"), namespace)
    assert namespace["x"] == 1


def test_cached_parser_and_schema_checker_behave_as_fresh_ones(folder):
    """A second process reads both from the cache and still parses, accepts and refuses alike."""
    script = (
        "from engine.rules.formula_syntax import Source, parse\n"
        "from engine.rules.validate import _quickly_valid\n"
        "import yaml\n"
        "print(parse(Source('2 * tiles + max(pennants, 3)', None, 1, 1, None)).pretty().split())\n"
        "basic = yaml.safe_load(open('rulesets/basic.yaml'))\n"
        "print(_quickly_valid(basic, 'ruleset'), _quickly_valid({'name': 'x'}, 'ruleset'))\n"
    )
    env = {"CARCASSONNE_CACHE_DIR": str(folder), "PATH": ""}
    first = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True,
                           cwd=ROOT)
    assert sorted(p.name.split("-")[0] for p in folder.iterdir()) == ["formula", "ruleset"]
    second = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True,
                            cwd=ROOT)
    assert first.stdout == second.stdout
    assert first.stdout.splitlines()[1] == "True False"
    assert "tiles" in first.stdout


def test_the_module_names_its_folder_from_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("CARCASSONNE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert build_cache.cache_dir() == tmp_path / "carcassonne-rules"
