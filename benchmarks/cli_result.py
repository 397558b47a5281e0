"""Run one ``carcassonne`` command and keep what its ``--json`` gives as a result file.

The figures of a study in docs/ (docs/study-planning.md) are the output of a
command a reader can type; this keeps that output in benchmarks/results/ with
the header every result file carries (benchmarks/provenance.py: command,
machine, date, commit, build) and the command's wall time in seconds::

    python benchmarks/cli_result.py benchmarks/results/study-planning-greedy.json -- \\
        compare basic first-edition second-edition --games 2000 --players greedy,greedy --seed 1

Everything after ``--`` is the command, without ``carcassonne`` and without
``--json`` (added here).  The result is ``{"provenance": {...}, "seconds":
wall time, "output": the command's JSON document}``; nothing is written when the
command fails (its exit code is passed on).
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from provenance import provenance  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("result", type=Path, help="the result file to write (JSON)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the carcassonne command and its options")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the carcassonne command after --")
    typed = "carcassonne " + shlex.join(command)
    origin = provenance(f"python benchmarks/cli_result.py {args.result} -- {shlex.join(command)}")
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / "output.json"
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "engine.cli", *command, "--json", str(output)])
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            print(f"{typed} exited {done.returncode}; nothing written", file=sys.stderr)
            return done.returncode
        document = json.loads(output.read_text())
    args.result.write_text(json.dumps({"provenance": origin, "seconds": round(seconds, 1), "output": document},
                                      indent=1) + "\n")
    print(f"{typed}: {seconds:.0f} s; written to {args.result}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
