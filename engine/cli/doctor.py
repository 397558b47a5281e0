"""``carcassonne doctor``: what is installed and where, for bug reports and set-up checks."""

from __future__ import annotations

import sys

from .app import app, epilog
from .output import JsonOption, Output

DISTRIBUTION = "carcassonne-rules"


def extras() -> dict[str, dict[str, str | None]]:
    """Per optional extra of the installed package, each requirement's installed version (None: missing).

    Read from the package's own metadata, so a new extra shows up without
    a change here; nothing is imported.
    """
    import re
    from importlib import metadata

    found: dict[str, dict[str, str | None]] = {}
    for requirement in metadata.requires(DISTRIBUTION) or ():
        marker = re.search(r"""extra\s*==\s*["']([^"']+)["']""", requirement)
        if marker is None:
            continue
        name = re.match(r"[A-Za-z0-9._-]+", requirement).group(0)  # type: ignore[union-attr]
        if name == DISTRIBUTION:
            continue  # an extra made of other extras ("dev")
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = None
        found.setdefault(marker.group(1), {})[name] = version
    return found


@app.command(epilog=epilog(["carcassonne doctor", "carcassonne doctor --json - | jq .extras"]))
def doctor(json_target: JsonOption = None) -> None:
    """Show the version, Python, extras and where the rulesets are."""
    from importlib import metadata

    from ..build_info import engine_build
    from ..resources import rulesets_dir
    from .completion import shipped_names

    output = Output(json_target)
    rulesets, options = shipped_names()
    report = {
        "package_version": metadata.version(DISTRIBUTION),
        "python": {"version": sys.version.split()[0], "implementation": sys.implementation.name,
                   "executable": sys.executable},
        "core": engine_build(),
        "rulesets_dir": str(rulesets_dir()),
        "shipped": {"rulesets": rulesets, "options": options},
        "extras": extras(),
    }
    output.echo(f"carcassonne {report['package_version']}")
    output.echo(f"python      {report['python']['version']} ({sys.executable})")
    output.echo(f"core        {report['core']}")
    output.echo(f"rulesets    {report['rulesets_dir']} ({len(rulesets)} rulesets, {len(options)} options)")
    width = max(map(len, report["extras"]), default=0)
    for extra, packages in report["extras"].items():
        missing = [name for name, version in packages.items() if version is None]
        state = "installed" if not missing else f"missing {', '.join(missing)}: pip install '{DISTRIBUTION}[{extra}]'"
        output.echo(f"extra       {extra:<{width}} {state}")
    output.json("doctor", report)
