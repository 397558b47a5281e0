"""Shell completion of ruleset references and player lists (``carcassonne --install-completion``).

Completion runs on every TAB, so it reads only file names (the shipped
rulesets and options) and the bot registry, never a ruleset's contents.
"""

from __future__ import annotations


def shipped_names() -> tuple[list[str], list[str]]:
    """The shipped ruleset names and option names, each sorted."""
    from ..resources import rulesets_dir

    folder = rulesets_dir()
    return (sorted(p.stem for p in folder.glob("*.yaml")),
            sorted(p.stem for p in (folder / "options").glob("*.yaml")))


def complete_ref(incomplete: str) -> list[str]:
    """Completions of a ruleset reference: a ruleset name, then ``+option`` after option.

    >>> "basic+river" in complete_ref("basic+ri")
    True
    >>> complete_ref("first-ed")
    ['first-edition']
    """
    rulesets, options = shipped_names()
    *chosen, last = incomplete.split("+")
    if not chosen:
        return [name for name in rulesets if name.startswith(last)]
    stem = "+".join(chosen) + "+"
    return [stem + name for name in options if name.startswith(last) and name not in chosen]


def _complete_list(incomplete: str, known: list[str]) -> list[str]:
    *chosen, last = incomplete.split(",")
    stem = ",".join(chosen) + "," if chosen else ""
    return [stem + name for name in known if name.startswith(last)]


def complete_bots(incomplete: str) -> list[str]:
    """Completions of a comma-separated list of bot kinds (``random,gr`` → ``random,greedy``).

    >>> complete_bots("random,gr")
    ['random,greedy']
    """
    from ..bots.players import known_kinds

    return _complete_list(incomplete, known_kinds())


def complete_player_list(incomplete: str) -> list[str]:
    """As :func:`complete_bots`, with ``human`` (a person at the terminal) as well."""
    from ..bots.players import known_kinds

    return _complete_list(incomplete, [*known_kinds(), "human"])
