"""Our tile types against JCloisterZone's tile data (issue 51).

``tests/rules/data/jcz_tiles.yaml`` transcribes, as facts, the tile definitions of every
JCloisterZone tile set we ship (farin/JCloisterZone at 3eb453cb). Each of our tile types is
turned into the same shape (its features with their sides, a farm's adjoining cities, a city's
shared sides, symbols, count) and compared with the JCZ tile the data file maps it to. Every
difference fails the test unless the data file's ``deliberate`` section lists it, word for word;
a listed difference that no longer occurs fails too, so a fixed tile's entry gets deleted.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.geometry import PORTS
from engine.rules.ruleset import Ruleset, load_ruleset
from engine.rules.tiles import TileType

DATA = Path(__file__).parent / "data" / "jcz_tiles.yaml"
SIDES = ("N", "E", "S", "W")
#: JCZ's locations of an enclosed farm (no side).
INNER = frozenset({"INNER_FARM", "INNER_FARM_B"})
#: Our kind names in JCZ's words.
JCZ_KIND = {"field": "farm"}
#: JCZ's symbol attributes as our attribute names (``resource`` names its own: wine, grain, cloth).
SYMBOL = {"pennant": "pennants", "inn": "inns", "cathedral": "cathedrals"}
#: Tiles in each JCZ set (Wikicarpedia's totals: base 72, River 12, I&C 18, T&B 24, A&M 12 land tiles,
#: the King & Robber Baron's 5, Hills & Sheep 18).
TOTALS = {"basic.xml": 72, "river.xml": 12, "inns_and_cathedrals.xml": 18, "traders_and_builders.xml": 24,
          "abbey_and_mayor.xml": 12, "king_and_robber_baron.xml": 5, "hills_and_sheep.xml": 18}

Locations = tuple[str, ...]


@dataclass(frozen=True, order=True)
class Fact:
    """One feature of a tile, in one orientation: what both sources are compared on."""

    kind: str
    at: Locations
    cities: tuple[Locations, ...] = ()
    shares: Locations = ()
    symbols: tuple[tuple[str, int], ...] = ()

    def __str__(self) -> str:
        words = [self.kind, bracket(self.at)]
        if self.cities:
            words.append("city " + show("cities", self.cities))
        if self.shares:
            words.append("shares " + show("shares", self.shares))
        if self.symbols:
            words.append(show("symbols", self.symbols))
        return " ".join(words)


@dataclass(frozen=True, order=True)
class Difference:
    """A difference between a JCZ tile and ours: ``jcz`` or ``ours`` is '' when one side has no tile."""

    file: str
    jcz: str
    ours: str
    text: str


def bracket(locations: Locations) -> str:
    """Locations as written in the data file's differences: ``[N W]``."""
    return "[" + " ".join(locations) + "]"


def show(field: str, value: Any) -> str:
    """One field of a :class:`Fact` in words: cities ``[E W][N]``, shares ``[N]``, symbols ``pennants 1``."""
    if field == "cities":
        return "".join(bracket(c) for c in value) or "none"
    if field == "shares":
        return bracket(value)
    return " ".join(f"{name} {n}" for name, n in value) or "none"


def ordered(locations: Any) -> Locations:
    """Sides or half-sides in clockwise port order from the north-west corner."""
    return tuple(sorted(locations, key=PORTS.index))


def turn(location: str, turns: int) -> str:
    """A side (``N``) or half-side (``NL``) turned ``turns`` quarter turns clockwise."""
    return SIDES[(SIDES.index(location[0]) + turns) % 4] + location[1:]


def turned(locations: Any, turns: int) -> Locations:
    """Locations turned ``turns`` quarter turns clockwise, in port order."""
    return ordered(turn(loc, turns) for loc in locations)


def jcz_facts(tile: dict[str, Any], turns: int = 0) -> Counter[Fact]:
    """A transcribed JCZ tile's features, turned ``turns`` quarter turns clockwise."""
    features = tile["features"]
    cities = [f["at"] for f in features if f["kind"] == "city"]
    facts: Counter[Fact] = Counter()
    for feature in features:
        at = [loc for loc in feature.get("at", []) if loc not in INNER]
        named = feature.get("city", [])
        # a side no city holds (a broken transcription) stands for itself, so the comparison reports it
        touched = {tuple(next((c for c in cities if side in c), [side])) for side in named}
        symbols = [(SYMBOL[k], int(v)) for k, v in feature.items() if k in SYMBOL]
        if "resource" in feature:
            symbols.append((feature["resource"], 1))
        shares = [feature["multi_edge"]] if "multi_edge" in feature else []
        facts[Fact(feature["kind"], turned(at, turns), tuple(sorted(turned(c, turns) for c in touched)),
                   turned(shares, turns), tuple(sorted(symbols)))] += 1
    return facts


def locations(ports_kind: str, ports: tuple[int, ...]) -> Locations:
    """Our segment's ports as JCZ locations: sides for side and centre kinds, half-sides for half kinds."""
    if ports_kind in ("side", "centre"):
        return ordered({SIDES[p // 3] for p in ports})
    return ordered(PORTS[p] for p in ports)


def our_facts(ruleset: Ruleset, tile: TileType) -> Counter[Fact]:
    """Our tile type's features in canonical orientation (rotation 0), in JCZ's words."""
    facts: Counter[Fact] = Counter()
    for seg in tile.segments:
        kind = ruleset.kinds[seg.kind]
        cities: set[Locations] = set()
        if kind.name == "field":
            for index in seg.adjacent:
                other = tile.segments[index]
                if ruleset.kinds[other.kind].name == "city":
                    cities.add(locations("side", other.ports))
        shares = ordered(SIDES[s] for s in getattr(seg, "shares", ()))
        symbols = tuple(sorted((name, v) for name, v in zip(kind.attributes, seg.attrs) if v))
        name = JCZ_KIND.get(kind.name, kind.name)
        facts[Fact(name, locations(kind.ports, seg.ports), tuple(sorted(cities)), shares, symbols)] += 1
    return facts


def feature_differences(jcz: Counter[Fact], ours: Counter[Fact]) -> list[str]:
    """What differs between two tiles' features; a lone pair at the same place is described field by field."""
    missing, extra = sorted((jcz - ours).elements()), sorted((ours - jcz).elements())
    texts = []
    for fact in list(missing):
        pair = [o for o in extra if (o.kind, o.at) == (fact.kind, fact.at)]
        if len(pair) != 1 or sum((m.kind, m.at) == (fact.kind, fact.at) for m in missing) != 1:
            continue
        missing.remove(fact)
        extra.remove(pair[0])
        for field in ("cities", "shares", "symbols"):
            a, b = getattr(fact, field), getattr(pair[0], field)
            if a != b:
                texts.append(f"{fact.kind} {bracket(fact.at)}: {field} JCZ {show(field, a)}, ours {show(field, b)}")
    for side, facts in (("JCZ", missing), ("ours", extra)):
        texts += [f"{side} only: {n} x {f}" if n > 1 else f"{side} only: {f}" for f, n in Counter(facts).items()]
    return texts


def tile_differences(jcz: dict[str, Any], ours: TileType, ruleset: Ruleset) -> list[str]:
    """Our tile against a JCZ tile, in the quarter turn of JCZ's that differs least (the smallest on a tie)."""
    mine = our_facts(ruleset, ours)
    found = [feature_differences(jcz_facts(jcz, k), mine) for k in range(4)]
    best = min(range(4), key=lambda k: (len(found[k]), k))
    head = [f"turned {best}: ours is JCZ's tile turned {best} quarter turn(s) clockwise"] if best else []
    return head + found[best]


@cache
def ruleset(ref: str) -> Ruleset:
    """A shipped ruleset with its options, loaded once."""
    return load_ruleset(ref)


def set_differences(jcz_set: dict[str, Any]) -> list[Difference]:
    """Every difference between one JCZ tile set and the tiles its ruleset adds to ours."""
    rules, file = ruleset(jcz_set["ruleset"]), jcz_set["file"]
    basic = set() if jcz_set["ruleset"] == "basic" else set(ruleset("basic").tile_ids)
    ids, found, mapped = rules.tile_ids, [], set()
    for jcz in jcz_set["tiles"]:
        ours, jid = jcz["ours"], jcz["id"]
        mapped.update(ours)
        if not ours:
            found.append(Difference(file, jid, "", "no counterpart in our rulesets"))
        for our_id in ours:
            if our_id not in ids:
                found.append(Difference(file, jid, our_id, f"not a tile of {jcz_set['ruleset']}"))
                continue
            found += [Difference(file, jid, our_id, t) for t in tile_differences(jcz, rules.tiles[ids[our_id]], rules)]
        count = sum(rules.tiles[ids[o]].count for o in ours if o in ids)
        if ours and count != jcz["count"]:
            found.append(Difference(file, jid, "+".join(ours), f"count: JCZ {jcz['count']}, ours {count}"))
        if "position" in jcz and rules.tiles[rules.start].id not in ours:
            found.append(Difference(file, jid, rules.tiles[rules.start].id, "start: JCZ starts with this tile"))
    for tile in rules.tiles:
        if tile.id not in basic and tile.id not in mapped:
            found.append(Difference(file, "", tile.id, f"no counterpart in JCZ's {file}"))
    return found


def compare(data: dict[str, Any]) -> set[Difference]:
    """Every difference between the transcribed JCZ sets and our rulesets."""
    return {d for jcz_set in data["sets"] for d in set_differences(jcz_set)}


def deliberate(data: dict[str, Any]) -> set[Difference]:
    """The differences the data file accepts."""
    return {Difference(e["file"], e["jcz"], e["ours"], text) for e in data["deliberate"] for text in e["differs"]}


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    """The transcribed JCZ tile data."""
    with DATA.open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def report(differences: set[Difference]) -> str:
    """Differences one a line, sorted, for an assertion message."""
    return "\n".join(f"  {d.file} {d.jcz or '-'} / {d.ours or '-'}: {d.text}" for d in sorted(differences))


def test_our_tiles_match_jcloisterzone_or_are_listed(data: dict[str, Any]) -> None:
    found, listed = compare(data), deliberate(data)
    assert not found - listed, "differences not under deliberate:\n" + report(found - listed)
    assert not listed - found, "deliberate entries that no longer occur (delete them):\n" + report(listed - found)


def test_deliberate_entries_say_why(data: dict[str, Any]) -> None:
    for entry in data["deliberate"]:
        assert entry["why"].strip() and entry["source"].strip(), entry
        assert entry["status"] in ("kept", "to-fix"), entry
        assert entry["differs"], entry


def test_transcription_totals(data: dict[str, Any]) -> None:
    assert {s["file"]: sum(t["count"] for t in s["tiles"]) for s in data["sets"]} == TOTALS
    ids = [(s["file"], t["id"]) for s in data["sets"] for t in s["tiles"]]
    assert len(ids) == len(set(ids))


def tile(data: dict[str, Any], file: str, jid: str) -> dict[str, Any]:
    """A transcribed tile, by its set's file and its JCZ id."""
    jcz_set = next(s for s in data["sets"] if s["file"] == file)
    return next(t for t in jcz_set["tiles"] if t["id"] == jid)


def drop_a_side(data: dict[str, Any]) -> None:
    """IC's CcR: its city loses W."""
    tile(data, "inns_and_cathedrals.xml", "CcR")["features"][0]["at"] = ["N"]


def change_a_count(data: dict[str, Any]) -> None:
    """Basic's Rr (our V): 8 instead of 9."""
    tile(data, "basic.xml", "Rr")["count"] = 8


def move_a_pennant(data: dict[str, Any]) -> None:
    """IC's CCc+: the pennant goes from the N W city to the S city."""
    features = tile(data, "inns_and_cathedrals.xml", "CCc+")["features"]
    del features[0]["pennant"]
    features[1]["pennant"] = 1


def forget_a_city(data: dict[str, Any]) -> None:
    """T&B's CcRC.c: the ER farm adjoins the N W city only."""
    tile(data, "traders_and_builders.xml", "CcRC.c")["features"][4]["city"] = ["N"]


def add_a_multi_edge(data: dict[str, Any]) -> None:
    """Hills & Sheep's CFC.v: the W city also reaches N."""
    tile(data, "hills_and_sheep.xml", "CFC.v")["features"][1]["multi_edge"] = "N"


def unmap_a_tile(data: dict[str, Any]) -> None:
    """The River's RrII loses its counterpart (our RI)."""
    tile(data, "river.xml", "RrII")["ours"] = []


@pytest.mark.parametrize("mutate, ours, words", [
    (drop_a_side, "IC_CcR", "city [N]"),
    (change_a_count, "V", "count: JCZ 8, ours 9"),
    (move_a_pennant, "IC_CCcP", "city [N W]: symbols JCZ none, ours pennants 1"),
    (forget_a_city, "TB_CcRC_c", "farm [ER]: cities JCZ [N W], ours [N W][S]"),
    (add_a_multi_edge, "HS_CFC_v", "city [W]: shares JCZ [N], ours []"),
    (unmap_a_tile, "RI", "no counterpart in JCZ's river.xml"),
])
def test_the_comparator_reports_a_changed_fact(
    data: dict[str, Any], mutate: Callable[[dict[str, Any]], None], ours: str, words: str
) -> None:
    changed = copy.deepcopy(data)
    mutate(changed)
    new = compare(changed) - compare(data)
    assert any(d.ours == ours and words in d.text for d in new), report(new)
    assert new - deliberate(data), "the test above would fail on it"
