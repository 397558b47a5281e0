"""The diagnostics corpus: every file in tests/rulesets/invalid reports exactly its expected problems.

Each invalid file starts with header comments naming every diagnostic it must
produce, one per line::

    # expect: LINE:COL CODE
    # expect: LINE:COL CODE | substring of the message
    # expect: OTHERFILE:LINE:COL CODE          (a problem located in another file)

LINE and COL are 1-based positions in the file itself (or in OTHERFILE, named
relative to the invalid/ folder; only its base name is compared).  The test
runs the function behind ``carcassonne rulesets validate`` on each file and
compares the set of ``(file name, line, col, code)`` of the diagnostics with
the expectations, and checks each message substring.  Every file in
tests/rulesets/valid must validate.

Known engine bugs stay visible as strict xfails (``KNOWN_BUGS``): the file's
expectations say what a user would expect, so the case starts passing (and the
strict xfail fails) as soon as the engine is fixed; then drop the entry.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import Diagnostic, UserError
from engine.rules.inspect import validate_file

CORPUS = Path(__file__).parents[1] / "rulesets"
INVALID = sorted((CORPUS / "invalid").glob("*.yaml"))
VALID = sorted((CORPUS / "valid").glob("*.yaml"))

EXPECT = re.compile(r"^#\s*expect:\s*(?:(?P<file>[^\s:]+):)?(?P<line>\d+):(?P<col>\d+)\s+(?P<code>[a-z0-9-]+)"
                    r"(?:\s+\|\s+(?P<message>.+?))?\s*$")
DIAGNOSTIC_LINE = re.compile(r"^[^:]+:\d+:\d+: error: .* \[[a-z0-9-]+\]$")

#: Invalid files whose expectations the engine does not meet yet (file name -> why).
KNOWN_BUGS: dict[str, str] = {}



def expectations(path: Path) -> tuple[set[tuple[str, int, int, str]], list[tuple[tuple[str, int, int, str], str]]]:
    """The ``(file name, line, col, code)`` set and the message substrings a file's header expects."""
    expected: set[tuple[str, int, int, str]] = set()
    messages: list[tuple[tuple[str, int, int, str], str]] = []
    for text in path.read_text(encoding="utf-8").splitlines():
        if not re.match(r"^#\s*expect\b", text):
            continue
        match = EXPECT.match(text)
        assert match, f"{path.name}: malformed expectation line: {text!r}"
        key = (Path(match["file"]).name if match["file"] else path.name,
               int(match["line"]), int(match["col"]), match["code"])
        expected.add(key)
        if match["message"]:
            messages.append((key, match["message"]))
    return expected, messages


def key(diagnostic: Diagnostic) -> tuple[str | None, int | None, int | None, str | None]:
    return (Path(diagnostic.file).name if diagnostic.file else None, diagnostic.line, diagnostic.col,
            diagnostic.code)


def diagnostics_of(path: Path) -> list[Diagnostic]:
    """What ``carcassonne rulesets validate PATH`` reports for one file (empty if it is valid)."""
    try:
        validate_file(path)
    except UserError as error:
        return error.diagnostics
    return []


def invalid_params() -> list:
    return [pytest.param(path, id=path.name,
                         marks=[pytest.mark.xfail(reason=KNOWN_BUGS[path.name], strict=True)]
                         if path.name in KNOWN_BUGS else [])
            for path in INVALID]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True, timeout=300)


def test_corpus_is_large_enough() -> None:
    assert len(INVALID) >= 40
    assert len(VALID) >= 6


def test_known_bugs_name_real_files() -> None:
    names = {path.name for path in INVALID}
    assert set(KNOWN_BUGS) <= names


@pytest.mark.parametrize("path", invalid_params())
def test_invalid_file_reports_exactly_its_expectations(path: Path) -> None:
    expected, messages = expectations(path)
    assert expected, f"{path.name} has no '# expect:' lines"
    found = diagnostics_of(path)
    assert found, f"{path.name} validated without errors"
    rendered = "\n".join(d.render() for d in found)
    assert {key(d) for d in found} == expected, rendered
    for where, substring in messages:
        texts = [d.message for d in found if key(d) == where]
        assert any(substring in text for text in texts), f"{where}: no message contains {substring!r}: {texts}"


def test_cli_reports_every_invalid_file_in_the_documented_format() -> None:
    result = run_cli("rulesets", "validate", *map(str, INVALID))
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert not result.stdout.strip(), f"some invalid files validated:\n{result.stdout}"
    # A diagnostic starts a line; extra snippet lines (a formula and its caret) are indented.
    starts = [line for line in result.stderr.splitlines() if line and not line[0].isspace()]
    bad = [line for line in starts if not DIAGNOSTIC_LINE.match(line)]
    assert not bad, "\n".join(bad)
    # One line per diagnostic: the CLI shows everything validate_file found.
    assert len(starts) == sum(len(diagnostics_of(path)) for path in INVALID)


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_file_validates(path: Path) -> None:
    assert not any(line.startswith("# expect") for line in path.read_text(encoding="utf-8").splitlines())
    ruleset = validate_file(path)
    assert ruleset.tiles


def test_cli_accepts_every_valid_file() -> None:
    result = run_cli("rulesets", "validate", *map(str, VALID))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("ok ") == len(VALID)
    assert not result.stderr
