"""Where the time goes: the engine's functions by their share of a workload, sampled by perf.

    python benchmarks/perf_profile.py                      # print the tables
    python benchmarks/perf_profile.py --json FILE          # and write them (with machine, date, commit)

Each workload of benchmarks/workloads.py (random games, greedy games, ``mcts:100`` moves
at turn 30 of 2-player ``basic``) runs in its own process under ``perf record --call-graph
dwarf`` (stacks unwound from their debug information: the compiled modules keep no frame
pointers, so ``-g`` would credit each function with its own time only);
``perf report --children`` then gives each function's *inclusive* share: the time spent in
it and in what it calls, as a percentage of all the process's samples (start-up and warm-up
included: loading ``basic`` and one game of each kind, a few per cent of the whole).  Only
the engine's functions are kept (mypyc names them ``CPyDef_<module>___<function>``; in the
pure build the interpreter hides them, so this is for the compiled build).  Needs Linux
``perf`` (Debian: ``apt-get install linux-perf``) and permission to sample
(``/proc/sys/kernel/perf_event_paranoid`` at most 2).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from provenance import command_line, provenance

#: What each profiled process runs after a warm-up: the workload and how many times.
WORKLOADS = {
    "random basic, 2000 games": "for seed in range(2000): play(basic, 'random', seed)",
    "greedy basic, 100 games": "for seed in range(100): play(basic, 'greedy', seed)",
    "mcts:100, 40 moves at turn 30": "for _ in range(40): search_move(position)",
}
SETUP = ("import sys; sys.path.insert(0, {here!r})\n"
         "from engine.rules.ruleset import load_ruleset\n"
         "from workloads import play, search_move, search_position\n"
         "basic = load_ruleset('basic'); play(basic, 'random', 0); play(basic, 'greedy', 0)\n"
         "position = search_position(basic)\n")
#: Functions shown per workload: the largest inclusive shares.
TOP = 25
_ROW = re.compile(r"^\s+([\d.]+)%\s+([\d.]+)%\s+\[\.\]\s+(\S+)")


def profile(code: str) -> list[dict]:
    """``[{"function", "inclusive", "self"}, …]`` (percent of samples) for ``code`` under perf."""
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "perf.data"
        script = SETUP.format(here=str(Path(__file__).parent)) + code
        subprocess.run(["perf", "record", "-F", "499", "--call-graph", "dwarf", "-o", str(data), sys.executable, "-c",
                        script],
                       check=True, capture_output=True)
        report = subprocess.run(["perf", "report", "-i", str(data), "--children", "--sort", "symbol", "--stdio",
                                 "-g", "none"], check=True, capture_output=True, text=True).stdout
    rows = []
    for line in report.splitlines():
        match = _ROW.match(line)
        if match and match.group(3).startswith("CPyDef_"):
            name = match.group(3).removeprefix("CPyDef_").replace("___", ".")
            rows.append({"function": name, "inclusive": float(match.group(1)), "self": float(match.group(2))})
    return sorted(rows, key=lambda row: -row["inclusive"])[:TOP]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", type=Path, help="write the tables here as JSON")
    args = parser.parse_args()
    tables = {}
    for name, code in WORKLOADS.items():
        tables[name] = profile(code)
        print(f"\n{name}: inclusive % / self %")
        for row in tables[name]:
            print(f"  {row['inclusive']:5.1f} {row['self']:5.1f}  {row['function']}")
    if args.json:
        args.json.write_text(json.dumps({**provenance(command_line()), "workloads": tables}, indent=1) + "\n")


if __name__ == "__main__":
    main()
