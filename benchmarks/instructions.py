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
random-game target: at most 1.5× basic's).  Last comes a *reference*: fixed interpreted work
that reads nothing of the engine (:func:`reference_work`), counted in the same run.
Hash randomisation is off (``PYTHONHASHSEED=0``) so that the counts repeat exactly.

``--check`` never passes without comparing (issue 51): under the Python that made the file
(``sys.version`` equal) it compares the counts themselves; under another one, each count as a
multiple of the reference's (an interpreter that is faster or slower at everything moves both
alike).  A file for the other build, or one without a reference count, fails.  Needs valgrind
(Debian: ``apt-get install valgrind``); under it the whole run takes about a minute.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from provenance import command_line, provenance
from pure_build import rerun_pure

from engine.build_info import PURE

RANDOM_GAMES = 10
#: Per-game or per-move counts: the workload's count divided by this.
#: The richer rulesets whose random games are counted after basic's workloads, in order.
RICHER = ["basic+abbey-and-mayor", "basic+king-and-robber-baron"]
WORKLOADS = {"random basic, a game": RANDOM_GAMES, "greedy basic, a game": 1, "mcts:100, one move at turn 30": 1,
             **{f"random {ref.removeprefix('basic+')}, a game": RANDOM_GAMES for ref in RICHER}}
#: ``--check`` fails on a count this much above the recorded one.
TOLERANCE = 1.10
#: The reference's name among the counts (:func:`reference_work`).
REFERENCE = "reference (no engine)"


def reference_work() -> int:
    """Fixed interpreted work that reads nothing of the engine, for :func:`check` to normalise by
    under another interpreter: union-find over 4,096 cells joined by 5,000 seeded random pairs,
    with a dict of the pairs seen and list appends (the operations the engine's pure code spends
    its time on).  Returns the number of distinct pairs (so nothing of it is dead)."""
    rng = random.Random(0)
    parent = list(range(4096))
    seen: dict[tuple[int, int], int] = {}
    order: list[int] = []
    for _ in range(5_000):
        a, b = rng.randrange(4096), rng.randrange(4096)
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        if a != b:
            parent[a] = b
            order.append(a)
        seen[a, b] = seen.get((a, b), 0) + 1
    return len(seen) + len(order)


def _counted() -> None:
    """The process valgrind counts: warm-up, then each workload between two markers, then the
    reference."""
    from workloads import play, search_move, search_position

    from engine.rules.ruleset import load_ruleset

    basic = load_ruleset("basic")
    richer = [load_ruleset(ref) for ref in RICHER]
    play(basic, "random", 0)
    play(basic, "greedy", 0)
    for ruleset in richer:
        play(ruleset, "random", 0)
    position = search_position(basic)
    search_move(position)
    reference_work()
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
    reference_work()
    time.sleep(0)


def count() -> dict[str, int]:
    """Run :func:`_counted` under callgrind; instructions per game or move, by workload name, then
    the reference's (:data:`REFERENCE`).  ``SystemExit`` with a message when valgrind is missing
    or fails."""
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
    # Part 1 is start-up and warm-up; parts 2.. are the workloads in order, then the reference.
    counts = [parts[k] for k in sorted(parts)[1:2 + len(WORKLOADS)]]
    per_part = [*WORKLOADS.items(), (REFERENCE, 1)]
    return {name: round(n / per) for (name, per), n in zip(per_part, counts, strict=True)}


def _have_valgrind() -> bool:
    try:
        return subprocess.run(["valgrind", "--version"], capture_output=True).returncode == 0
    except OSError:
        return False


def check(counts: dict[str, int], recorded_path: Path, version: str = sys.version) -> int:
    """0 if no workload's count exceeds the recorded one by more than :data:`TOLERANCE`, else 1.
    ``counts`` as :func:`count` gives them (the reference included), ``version`` the interpreter's
    ``sys.version``.  Under the interpreter that made the file the counts are compared as they
    are; under another, each as a multiple of the reference counted in the same run (the
    recorded one likewise), and it says so.  A file for the other build or without a reference
    count fails: nothing passes uncompared."""
    recorded = json.loads(recorded_path.read_text())
    here = provenance("")
    if recorded["engine"] != here["engine"]:
        print(f"FAIL: {recorded_path} was counted on the {recorded['engine']} build, this is {here['engine']}")
        return 1
    was_reference, reference = recorded["instructions"].get(REFERENCE), counts.get(REFERENCE)
    same_python = recorded["python"] == version
    if not same_python and not (was_reference and reference):
        print(f"FAIL: {recorded_path} was counted under Python {recorded['python']!r}, this is {version!r}, and "
              f"it holds no reference count to compare by: record it again here (--json)")
        return 1
    if not same_python:
        print(f"counts as multiples of the reference: {recorded_path} was counted under Python "
              f"{recorded['python']!r}, this is {version!r} (reference {reference:,}, recorded {was_reference:,})")
    failed = 0
    for name, n in counts.items():
        was = recorded["instructions"].get(name)
        if name == REFERENCE:
            continue
        if was is None:
            print(f"{name:<40}{n:>14,} instructions FAIL: not in {recorded_path}; record it again (--json)")
            failed = 1
            continue
        ratio = n / was if same_python else (n / reference) / (was / was_reference)
        verdict = "ok" if ratio <= TOLERANCE else f"FAIL: over {TOLERANCE:.0%} of the recorded count"
        failed |= ratio > TOLERANCE
        print(f"{name:<40}{n:>14,} instructions (recorded {was:,}, {ratio:.3f}x) {verdict}")
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
