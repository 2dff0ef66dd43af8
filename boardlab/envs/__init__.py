"""Adapters to the ecosystem: PettingZoo (``boardlab.envs.pettingzoo``) and OpenSpiel (``boardlab.envs.openspiel``).

Both are optional: they import ``pettingzoo``/``gymnasium`` or ``pyspiel``
only when used (``pip install 'boardlab[envs]'``).
"""
