"""Run one ``carcassonne`` command and keep what its ``--json`` gives as a result file.

The figures of a study in docs/ (docs/study-planning.md) are the output of a
command a reader can type; this keeps that output in benchmarks/results/ with
the header every result file carries (benchmarks/provenance.py: command,
machine, date, commit, build) and the command's wall time in seconds::

    python benchmarks/cli_result.py benchmarks/results/study-planning-greedy.json -- \\
        compare basic first-edition second-edition --games 2000 --players greedy,greedy --seed 1

Everything after ``--`` is the command, without ``carcassonne`` and without
``--json`` (added here: the command prints its JSON instead of its tables).  The
result is ``{"provenance": {...}, "seconds": wall time, "output": the command's
JSON document}``; nothing is written when the command fails (its exit code is
passed on), nor when the engine Python imports is not this checkout's (whose
commit the result would name).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from provenance import provenance  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("result", type=Path, help="the result file to write (JSON)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the carcassonne command and its options")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the carcassonne command after --")
    if "--json" in command or any(word.startswith("--json=") for word in command):
        parser.error("leave --json out of the command: its output is what the result file keeps")
    folder = args.result.resolve().parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        parser.error(f"cannot write {args.result}: {folder} is not a folder this user may write in")
    # -P: the engine this checkout installed, not a checkout in the current folder, is the
    # one whose commit the result names.
    python = [sys.executable, "-P"]
    imported = subprocess.run([*python, "-c", "import engine; print(engine.__file__)"], capture_output=True,
                              text=True).stdout.strip()
    if not imported or ROOT not in Path(imported).resolve().parents:
        parser.error(f"python imports the engine from {imported or 'nowhere'}, not from {ROOT}: install this "
                     "checkout (pip install -e .) so the result's commit is the engine that ran")
    typed = "carcassonne " + shlex.join(command)
    origin = provenance(f"python benchmarks/cli_result.py {args.result} -- {shlex.join(command)}")
    start = time.perf_counter()
    done = subprocess.run([*python, "-m", "engine.cli", *command, "--json", "-"], stdout=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        print(f"{typed} exited {done.returncode}; nothing written", file=sys.stderr)
        return done.returncode
    document = json.loads(done.stdout)
    args.result.write_text(json.dumps({"provenance": origin, "seconds": round(seconds, 1), "output": document},
                                      indent=1) + "\n")
    print(f"{typed}: {seconds:.1f} s; written to {args.result}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
