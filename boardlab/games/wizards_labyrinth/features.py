"""Evaluation features of The Wizard's Labyrinth (bots, personas and the lab's fitted evaluation).

Mixed into :class:`~.game.LabyrinthState`: :meth:`LabyrinthFeatures.features` gives side-level
numbers (the same for every seat) and :meth:`LabyrinthFeatures.evaluate` the default evaluation.
:func:`fight_chance` (exact d20 odds of a fight) is shared with the heuristic agent.
"""

from __future__ import annotations

from .board import neighbour_table

WIZARD = 0

#: Monster levels assumed to guard the tower until it is open and guarded (two level 3 monsters,
#: a typical guard at the end of heuristic games).  Used by the ``tower_chance`` feature.
TOWER_GUARD = (3, 3)

_FIGHT: dict[tuple[int, int, bool], float] = {}


def fight_chance(heroes: int, margin: int, combine: bool = False) -> float:
    """Chance that ``heroes`` d20s (the highest, or their sum with ``combine``) reach the wizard's d20 +
    ``margin`` (monster levels less the heroes' bonuses; a tie is the heroes' win).  Cached."""
    key = (heroes, margin, combine)
    p = _FIGHT.get(key)
    if p is None:
        if heroes <= 0:
            p = 0.0
        else:
            if combine:
                dist = {0: 1.0}
                for _ in range(heroes):
                    nxt: dict[int, float] = {}
                    for t, q in dist.items():
                        for f in range(1, 21):
                            nxt[t + f] = nxt.get(t + f, 0.0) + q / 20
                    dist = nxt
            else:
                dist = {m: (m / 20) ** heroes - ((m - 1) / 20) ** heroes for m in range(1, 21)}
            p = min(1.0, sum(q for w in range(1, 21) for t, q in dist.items() if t >= w + margin) / 20)
        _FIGHT[key] = p
    return p


class LabyrinthFeatures:
    __slots__ = ()

    # ---------------------------------------------------------- evaluation
    def features(self, seat: int) -> dict[str, float]:
        """Side-level numbers for evaluations and personas (the same for every seat).

        The first eight are the original summary.  The rest describe what decides games: the
        race to the tower and the tower fight (see :data:`TOWER_GUARD` and :func:`fight_chance`).

        * ``ready``: the living heroes hold the keys needed (or the door is already open);
        * ``tower_chance``: chance that all living heroes together (highest d20, or the sum in
          alpha, + equipment combat bonuses + Battle Elixirs in hand) beat the tower's guard in
          one fight: the monsters in the tower once it is open and guarded, else
          :data:`TOWER_GUARD` levels;
        * ``tower_odds``: chance to beat that guard in one of the fights the healthiest hero can
          start before the losses kill him (a lost fight costs 1 hit point per monster, 1 in
          alpha; the default guard is 2 monsters);
        * ``hero_combat``: the heroes' combat bonuses and Battle Elixirs, / (4 x heroes);
        * ``hero_life``: the living heroes' hit points plus what their potions heal, / (hp x heroes);
        * ``entrance_dist``: mean steps of the living heroes to the tower entrance over remaining
          tiles (not through the tower; a hero in the tower is at 0), / grid size;
        * ``nearest_dist``: the same for the nearest hero;
        * ``entrance_guard``: monster levels on the entrance tile (the tower's sides in alpha), / 10;
        * ``turn``: turns played, / 200 (at most 1).
        """
        g = self.game
        o = g.option_values
        n = g.size
        hp_max = o["hero_hp"]
        heroes = self.heroes
        count = len(heroes)
        living = [h for h in heroes if h.alive]
        k = len(living)
        hp = sum(h.hp for h in living)
        need = o["keys_needed"]
        held = sum(h.keys for h in living)
        keys = min(1.0, (held + sum(self.dropped_keys.values()) + (need if self.door_open else 0)) / need)
        explored = sum(self.flipped) / len(self.flipped)
        tokens = self.tokens
        ntok = sum(map(len, tokens)) / (len(tokens) or 1)
        # the heroes' fighting strength and staying power
        cards = g.content.loot_cards
        combat = heal = 0
        for h in living:
            for e in h.equipment:
                combat += cards[e].combat
            for c in h.hand:
                card = cards[c]
                if card.effect == "boost":
                    combat += card.amount
                elif card.effect == "heal":
                    heal += card.amount
        # the tower fight
        tower = self.tower
        guard = [int(t.kind[1:]) for t in tokens[tower] if t.kind[0] == "m"]
        if not (guard and self.tower_open()):
            guard = TOWER_GUARD
        chance = fight_chance(k, sum(guard) - combat, o["combine_rolls"])
        best = max((h.hp for h in living), default=0)
        per_loss = len(guard) if o["loss_damage_per_monster"] else 1
        tries = max(1, -(-best // per_loss))
        odds = 1.0 - (1.0 - chance) ** tries
        # the race to the entrance: one breadth-first search from it (the tower's open sides in alpha)
        removed = self.removed
        ent = self.entrance_cell()
        nbrs = neighbour_table(g.grid)
        goals = [ent] if ent is not None else [j for j in nbrs[tower] if not removed[j]]
        dist = dict.fromkeys(goals, 0)
        front = goals
        step = 0
        while front:
            step += 1
            nxt = []
            for c in front:
                for j in nbrs[c]:
                    if j not in dist and j != tower and not removed[j]:
                        dist[j] = step
                        nxt.append(j)
            front = nxt
        far = 2 * n
        steps = [0 if h.pos == tower else dist.get(h.pos, far) for h in living]
        guard_levels = sum(int(t.kind[1:]) for c in goals for t in tokens[c] if t.kind[0] == "m")
        return {
            "hero_hp": hp / (hp_max * count),
            "heroes_alive": k / count,
            "keys": keys,
            "explored": explored,
            "mana": self.mana / o["mana_max"],
            "hand": min(1.0, len(self.whand) / 8),
            "tokens": min(1.0, ntok),
            "door_open": 1.0 if self.door_open else 0.0,
            "ready": 1.0 if self.door_open or held >= need else 0.0,
            "tower_chance": chance,
            "tower_odds": odds,
            "hero_combat": combat / (4 * count),
            "hero_life": (hp + heal) / (hp_max * count),
            "entrance_dist": sum(steps) / (k * n) if k else 2.0,
            "nearest_dist": min(steps) / n if k else 2.0,
            "entrance_guard": guard_levels / 10,
            "turn": min(1.0, self.turn / 200),
        }

    def evaluate(self, seat: int) -> float:
        if self.winner:
            won = (self.winner == "wizard") == (seat == WIZARD)
            return 1.0 if won else 0.0
        f = self.features(seat)
        heroes = 0.35 * f["hero_hp"] + 0.15 * f["heroes_alive"] + 0.35 * f["keys"] + 0.15 * f["door_open"]
        heroes = max(0.02, min(0.98, heroes - 0.1 * f["mana"] - 0.05 * f["hand"] + 0.1))
        return 1.0 - heroes if seat == WIZARD else heroes
