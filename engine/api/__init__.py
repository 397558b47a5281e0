"""The field's standard game APIs: OpenSpiel, PettingZoo and Gymnasium.

Holds the game with its draws as chance events (``turns``), the factored action
encoding over a crop of the board (``actions``), the observations (``observation``: the full
tensor and strings; ``planes``: the compact board planes and scalars), the OpenSpiel
Python game (``openspiel``), the PettingZoo AEC environment (``pettingzoo``), the engine's bots
as opponents (``opponents``) and a Gymnasium single-agent environment against them (``single_agent``).
It may import ``engine.bots`` (the opponents), ``engine.view``, ``engine.files``, ``engine.core`` and
``engine.rules``; the optional libraries (``open_spiel``, ``pettingzoo``, ``gymnasium``, ``numpy``) are
imported by the modules that need them only, and say which extra to install.
"""
