"""Small symbols drawn on a tile's segments: the cloister's building, a pennant's shield,
a token's disc (goods), and where several marks of one segment go.

Sizes are in units of the tile; each function takes the tile's size ``s`` in pixels
and a point ``at`` in tile units, and returns SVG markup.
"""

from __future__ import annotations

import math
from typing import Iterable

from .markup import pts, svg_num, xml_text

Point = tuple[float, float]

#: The attribute drawn as a pennant's shield (its usual name; any other draws as a badge).
PENNANT_ATTRIBUTE = "pennants"
#: A pennant's (fill, stroke): white with a dark edge, far from every player colour.
PENNANT = ("#ffffff", "#333333")
#: Token (goods) discs, in the order of the ruleset's tokens: dark enough for a white letter.
TOKEN_COLOURS = ("#7b2d6b", "#8a6d00", "#1f5f8b", "#5a5a5a", "#2e6b30", "#8b3a1f")


def icon(at: Point, fill: str, stroke: str, s: float) -> str:
    """A small building (walls and a pitched roof), 0.3 tiles wide, centred on ``at``."""
    x, y = at[0] * s, at[1] * s
    w, h, roof = 0.3 * s, 0.18 * s, 0.14 * s
    body = [(x - w / 2, y), (x + w / 2, y), (x + w / 2, y + h), (x - w / 2, y + h)]
    top = [(x - w / 2 - 0.02 * s, y), (x, y - roof), (x + w / 2 + 0.02 * s, y)]
    door = f'<rect x="{svg_num(x - 0.03 * s)}" y="{svg_num(y + h - 0.1 * s)}" width="{svg_num(0.06 * s)}" ' \
           f'height="{svg_num(0.1 * s)}" fill="{stroke}"/>'
    return (f'<g class="icon"><polygon points="{pts(body)}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{svg_num(s * 0.02)}"/><polygon points="{pts(top)}" fill="{stroke}"/>{door}</g>')


def grapes(at: Point, fill: str, stroke: str, s: float) -> str:
    """A bunch of grapes (a vineyard, Hills & Sheep): six berries in a downward triangle
    under a stalk, 0.24 tiles wide, centred on ``at``."""
    x, y, r = at[0] * s, at[1] * s, 0.045 * s
    rows = [(-2, 0), (0, 0), (2, 0), (-1, 1.7), (1, 1.7), (0, 3.4)]
    berries = "".join(f'<circle cx="{svg_num(x + dx * r)}" cy="{svg_num(y - 1.4 * r + dy * r)}" r="{svg_num(r)}" '
                      f'fill="{fill}" stroke="{stroke}" stroke-width="{svg_num(s * 0.012)}"/>' for dx, dy in rows)
    stalk = f'<path d="M{svg_num(x)},{svg_num(y - 2.4 * r)} L{svg_num(x + r)},{svg_num(y - 3.6 * r)}" ' \
            f'stroke="{stroke}" stroke-width="{svg_num(s * 0.02)}" fill="none"/>'
    return f'<g class="icon grapes">{stalk}{berries}</g>'


def hill(at: Point, fill: str, stroke: str, s: float) -> str:
    """A hill (Hills & Sheep): a mound 0.36 tiles wide, its foot on ``at``."""
    x, y, w = at[0] * s, at[1] * s, 0.18 * s
    d = (f"M{svg_num(x - w)},{svg_num(y + 0.06 * s)} Q{svg_num(x)},{svg_num(y - 0.22 * s)} "
         f"{svg_num(x + w)},{svg_num(y + 0.06 * s)} Z")
    return f'<path class="icon hill" d="{d}" fill="{fill}" stroke="{stroke}" stroke-width="{svg_num(s * 0.02)}"/>'


def shield(at: Point, s: float) -> str:
    """A pennant: a small white shield edged in dark grey, 0.12 tiles wide (:data:`PENNANT`:
    white is no player's colour, and reads on city, field and every meeple colour)."""
    x, y, w = at[0] * s, at[1] * s, 0.12 * s
    d = (f"M{svg_num(x - w / 2)},{svg_num(y - w / 2)} L{svg_num(x + w / 2)},{svg_num(y - w / 2)} "
         f"L{svg_num(x + w / 2)},{svg_num(y)} "
         f"Q{svg_num(x + w / 2)},{svg_num(y + w / 2)} {svg_num(x)},{svg_num(y + w * 0.7)} "
         f"Q{svg_num(x - w / 2)},{svg_num(y + w / 2)} {svg_num(x - w / 2)},{svg_num(y)} Z")
    return (f'<path class="pennant" d="{d}" fill="{PENNANT[0]}" stroke="{PENNANT[1]}" '
            f'stroke-width="{svg_num(s * 0.015)}"/>')


def mark_spots(at: Point, n: int) -> list[Point]:
    """Where ``n`` marks of one segment go: the first at ``at``, the others beside it, 0.15
    tiles apart, alternately either way across the line from the tile's centre to ``at``."""
    dx, dy = at[0] - 0.5, at[1] - 0.5
    length = math.hypot(dx, dy) or 1.0
    tx, ty = -dy / length, dx / length
    steps = [0.0] + [0.15 * (k // 2 + 1) * (1 if k % 2 == 0 else -1) for k in range(n - 1)]
    return [(at[0] + tx * step, at[1] + ty * step) for step in steps]


def labels(names: Iterable[str]) -> dict[str, str]:
    """What each mark shows of its name: the shortest start of it that starts no other name
    of ``names`` (case aside), first letter capitalised, so that a ruleset's cathedral and
    cloth read ``Ca`` and ``Cl`` while a lone inn reads ``I``.  A name that starts another
    (``inn``, ``inns``) shows whole.

    >>> labels(["cathedral", "cloth", "inn", "wine"])
    {'cathedral': 'Ca', 'cloth': 'Cl', 'inn': 'I', 'wine': 'W'}
    """
    unique = sorted(set(names))
    found = {}
    for name in unique:
        others = [other.lower() for other in unique if other != name]
        size = next((n for n in range(1, len(name) + 1)
                     if not any(other.startswith(name[:n].lower()) for other in others)), len(name))
        found[name] = name[:size].capitalize()
    return found


def token(at: Point, s: float, index: int, label: str, name: str, count: int) -> str:
    """A token symbol (a good): a disc 0.14 tiles wide in the token's colour (:data:`TOKEN_COLOURS`,
    by its place in the ruleset's tokens) with ``label`` (:func:`labels`), and the count when
    above 1."""
    x, y, r = at[0] * s, at[1] * s, 0.07 * s
    disc = (f'<circle cx="{svg_num(x)}" cy="{svg_num(y)}" r="{svg_num(r)}" '
            f'fill="{TOKEN_COLOURS[index % len(TOKEN_COLOURS)]}" ')
    return _labelled(f'class="token" data-token="{xml_text(name)}"', disc, x, y, r * 2, s, label, count)


def badge(at: Point, s: float, label: str, name: str, count: int, colour: str) -> str:
    """A segment attribute other than pennants and tokens (an inn, a cathedral): a square
    0.2 tiles wide (legible at the atlas's and the table's default sizes) in ``colour`` with
    ``label`` (:func:`labels`), and the count when above 1."""
    x, y, w = at[0] * s, at[1] * s, 0.2 * s
    square = (f'<rect x="{svg_num(x - w / 2)}" y="{svg_num(y - w / 2)}" width="{svg_num(w)}" height="{svg_num(w)}" '
              f'rx="{svg_num(w * 0.2)}" fill="{colour}" ')
    return _labelled(f'class="badge" data-attribute="{xml_text(name)}"', square, x, y, w, s, label, count)


def _labelled(attrs: str, shape: str, x: float, y: float, w: float, s: float, label: str, count: int) -> str:
    """A mark ``w`` wide centred on ``(x, y)``: ``shape`` (an open SVG element, edged here) with
    ``label`` in white, and the count when above 1."""
    label += str(count) if count > 1 else ""
    return (f'<g {attrs} data-count="{count}">{shape}stroke="{PENNANT[1]}" stroke-width="{svg_num(s * 0.012)}"/>'
            f'<text x="{svg_num(x)}" y="{svg_num(y + w * 0.2)}" font-size="{svg_num(w * 0.55)}" text-anchor="middle" '
            f'font-family="sans-serif" font-weight="bold" fill="#ffffff">{xml_text(label)}</text></g>')
