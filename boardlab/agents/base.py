"""The agent interface, re-exported from :mod:`boardlab.engine.agent`.

The interface lives in the engine so that a game's own heuristic agent
(``boardlab/games/<game>/agents.py``) can subclass :class:`BaseAgent`
without the games layer importing the agents layer above it.
"""

from boardlab.engine.agent import Agent, BaseAgent, Decision

__all__ = ["Agent", "BaseAgent", "Decision"]
