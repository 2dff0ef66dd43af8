"""A heuristic bidder: bid the card whose rank in its hand matches the prize's rank.

It decides from ``decision.view`` and ``decision.legal`` only (never the state).
With ``noise`` > 0 it bids a random card that often (in percent).
"""

from __future__ import annotations

from boardlab.engine.agent import BaseAgent, Decision


class HeuristicAgent(BaseAgent):
    defaults = {"noise": 0}

    def act(self, decision: Decision) -> tuple:
        legal = decision.legal
        if self.params["noise"] and self.rng.below(100) < self.params["noise"]:
            return legal[self.rng.below(len(legal))]
        v = decision.view["state"]
        prizes = sorted([v["prize"], *v["prizes_left"]])
        rank = prizes.index(v["prize"]) / max(1, len(prizes) - 1)  # 0: the smallest prize left, 1: the largest
        return legal[round(rank * (len(legal) - 1))]  # legal bids are in ascending order
