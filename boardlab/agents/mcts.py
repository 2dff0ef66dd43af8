"""Monte Carlo tree search agents: information-set MCTS, plain UCT and an omniscient baseline.

All three share one search loop (:class:`SearchAgent`); they differ only in
the state each iteration starts from:

``ismcts`` (:class:`ISMCTSAgent`, the default search agent)
    Single-observer information-set MCTS (Cowling, Powley and Whitehouse,
    2012).  Every iteration draws a fresh *determinization* with
    :meth:`Decision.sample`: a full state agreeing with the seat's view, with
    everything the seat cannot see resampled by the game.  The tree's nodes
    are sequences of actions (information sets from the searcher's side);
    a child's UCB uses its *availability* count, the number of iterations in
    which its action was legal, instead of the parent's visits.
``mcts`` (:class:`MCTSAgent`)
    Plain UCT on one determinization drawn per decision.  For a
    perfect-information game that sample *is* the position, so this is
    ordinary UCT; for a hidden-information game it is "determinized UCT"
    with a single guess.
``omniscient-mcts`` (:class:`OmniscientMCTSAgent`)
    **Cheats**: plain UCT on the true state (hidden cards, deck order, other
    hands).  It exists only to measure what hidden information is worth and
    sets ``omniscient = True``.  Future chance is still unknown to it: every
    iteration reseeds the dice.

Chance is resolved inside ``State.apply`` (sampled), so tree edges are
actions only and the dice are re-rolled on every visit.  Rewards are
``results().scores`` (one number in [0, 1] per seat; team-mates share a win)
or, when a rollout stops at ``depth``, ``state.evaluate(seat)`` for every
seat.  Each edge accumulates the reward of the seat that chose it, so every
node is searched from the point of view of the seat acting there: the same
code handles two, three or four players and teams.

Parameters (``ismcts:iterations=400:rollout=heuristic``):

``iterations``  iterations per decision (default 200; when neither ``iterations``
                nor ``time`` is given the search also stops after 2 seconds)
``time``        seconds per decision; with ``iterations`` too, whichever ends first (0 = no limit)
``c``           UCB exploration constant (default 0.7, for rewards in [0, 1])
``rollout``     ``random``, ``heuristic`` (the game's ``heuristic`` agent plays the
                playouts) or ``auto`` (the default: heuristic if the game has one)
``variety``     ``auto`` (the default): heuristic playouts draw the parameters the game
                lists in ``Game.playout_variety`` per playout and seat; ``none``: the
                heuristic's defaults in every playout
``widen``       ``auto`` (the default): when the prior ranks the legal actions
                (``ranked(decision)``), the root searches only its best few, more
                as iterations accumulate (progressive unpruning); ``none``: all
``expand``      ``random`` (the default): a node below the root tries its untried actions in
                random order; ``heuristic``: it tries the playout policy's action first
                (so an opponent's first modelled reply is a sensible one, not a random one)
``depth``       stop a playout after this many decisions from the root and use
                ``evaluate`` (0 = play to the end; ``auto``, the default, is
                :data:`AUTO_DEPTH` for games that define ``evaluate``, else 0)
``stop``        ``none`` (the default): run the whole iteration budget; ``sure``: stop
                as soon as the most visited root action leads every other by more
                visits than the iterations left, so no other action can overtake it.
                The choice is then exactly the one the whole budget would make (from
                the same random state); only the iterations that could not change it
                are saved.  It needs an iteration budget (with ``time`` alone it is
                ignored)
``only``        search only decisions of these kinds (the first legal action's name,
                several joined by ``+``, e.g. ``only=stance``) and play the game's
                ``heuristic`` at every other decision; empty (the default): search
                every decision.  Where a search's edge lies in few decisions, this
                keeps most of it at a fraction of the cost (docs/benchmarks.md,
                "Searching only some decisions")

With an iteration budget (no ``time``), the same seed gives the same choices.

>>> from boardlab.engine import make
>>> from boardlab.agents import make_agent, Decision
>>> game = make("toy")  # doctest: +SKIP
>>> agent = make_agent("ismcts:iterations=50", game, seat=0, seed=1)  # doctest: +SKIP
>>> agent.act(Decision(game.new_state(3)))  # doctest: +SKIP
('play', 3)
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any, Callable

from boardlab.engine.errors import UnknownAgentError
from boardlab.engine.rng import Rng, derive_seed

from .base import BaseAgent, Decision

if TYPE_CHECKING:  # pragma: no cover
    from boardlab.engine.game import Game
    from boardlab.engine.state import Action, State

#: Iterations per decision when no budget is given (see docs/agents.md for timings).
DEFAULT_ITERATIONS = 200
#: The largest search budget parameters accepted (issue 31: ``iterations=10**30`` or ``time=1e30`` hung a
#: command): a million iterations or an hour is far beyond any budget the lab uses per decision.
MAX_SEARCH = {"iterations": 1_000_000, "depth": 100_000, "time": 3600.0, "c": 1e6}
#: Seconds cap of the default budget (when neither ``iterations`` nor ``time`` is given).
DEFAULT_TIME_CAP = 2.0
#: Playout length (decisions from the root) of ``depth=auto`` for games that define ``evaluate``.
AUTO_DEPTH = 12
ROLLOUTS = ("auto", "random", "heuristic")
WORLDS = ("paired", "fresh")
PRIORS = ("auto", "heuristic", "none")
VARIETIES = ("auto", "none")
WIDENINGS = ("auto", "none")
EXPANSIONS = ("random", "heuristic")
STOPS = ("none", "sure")


def unpruned(n: int) -> int:
    """How many of the prior's best-ranked root actions are searched after ``n`` iterations.

    Progressive unpruning (Chaslot et al., *Progressive strategies for Monte-Carlo
    tree search*, 2008): 3 at first, one more each time ``n/4`` passes a square.

    >>> [unpruned(n) for n in (0, 3, 4, 16, 50, 200)]
    [3, 3, 4, 5, 6, 10]
    """
    return 3 + math.isqrt(n // 4)


class Node:
    """A tree node: statistics of the edge leading here, and children per acting seat.

    ``visits``/``total`` are the visit count and summed reward of the seat that
    chose this edge; ``avail`` counts the iterations in which the edge was
    legal (the ISMCTS availability count).  ``kids`` maps the acting seat to
    ``{action: Node}``: in different determinizations different seats may act.
    """

    __slots__ = ("visits", "total", "avail", "kids")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.kids: dict[int, dict[Any, Node]] = {}


class SearchAgent(BaseAgent):
    """The shared UCT loop; subclasses choose where each iteration starts (:meth:`_root_sampler`)."""

    defaults: dict[str, Any] = {
        "iterations": DEFAULT_ITERATIONS,
        "time": 0.0,
        "c": 0.7,
        "rollout": "auto",
        "depth": "auto",
        "prior": "auto",
        "bias": 1.0,
        "worlds": "paired",
        "eval": "auto",
        "variety": "auto",
        "widen": "auto",
        "expand": "random",
        "stop": "none",
        "only": "",
    }

    def __init__(self, game: "Game", seat: int, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        p = self.params
        self.check_params(game, p)
        self.iterations = int(p["iterations"]) if "iterations" in params or not p["time"] else 0
        self.time_limit = float(p["time"])
        if "iterations" not in params and "time" not in params:
            self.time_limit = DEFAULT_TIME_CAP  # the default budget never keeps a human waiting
        self.c = float(p["c"])
        self._values = evaluation_function(game, p["eval"])
        self.depth = (AUTO_DEPTH if self._values is not None else 0) if p["depth"] == "auto" else int(p["depth"])
        if self._values is None:  # an explicit depth in a game without an evaluation: the engine's default
            seats = range(game.players)
            self._values = lambda state: tuple(state.evaluate(s) for s in seats)
        self.seed = seed
        self._rollout_agents: list[Any] | None = None
        self._prior_agent: Any = None
        self.bias = float(p["bias"])
        self.paired = p["worlds"] == "paired"
        self.widen = p["widen"] == "auto"
        self.expand_heuristic = p["expand"] == "heuristic"
        self.stop_sure = p["stop"] == "sure"
        has_heuristic = "heuristic" in getattr(game, "agents", {})
        if p["prior"] == "heuristic" or (p["prior"] == "auto" and has_heuristic and self.bias > 0):
            from . import agent_class

            self._prior_agent = agent_class("heuristic", game)(game, seat, derive_seed(seed, 78))
        if p["rollout"] == "heuristic" or (p["rollout"] == "auto" and "heuristic" in getattr(game, "agents", {})):
            from . import agent_class

            cls = agent_class("heuristic", game)
            self._rollout_agents = [cls(game, s, derive_seed(seed, 77, s)) for s in range(game.players)]
        #: The agents whose moves new nodes below the root try first (expand=heuristic): the
        #: playout agents when playouts are heuristic, else the game's heuristic.
        self._guide_agents: list[Any] | None = None
        if self.expand_heuristic:
            if self._rollout_agents is not None:
                self._guide_agents = self._rollout_agents
            else:
                from . import agent_class

                cls = agent_class("heuristic", game)
                self._guide_agents = [cls(game, s, derive_seed(seed, 79, s)) for s in range(game.players)]
        #: (parameter, values) pairs drawn per playout and seat for the heuristic playouts.
        self._variety: list[tuple[str, tuple[Any, ...]]] = []
        if self._rollout_agents is not None and p["variety"] == "auto":
            self._variety = [(k, tuple(v)) for k, v in sorted(getattr(game, "playout_variety", {}).items())]
        #: ``only``: the decision kinds searched, and the heuristic that plays every other one.
        self.only: frozenset[str] = frozenset(k for k in str(p["only"]).split("+") if k)
        self._only_agent: Any = None
        if self.only:
            from . import agent_class

            self._only_agent = agent_class("heuristic", game)(game, seat, derive_seed(seed, 80))
        #: Statistics of the last search (for benchmarks and the curious).
        self.last_iterations = 0
        self.last_seconds = 0.0
        #: The root of the last search (for distillation: its children's visits).
        self.last_root: Node | None = None

    @classmethod
    def check_params(cls, game: Any, params: dict[str, Any]) -> None:
        """Raise :class:`UnknownAgentError` for out-of-range parameters."""
        cls.refuse_unknown(params)
        merged = {**cls.defaults, **params}
        for key in ("iterations", "depth"):
            v = merged[key]
            if key == "depth" and v == "auto":
                continue
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_SEARCH[key]:
                raise UnknownAgentError(f"agent parameter {key} must be a whole number 0..{MAX_SEARCH[key]:,}, got {v!r}")
        for key in ("time", "c"):
            v = merged[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= MAX_SEARCH[key]:
                raise UnknownAgentError(f"agent parameter {key} must be a number 0..{MAX_SEARCH[key]:,}, got {v!r}")
        if merged["iterations"] == 0 and not merged["time"]:
            raise UnknownAgentError("a search agent needs iterations >= 1 or time > 0")
        if merged["prior"] not in PRIORS:
            raise UnknownAgentError(f"prior must be one of {', '.join(PRIORS)}, got {merged['prior']!r}")
        if merged["prior"] == "heuristic" and game is not None and "heuristic" not in getattr(game, "agents", {}):
            raise UnknownAgentError(f"{getattr(game, 'id', 'this game')} has no heuristic agent for prior=heuristic")
        if game is not None:
            evaluation_function(game, merged["eval"])  # raises for an unknown choice or a bad file
        if merged["widen"] not in WIDENINGS:
            raise UnknownAgentError(f"widen must be one of {', '.join(WIDENINGS)}, got {merged['widen']!r}")
        if merged["expand"] not in EXPANSIONS:
            raise UnknownAgentError(f"expand must be one of {', '.join(EXPANSIONS)}, got {merged['expand']!r}")
        if merged["expand"] == "heuristic" and game is not None and "heuristic" not in getattr(game, "agents", {}):
            raise UnknownAgentError(f"{getattr(game, 'id', 'this game')} has no heuristic agent for expand=heuristic")
        only = merged["only"]
        if not isinstance(only, str) or (only and any(not k for k in only.split("+"))):
            raise UnknownAgentError(f"only must name decision kinds joined by '+', e.g. only=stance, got {only!r}")
        if only and game is not None and "heuristic" not in getattr(game, "agents", {}):
            raise UnknownAgentError(f"{getattr(game, 'id', 'this game')} has no heuristic agent to play the decisions only= leaves out")
        if merged["stop"] not in STOPS:
            raise UnknownAgentError(f"stop must be one of {', '.join(STOPS)}, got {merged['stop']!r}")
        if merged["variety"] not in VARIETIES:
            raise UnknownAgentError(f"variety must be one of {', '.join(VARIETIES)}, got {merged['variety']!r}")
        if merged["worlds"] not in WORLDS:
            raise UnknownAgentError(f"worlds must be one of {', '.join(WORLDS)}, got {merged['worlds']!r}")
        if merged["rollout"] not in ROLLOUTS:
            raise UnknownAgentError(f"rollout must be one of {', '.join(ROLLOUTS)}, got {merged['rollout']!r}")
        if merged["rollout"] == "heuristic" and game is not None and "heuristic" not in getattr(game, "agents", {}):
            raise UnknownAgentError(f"{getattr(game, 'id', 'this game')} has no heuristic agent for rollout=heuristic")

    # -- where an iteration starts --------------------------------------
    def _root_sampler(self, decision: Decision, rng: Rng) -> Callable[[], "State"]:
        raise NotImplementedError

    # -- the search -----------------------------------------------------
    def act(self, decision: Decision) -> "Action":
        legal = decision.legal
        if len(legal) == 1:
            self.last_iterations, self.last_seconds = 0, 0.0
            return legal[0]
        if self._only_agent is not None and str(legal[0][0]) not in self.only:
            self.last_iterations, self.last_seconds = 0, 0.0
            return self._only_agent.act(decision)
        rng = self.rng
        game = decision.game
        recording = game.record_events
        game.record_events = False  # search states need no event log
        try:
            hint, order = self._prior(decision)
            root = self.search(decision, rng, hint, order)
        finally:
            game.record_events = recording
        self.last_root = root
        table = root.kids.get(decision.seat, {})
        best = hint if hint in table else legal[0]
        best_visits = table[best].visits if best in table else -1
        for a in legal:  # most visited; ties go to the prior's move, then the earlier legal action
            child = table.get(a)
            if child is not None and child.visits > best_visits:
                best, best_visits = a, child.visits
        return best

    def _prior(self, decision: Decision) -> "tuple[Action | None, list[Action] | None]":
        """The prior agent's move, and its ranking of the legal actions when it offers one.

        A prior agent may define ``ranked(decision)``: the legal actions best first
        (its own move first).  With ``widen=auto`` the root then searches only the
        best-ranked few, more as iterations accumulate (:func:`unpruned`).
        """
        agent = self._prior_agent
        if agent is None:
            return None, None
        ranked = getattr(agent, "ranked", None)
        if ranked is None or not self.widen:
            return agent.act(decision), None
        order = list(ranked(decision))
        legal = decision.legal
        seen = set(order)
        order += [a for a in legal if a not in seen]  # a partial ranking: the rest come last
        return order[0], order

    def search(self, decision: Decision, rng: Rng, hint: "Action | None" = None,
               order: "list[Action] | None" = None) -> Node:
        """Run the search from ``decision`` and return the root node.

        ``hint`` (the prior agent's move) gets a progressive bias at the root:
        ``bias / (visits + 1)`` is added to its UCB value, so it is explored
        first and kept unless the search finds something clearly better.
        ``order`` (the prior's ranking of the root's legal actions, best first)
        restricts the root to its first :func:`unpruned` actions.
        """
        bias = self.bias if hint is not None else 0.0
        sample = self._root_sampler(decision, rng)
        root = Node()
        c = self.c
        log = math.log
        sqrt = math.sqrt
        depth_cap = self.depth
        values = self._values
        rollout_agents = self._rollout_agents
        iterations = self.iterations
        deadline = time.perf_counter() + self.time_limit if self.time_limit else None
        start = time.perf_counter()
        done = 0
        paired = self.paired
        root_seat = decision.seat
        root_legal = decision.legal
        root_table: dict[Any, Node] = root.kids.setdefault(root_seat, {})
        worlds: list[tuple["State", int]] = []
        variety = self._variety
        #: with expand=heuristic, new nodes below the root try the playout policy's action first
        guide = self._guide_agents
        sure = self.stop_sure and iterations > 0
        while True:
            if iterations and done >= iterations:
                break
            if sure and done:
                # Each iteration adds one visit to one root action, so an action leading
                # every other by more than the iterations left is the final choice.
                first = second = 0
                for child in root_table.values():
                    v = child.visits
                    if v > first:
                        first, second = v, first
                    elif v > second:
                        second = v
                if first - second > iterations - done:
                    break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            done += 1
            node = root
            path: list[tuple[Node, int]] = []
            steps = 0
            expanded = False
            if paired:
                # Common random numbers: the root action is chosen first (the seat's
                # legal actions are the same in every determinization), and its k-th
                # visit plays in world k, so root actions are compared on the same
                # hidden deals, dice streams and playout choices.
                if order is not None:
                    root_legal = order[: unpruned(done - 1)]
                for a in root_legal:
                    child = root_table.get(a)
                    if child is not None:
                        child.avail += 1
                a = self._select(root_table, root_legal, c, bias, hint, rng)
                child = root_table.get(a)
                if child is None:
                    child = root_table[a] = Node()
                    child.avail = 1
                    expanded = True
                k = child.visits
                if k == len(worlds):
                    worlds.append((sample(), rng.next64()))
                base, wseed = worlds[k]
                state = base.clone()
                state.rng = Rng(wseed)
                prng = Rng(wseed ^ 0x5DEECE66D)
                if rollout_agents is not None:
                    for s_, agent in enumerate(rollout_agents):
                        agent.rng = Rng(wseed + s_ + 1)
                    if variety:
                        self._vary(rollout_agents, variety, Rng(wseed ^ 0x9E3779B9))
                state.apply(a)
                path.append((child, root_seat))
                node = child
                steps = 1
            else:
                state = sample()
                prng = rng
                if variety:
                    self._vary(rollout_agents, variety, rng)
            # selection and expansion
            while not expanded and not (depth_cap and steps >= depth_cap):
                seat = state.current_seat()
                if seat is None:
                    break
                legal = state.legal_actions()
                if order is not None and node is root and seat == root_seat:
                    legal = order[: unpruned(done - 1)]
                table = node.kids.get(seat)
                if table is None:
                    table = node.kids[seat] = {}
                untried = None
                best = None
                best_score = -1.0
                for a in legal:
                    child = table.get(a)
                    if child is None:
                        if untried is None:
                            untried = [a]
                        else:
                            untried.append(a)
                        continue
                    child.avail += 1
                    if untried is None:
                        score = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                        if bias and a == hint and node is root:
                            score += bias / (child.visits + 1)
                        if score > best_score:
                            best, best_score = a, score
                if untried is not None:
                    if bias and node is root and hint in untried:
                        a = hint
                    elif guide is not None and node is not root and len(untried) > 1:
                        a = guide[seat].act(Decision(state, seat))  # the playout policy's reply first
                        if a not in untried:
                            a = untried[rng.below(len(untried))]
                    else:
                        a = untried[rng.below(len(untried))] if len(untried) > 1 else untried[0]
                    child = table[a] = Node()
                    child.avail = 1
                    state.apply(a)
                    path.append((child, seat))
                    steps += 1
                    break
                child = table[best]
                state.apply(best)
                path.append((child, seat))
                node = child
                steps += 1
                if depth_cap and steps >= depth_cap:
                    break
            # playout
            while not (depth_cap and steps >= depth_cap):
                seat = state.current_seat()
                if seat is None:
                    break
                if rollout_agents is None:
                    legal = state.legal_actions()
                    state.apply(legal[prng.below(len(legal))] if len(legal) > 1 else legal[0])
                else:
                    state.apply(rollout_agents[seat].act(Decision(state, seat)))
                steps += 1
            # rewards
            if state.is_over():
                rewards = state.results().scores
            else:
                rewards = values(state)
            for child, seat in path:
                child.visits += 1
                child.total += rewards[seat]
        self.last_iterations = done
        self.last_seconds = time.perf_counter() - start
        return root

    @staticmethod
    def _vary(agents: list[Any], variety: list[tuple[str, tuple[Any, ...]]], rng: Rng) -> None:
        """Give each playout agent one value of every varied heuristic parameter."""
        for agent in agents:
            params = agent.params
            for key, values in variety:
                params[key] = values[rng.below(len(values))]

    @staticmethod
    def _select(table: dict[Any, Node], legal: Any, c: float, bias: float, hint: Any, rng: Rng) -> Any:
        """The root's UCB choice: an untried action first (the prior's move before others), else the best UCB."""
        untried = [a for a in legal if a not in table]
        if untried:
            if bias and hint in untried:
                return hint
            return untried[rng.below(len(untried))] if len(untried) > 1 else untried[0]
        log = math.log
        sqrt = math.sqrt
        best = None
        best_score = -1.0
        for a in legal:
            child = table[a]
            score = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
            if bias and a == hint:
                score += bias / (child.visits + 1)
            if score > best_score:
                best, best_score = a, score
        return best

    def root_statistics(self, decision: Decision) -> list[dict[str, Any]]:
        """Search ``decision`` and return each legal action's visits and mean reward (for tools)."""
        game = decision.game
        recording = game.record_events
        game.record_events = False
        try:
            root = self.search(decision, self.rng)
        finally:
            game.record_events = recording
        table = root.kids.get(decision.seat, {})
        out = []
        for a in decision.legal:
            n = table.get(a)
            out.append({
                "action": list(a),
                "visits": n.visits if n else 0,
                "value": (n.total / n.visits) if n and n.visits else None,
            })
        return out


class ISMCTSAgent(SearchAgent):
    """Information-set MCTS: a fresh determinization of the seat's view every iteration."""

    def _root_sampler(self, decision: Decision, rng: Rng) -> Callable[[], "State"]:
        return lambda: decision.sample(rng)


class MCTSAgent(SearchAgent):
    """Plain UCT on one determinization per decision (exact for perfect information)."""

    def _root_sampler(self, decision: Decision, rng: Rng) -> Callable[[], "State"]:
        return _reseeding(decision.sample(rng), rng)


class OmniscientMCTSAgent(SearchAgent):
    """CHEATS: plain UCT on the true hidden state.  A baseline measuring what hidden information is worth."""

    omniscient = True

    def _root_sampler(self, decision: Decision, rng: Rng) -> Callable[[], "State"]:
        return _reseeding(decision.omniscient_state(), rng)


def auto_depth(game: Any) -> int:
    """:data:`AUTO_DEPTH` if ``game`` has an evaluation (fitted or its own ``evaluate``), else 0 (play to the end)."""
    return AUTO_DEPTH if evaluation_function(game, "auto") is not None else 0


def evaluation_function(game: Any, choice: str) -> "Callable[[State], tuple[float, ...]] | None":
    """How playouts cut at ``depth`` are scored: every seat's estimated chance to win.

    ``choice`` is ``fitted`` (the game's fitted evaluation file), ``game`` (the
    game's hand-written ``State.evaluate``), ``auto`` (fitted if the game has
    one, else its own) or the path of an evaluation JSON file.  ``None`` means
    the game offers no evaluation (playouts then run to the end).
    """
    from boardlab.engine.evaluation import FittedEvaluation

    if choice in ("auto", "fitted"):
        fitted = game.fitted_evaluation() if hasattr(game, "fitted_evaluation") else None
        if fitted is not None:
            return fitted.evaluator(game.players)
        if choice == "fitted":
            raise UnknownAgentError(f"{getattr(game, 'id', 'this game')} has no fitted evaluation (eval=fitted)")
        return _own_evaluate(game)
    if choice == "game":
        return _own_evaluate(game)
    if not isinstance(choice, str) or not choice.endswith(".json"):
        raise UnknownAgentError(f"eval must be auto, fitted, game or an evaluation .json file, got {choice!r}")
    return FittedEvaluation.load(choice).evaluator(game.players)


def _own_evaluate(game: Any) -> "Callable[[State], tuple[float, ...]] | None":
    """The game's own ``State.evaluate`` for every seat, or ``None`` if it does not define one."""
    from boardlab.engine.state import State

    cls = getattr(game, "state_class", None)
    if cls is None or cls.evaluate is State.evaluate:
        return None
    seats = range(game.players)
    return lambda state: tuple(state.evaluate(s) for s in seats)


def _reseeding(base: "State", rng: Rng) -> Callable[[], "State"]:
    """Clones of ``base`` whose future chance (dice, draws) is reseeded on every call."""

    def sample() -> "State":
        s = base.clone()
        s.rng = Rng(rng.next64())
        return s

    return sample
