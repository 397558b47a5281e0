"""What composing options costs at load time: median cold load of composed references.

    python benchmarks/compose.py [--runs 20] [--out benchmarks/results/compose.json]

Loading a reference reads, merges, orders and checks its options (clashes,
``previous`` chains, the written-out formulas and their hash), then
schema-checks and compiles the ruleset.  Each figure is the median of
``--runs`` cold loads (the YAML and ruleset caches cleared) in one process, so
it does not include the interpreter's start-up; the loads of each reference
alternate round by round, so drift spreads over all of them.  The result file
records the machine, the date and the commit beside the figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import time
from datetime import datetime, timezone
from pathlib import Path

from engine.rules.ruleset import load_ruleset
from engine.rules.source import clear_yaml_cache

REFS = [
    "basic",
    "basic+tiny-city",
    "first-edition+inns-and-cathedrals+tiny-city",
    "basic+farms-pay-cloisters+traders-and-builders",
    "first-edition+river+inns-and-cathedrals+traders-and-builders+farms-pay-cloisters+tiny-city+longest-road-bonus",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args()
    times: dict[str, list[float]] = {ref: [] for ref in REFS}
    for _ in range(args.runs):
        for ref in REFS:
            clear_yaml_cache()
            start = time.perf_counter()
            load_ruleset(ref, cache=False)
            times[ref].append((time.perf_counter() - start) * 1000)
    print(f"{'reference':<112}{'median ms':>10}")
    for ref in REFS:
        print(f"{ref:<112}{statistics.median(times[ref]):>10.1f}")
    if args.out:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=Path(__file__).parent).stdout.strip()
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({
            "command": f"python benchmarks/compose.py --runs {args.runs}",
            "machine": f"{platform.machine()}, {platform.processor() or platform.system()}, "
                       f"Python {platform.python_version()}",
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "commit": commit,
            "median_ms": {ref: round(statistics.median(times[ref]), 2) for ref in REFS},
        }, indent=1) + "\n")


if __name__ == "__main__":
    main()
