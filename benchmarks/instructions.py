"""Instructions the engine executes per workload, counted by valgrind (callgrind): the
figure that does not drift with the machine's speed.

    python benchmarks/instructions.py                     # print the counts
    python benchmarks/instructions.py --json FILE         # and write them (with machine, date, commit)
    python benchmarks/instructions.py --check FILE        # exit 1 if any count grew by over 10 %
    python benchmarks/instructions.py --pure --json FILE  # the pure Python build (a copy without the extensions)

The counted process loads ``basic``, plays one of each workload as a warm-up (fit
tables, caches, the formula closures), then runs each workload between two calls of
``time.sleep(0)``; callgrind dumps its counters on entering ``time_sleep``, so each part
holds one workload and nothing of start-up or warm-up.  Workloads (benchmarks/workloads.py):
10 random games and 1 greedy game of 2-player ``basic``, one ``mcts:100`` move at turn 30, and
10 random games each of ``basic+abbey-and-mayor`` and ``basic+king-and-robber-baron`` (issue 48's
random-game target: at most 1.5× basic's).
Hash randomisation is off (``PYTHONHASHSEED=0``) so that the counts repeat exactly.  Counts
depend on the interpreter, so ``--check`` compares only against a file made with the same
Python version and build, and says so when it cannot.  Needs valgrind (Debian: ``apt-get
install valgrind``); under it the whole run takes about a minute.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.build_info import PURE
from provenance import command_line, provenance
from pure_build import rerun_pure

RANDOM_GAMES = 10
#: Per-game or per-move counts: the workload's count divided by this.
#: The richer rulesets whose random games are counted after basic's workloads, in order.
RICHER = ["basic+abbey-and-mayor", "basic+king-and-robber-baron"]
WORKLOADS = {"random basic, a game": RANDOM_GAMES, "greedy basic, a game": 1, "mcts:100, one move at turn 30": 1,
             **{f"random {ref.removeprefix('basic+')}, a game": RANDOM_GAMES for ref in RICHER}}
#: ``--check`` fails on a count this much above the recorded one.
TOLERANCE = 1.10


def _counted() -> None:
    """The process valgrind counts: warm-up, then each workload between two markers."""
    from engine.rules.ruleset import load_ruleset
    from workloads import play, search_move, search_position

    basic = load_ruleset("basic")
    richer = [load_ruleset(ref) for ref in RICHER]
    play(basic, "random", 0)
    play(basic, "greedy", 0)
    for ruleset in richer:
        play(ruleset, "random", 0)
    position = search_position(basic)
    search_move(position)
    time.sleep(0)
    for seed in range(1, RANDOM_GAMES + 1):
        play(basic, "random", seed)
    time.sleep(0)
    play(basic, "greedy", 1)
    time.sleep(0)
    search_move(position)
    time.sleep(0)
    for ruleset in richer:
        for seed in range(1, RANDOM_GAMES + 1):
            play(ruleset, "random", seed)
        time.sleep(0)


def count() -> dict[str, int]:
    """Run :func:`_counted` under callgrind; instructions per game or move, by workload name.
    ``SystemExit`` with a message when valgrind is missing or fails."""
    if not _have_valgrind():
        sys.exit("error: valgrind is not installed (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(["valgrind", "--tool=callgrind", "--dump-before=time_sleep",
                               f"--callgrind-out-file={out}", sys.executable, __file__, "--counted"],
                              env=env, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"error: the counted run failed:\n{done.stderr[-2000:]}")
        parts = {}
        for path in Path(folder).glob("callgrind.out.*"):
            fields = dict(line.split(": ", 1) for line in path.read_text().splitlines()
                          if line.startswith(("part: ", "summary: ")))
            parts[int(fields["part"])] = int(fields["summary"])
    # Part 1 is start-up and warm-up; parts 2.. are the workloads in order.
    counts = [parts[k] for k in sorted(parts)[1:1 + len(WORKLOADS)]]
    return {name: round(n / per) for (name, per), n in zip(WORKLOADS.items(), counts)}


def _have_valgrind() -> bool:
    try:
        return subprocess.run(["valgrind", "--version"], capture_output=True).returncode == 0
    except OSError:
        return False


def check(counts: dict[str, int], recorded_path: Path) -> int:
    """0 if no count exceeds the recorded one by more than :data:`TOLERANCE`, else 1; 0 with a
    note when the recorded file is for another interpreter or build."""
    recorded = json.loads(recorded_path.read_text())
    here = provenance("")
    if recorded["python"] != sys.version or recorded["engine"] != here["engine"]:
        print(f"instruction counts not compared: {recorded_path} was counted on {recorded['engine']} under "
              f"Python {recorded['python']!r}, this is {here['engine']} under {sys.version!r}")
        return 0
    failed = 0
    for name, n in counts.items():
        was = recorded["instructions"].get(name)
        if was is None:
            print(f"{name:<40}{n:>14,} instructions (not in {recorded_path}: not compared)")
            continue
        verdict = "ok" if n <= was * TOLERANCE else f"FAIL: over {TOLERANCE:.0%} of the recorded count"
        failed |= n > was * TOLERANCE
        print(f"{name:<40}{n:>14,} instructions (recorded {was:,}, {n / was:.3f}x) {verdict}")
    return int(failed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="write the counts here")
    parser.add_argument("--check", type=Path, help="compare with the counts in this file")
    parser.add_argument("--pure", action="store_true", help="count the pure Python build")
    parser.add_argument("--counted", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.pure and provenance("")["engine"] != PURE:
        rerun_pure("instructions.py", [a for a in sys.argv[1:] if a != "--pure"], ("--json", "--check"))
    if args.counted:
        _counted()
        return
    origin = provenance(command_line())
    counts = count()
    if args.check:
        sys.exit(check(counts, args.check))
    for name, n in counts.items():
        print(f"{name:<40}{n:>14,} instructions ({origin['engine']})")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({**origin, "python": sys.version, "instructions": counts}, indent=1) + "\n")


if __name__ == "__main__":
    main()
