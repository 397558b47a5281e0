"""``python -m engine.cli``: the same as the ``carcassonne`` command."""

from . import main

main()
