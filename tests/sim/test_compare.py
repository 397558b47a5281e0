"""simulate, compare and rescore: exit codes, key output, JSON content, and the same
results on one worker, two workers and a Dask cluster."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=600)


def test_simulate_streams_one_line_per_game(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = run("simulate", "basic", "--games", "20", "--seed", "3", "--workers", "1", "--out", str(out))
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 20 and len({r["seed"] for r in rows}) == 20
    for row in rows:
        assert sum(sum(k.values()) for k in row["by_kind"]) == sum(row["scores"])
        assert set(row) >= {"seed", "scores", "by_kind", "winners", "discarded", "turns"}
    assert "seat 1 (random) score" in result.stdout


def test_compare_is_identical_on_one_and_two_workers_and_dask(tmp_path: Path) -> None:
    outputs = []
    for extra in (["--workers", "1"], ["--workers", "2"]):
        target = tmp_path / f"c{len(outputs)}.json"
        result = run("compare", "basic", "first-edition", "--games", "120", "--seed", "5", "--json", str(target),
                     *extra)
        assert result.returncode == 0, result.stderr
        outputs.append(target.read_bytes())
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        target = tmp_path / "dask.json"
        result = run("compare", "basic", "first-edition", "--games", "120", "--seed", "5", "--json", str(target),
                     "--scheduler", cluster.scheduler_address)
        assert result.returncode == 0, result.stderr
        outputs.append(target.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]
    data = json.loads(outputs[0])
    assert set(data["rulesets"]) == {"basic", "first-edition"}
    assert data["rulesets"]["basic"]["games"] == 120
    (difference,) = data["differences"]
    assert difference["from"] == "basic" and difference["to"] == "first-edition"
    # With random bots the moves are the same under both rulesets; only farm and city scoring differ.
    assert difference["points_by_kind_difference"]["road"]["mean"] == 0
    assert difference["points_by_kind_difference"]["field"]["mean"] != 0


def test_compare_writes_a_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    figure = tmp_path / "farms.png"
    result = run("compare", "basic", "second-edition", "--games", "20", "--workers", "1", "--plot", str(figure))
    assert result.returncode == 0, result.stderr
    assert figure.read_bytes()[:4] == b"\x89PNG"


def test_the_plot_draws_the_paired_differences_with_their_intervals(tmp_path: Path) -> None:
    """Issue 50: the figure was three overlapping score histograms; it is the paired differences,
    a row per measure and ruleset, each with its interval, against a line at 0."""
    pytest.importorskip("matplotlib")
    figure = tmp_path / "farms.svg"
    result = run("compare", "basic", "first-edition", "second-edition", "--games", "20", "--workers", "1", "--plot",
                 str(figure))
    assert result.returncode == 0, result.stderr
    text = figure.read_text()
    assert "mean paired difference from basic" in text and "first-edition minus basic" in text
    for label in ("seat 1 score (first-edition)", "field points (second-edition)", "city points (first-edition)"):
        assert f">{label}<" in text
    assert "player-games" not in text  # the histogram's axis


def test_rescore_under_first_edition_changes_only_farms_and_tiny_cities(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    assert run("play", "--players", "greedy,greedy", "--seed", "12", "--quiet", "--record", str(record)).returncode == 0
    from engine.files.record import load_record
    from engine.sim.rescore import differing_events, rescore

    base, first = rescore(load_record(record), ["first-edition"])
    changes = differing_events(base, first)
    assert changes
    for before, after in changes:
        event = before or after
        tiny = event["kind"] == "city" and event["inputs"]["tiles"] == 2 and event["rule"] == "complete"
        assert event["kind"] == "field" or tiny, event
    result = run("rescore", str(record), "--ruleset", "first-edition", "--ruleset", "second-edition")
    assert result.returncode == 0, result.stderr
    assert "first-edition" in result.stdout and "differ from basic" in result.stdout


def test_rescore_stops_a_column_at_an_illegal_move(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    assert run("play", "-r", "basic+own-follower-may-join", "-p", "random,random", "-s", "2", "-q",
               "--record", str(record)).returncode == 0
    data = json.loads(record.read_text())
    # Find a turn that joined the player's own follower: basic refuses it.
    result = run("rescore", str(record), "--ruleset", "basic")
    assert result.returncode == 0, result.stderr
    if any("follower" in t for t in data["turns"]):
        assert "stops at turn" in result.stdout or "0 score event(s) differ" in result.stdout


@pytest.mark.parametrize("args, message", [
    (("simulate", "no-such", "--games", "5"), "unknown ruleset"),
    (("simulate", "basic", "--games", "0"), "--games"),
    (("compare", "basic", "first-edition", "--games", "5", "--scheduler", "tcp://127.0.0.1:9"), "cannot reach"),
    (("compare", "basic", "--games", "5"), "at least two"),
    (("rescore", "nowhere.json", "--ruleset", "basic"), "cannot read"),
    (("compare", "basic", "first-edition", "--games", "5", "--plot", "figure.txt"), ".png, .svg or .pdf"),
    (("simulate", "basic", "--games", "5", "--scheduler", "nonsense"), "scheduler address"),
])
def test_bad_input_is_an_error_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert message in result.stderr and "Traceback" not in result.stderr


def test_rescore_refuses_a_record_its_own_ruleset_refuses(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    assert run("play", "-p", "random,random", "-s", "4", "-q", "--record", str(record)).returncode == 0
    data = json.loads(record.read_text())
    data["turns"][5]["tile"] = "ZZ"
    record.write_text(json.dumps(data, indent=1))
    result = run("rescore", str(record), "--ruleset", "first-edition")
    assert result.returncode == 2
    assert result.stderr.startswith(f"{record}:") and "tile 'ZZ'" in result.stderr


def test_rescore_refuses_a_record_that_says_it_finished_but_stops_early(tmp_path: Path) -> None:
    """Found by a newcomer's try: cut to 40 turns, the finished scores kept, ``replay`` refused the
    record but ``rescore`` scored the stub with exit 0.  Both now refuse it the same way."""
    record = tmp_path / "g.json"
    assert run("play", "-r", "basic+abbey-and-mayor", "-p", "random,greedy", "-s", "1", "-q",
               "--record", str(record)).returncode == 0
    data = json.loads(record.read_text())
    data["turns"] = data["turns"][:40]
    record.write_text(json.dumps(data, indent=1))
    for args in (("replay", str(record)), ("rescore", str(record), "--ruleset", "basic")):
        result = run(*args)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert result.stderr.startswith(f"{record}:") and "says the game finished, but it stops after turn 40" \
            in result.stderr, (args, result.stderr)
    data["finished"] = False  # a game cut short on purpose: rescored as far as it went
    record.write_text(json.dumps(data, indent=1))
    assert run("rescore", str(record), "--ruleset", "basic").returncode == 0


def test_rescore_says_where_the_record_names_an_unknown_option(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    assert run("play", "-p", "random,random", "-s", "4", "-q", "--record", str(record)).returncode == 0
    data = json.loads(record.read_text())
    data["ruleset"] = "basic+nope"
    record.write_text(json.dumps(data, indent=1))
    result = run("rescore", str(record), "--ruleset", "first-edition")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"{record}:") and "unknown option 'nope'" in result.stderr, result.stderr


def test_game_seeds_are_drawn_chunk_by_chunk_and_are_the_same_as_before() -> None:
    import itertools
    import random

    from engine.sim.simulate import CHUNK, Job

    rng = random.Random(12)
    before = [rng.getrandbits(32) for _ in range(2 * CHUNK + 7)]  # how seeds were drawn, all at once
    job = Job(("basic",), ("random", "random"), 12, 2 * CHUNK + 7)
    chunks = list(job.chunks())
    assert [len(c) for c in chunks] == [CHUNK, CHUNK, 7]
    assert [seed for chunk in chunks for seed in chunk] == before
    assert before[:3] == [2038265566, 1155324522, 2823822892]  # pinned: results of old runs stay reproducible
    # A billion games cost nothing until they are played: the first chunk comes at once.
    assert len(next(itertools.islice(Job(("basic",), ("random",), 0, 10**9).chunks(), 1))) == CHUNK


def test_search_players_games_go_to_every_worker_from_the_first() -> None:
    """Eight search games on two workers: one game a chunk (not one chunk of eight in one process),
    and the same results as on one worker."""
    from engine.cli.sim_commands import _job
    from engine.sim.simulate import CHUNK, run

    slow, _ = _job(["basic"], "mcts:5,greedy", 3, 8, 2)
    assert slow.chunk == 1 and _job(["basic"], "random,random", 3, 8, 2)[0].chunk == CHUNK
    assert list(run(slow, workers=2)) == list(run(slow, workers=1))
