"""Neighbourhood inputs (``around``): what the 8 tiles around a port-less feature hold.

A kind whose segments take no ports (a cloister) sits on one tile, so "the tiles
around it" is well defined: ``around: {vineyards: vineyard}`` gives its formulas
an input ``vineyards``, the number of segments of kind ``vineyard`` on the 8 tiles
around the feature's tile, counted when the formula is worked out.  Hills &
Sheep's vineyards are the example: a completed monastery scores "3 additional
points for each vineyard on one of the 8 surrounding tiles" (Wikicarpedia,
Hills_&_Sheep, "Vineyards"); "these bonus points only count if the monastery is
completed" (blackdragongames.net, carcassonne-hills-and-sheep).  How the engine
counts is :func:`engine.core.scoring.around_counts`; docs/rulesets.md, "Feature kinds".
"""

from __future__ import annotations

from .problems import Problems


def compile_around(name: str, spec: dict, names: list[str], problems: Problems) -> tuple[tuple[str, int], ...]:
    """``(input, kind index)`` per entry of kind ``name``'s ``around``, in order; problems are
    collected: a kind with ports (``kind-around``: its features span tiles), an unknown kind
    (``kind-unknown``)."""
    around = spec.get("around", {})
    at = ("features", name, "around")
    if around and spec.get("ports", "none") != "none":
        problems.at(at, f"kind '{name}' has ports, so its features may span many tiles: around counts the 8 "
                    "tiles around a feature of a kind without ports (a cloister)", "kind-around", key=True)
        return ()
    found = []
    for input_name, kind in around.items():
        if kind not in names:
            problems.at(at + (input_name,), f"unknown feature kind '{kind}' (kinds: {', '.join(names)})",
                        "kind-unknown")
        else:
            found.append((input_name, names.index(kind)))
    return tuple(found)


def around_names(name: str, spec: dict) -> list[tuple[tuple, str, str]]:
    """``(path, what, input)`` of each ``around`` input of kind ``name``, for the input-name
    checks every declared input goes through (engine/rules/kinds.py)."""
    return [(("features", name, "around", input_name), f"around input '{input_name}' of kind '{name}'", input_name)
            for input_name in spec.get("around", {})]
