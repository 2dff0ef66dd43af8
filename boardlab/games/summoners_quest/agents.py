"""A placeholder; replaced below."""
from boardlab.agents.simple import RandomAgent as HeuristicAgent
