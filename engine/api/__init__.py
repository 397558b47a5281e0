"""The field's standard game APIs: OpenSpiel and PettingZoo.

Holds the game with its draws as chance events (``turns``), the factored action
encoding over a crop of the board (``actions``), the observation planes (``observation``), the OpenSpiel
Python game (``openspiel``) and the PettingZoo AEC environment (``pettingzoo``).
It may import ``engine.view``, ``engine.core`` and ``engine.rules``; the
optional libraries (``open_spiel``, ``pettingzoo``, ``numpy``) are imported by
the modules that need them only, and say which extra to install.
"""
