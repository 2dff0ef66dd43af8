"""The action tags of each game, and the checking of tag-taking options (``--restrict``).

A tag names what an action uses (``card:Ambush``, ``rule:attack``, ``loot:Sprint``).
``action_tags(action)`` on a state gives an action's tags; this module lists a
game's whole vocabulary, so an option that names a tag can be checked before any
game is played: a typo or a wrong case used to restrict nothing, silently.

The vocabulary of a shipped game is built from its content (card, item and loot
names) and the fixed rule tags its ``action_tags`` can return; a test plays
random games of each and checks every tag met is listed. A game class may
declare its own with an ``action_tag_vocabulary(game)`` static/class method; any
other game (e.g. a toy game in the tests) gets the tags met in a few random games.
"""

from __future__ import annotations

import difflib
from typing import Any, Callable, Iterable, Iterator

from boardlab.engine.errors import InvalidOptionError


def _armies(game: Any) -> set[str]:
    tags = {f"card:{name}" for name in game.cards}
    tags |= {f"rule:{r}" for r in ("attack", "castle", "promotion", "longbow", "blood_sacrifice", "unyielding",
                                   "calm", "break", "exempt", "politician", "rest", "chain")}
    return tags


def _blackfire(game: Any) -> set[str]:
    return {"rule:token-pickup", "attack:landing", "token:speed", "token:revive", "rule:revive", "rule:stance",
            "rule:orb-pickup", "attack:archer", "token:displace", "token:teleport", "rule:token-placement"}


def _dungeons_jewel(game: Any) -> set[str]:
    # An item is an action's tag only when a player chooses it: using a cure against its hazard, or taking it
    # from a defeated player (revision log). Attack items are drawn and work by themselves: not choices.
    chosen = set(game.item_name) if game.opt_steal else set(game.cure.values())
    tags = {f"item:{key}" for key in chosen}
    tags |= {"rule:move", "rule:attack", "rule:dragon", "rule:secret_token", "rule:reveal_token", "token:wall",
             "rule:use_item", "rule:roll", "rule:steal"}
    return tags


def _summoners_quest(game: Any) -> set[str]:
    tags = {f"card:{cid}" for cid in game.cards}
    kinds = ("summon", "cast", "equip", "use", "trap", "unequip", "gate", "ability", "move", "move_both",
             "move_summon", "move_summoner", "move_backwards", "attack", "boost", "defend", "discard_draw", "end",
             "fight", "jump", "keep", "no_defend", "roll", "stay", "stay_portal", "temple", "victim", "ward")
    return tags | {f"rule:{k}" for k in kinds}


def _wizards_labyrinth(game: Any) -> set[str]:
    tags = {f"card:{name}" for name in game.content.wizard_cards}
    tags |= {f"loot:{name}" for name in game.content.loot_cards}
    return tags | {"rule:rage", "rule:trading", "loot:Sprint"}


_VOCABULARIES: dict[str, Callable[[Any], set[str]]] = {
    "armies": _armies,
    "blackfire": _blackfire,
    "dungeons-jewel": _dungeons_jewel,
    "summoners-quest": _summoners_quest,
    "wizards-labyrinth": _wizards_labyrinth,
}


def _random_decisions(game: Any, games: int, max_steps: int) -> Iterator[list[set[str]]]:
    """The tag sets of the legal actions at each decision of ``games`` random games (seeds 0, 1, ...)."""
    from boardlab.engine.rng import Rng

    for s in range(games):
        state = game.new_state(s)
        rng = Rng(s)
        for _ in range(max_steps):
            if state.current_seat() is None:
                break
            legal = state.legal_actions()
            yield [set(state.action_tags(a)) for a in legal]
            state.apply(legal[rng.below(len(legal))])


def explored_tags(game: Any, games: int = 3, max_steps: int = 3000) -> set[str]:
    """Every tag of every legal action met in ``games`` random games (seeds 0, 1, ...)."""
    return {t for tagged in _random_decisions(game, games, max_steps) for tags in tagged for t in tags}


def optional_tags(game: Any, games: int = 3, max_steps: int = 3000) -> set[str]:
    """Tags met in ``games`` random games on a legal action while another legal action lacked them.

    Only such a tag can change a game when restricted: a tag every legal action carries (or none) is forced.
    """
    seen: set[str] = set()
    for tagged in _random_decisions(game, games, max_steps):
        for tags in tagged:
            seen.update(t for t in tags if t not in seen and any(t not in other for other in tagged))
    return seen


def game_tags(game: Any) -> tuple[str, ...]:
    """The sorted tag vocabulary of a configured game."""
    declared = getattr(type(game), "action_tag_vocabulary", None)
    if callable(declared):
        return tuple(sorted(declared(game)))
    build = _VOCABULARIES.get(game.id)
    tags = build(game) if build else explored_tags(game)
    return tuple(sorted(tags))


def check_tags(game: Any, tags: Iterable[str], option: str = "--restrict") -> list[str]:
    """Each tag as the game spells it; raises ``InvalidOptionError`` (one line) for an unknown tag.

    Matching is case-insensitive (``card:ambush`` is ``card:Ambush``); an unknown tag's
    message suggests the nearest known tags.
    """
    known = game_tags(game)
    by_lower = {t.lower(): t for t in known}
    out = []
    for tag in tags:
        text = tag.strip()
        hit = by_lower.get(text.lower())
        if hit is None and text.lower() in {k.lower() for k in getattr(game, "stat_keys", ())}:
            key = next(k for k in game.stat_keys if k.lower() == text.lower())
            raise InvalidOptionError(
                f"{option}: {key} is something that happens to a player in {game.id} (drawn, rolled or dealt), not a "
                f"choice an agent makes, so restricting it would change nothing; to test it, remove it from the game's "
                f"designed content: --variant {game.variant}+without:{key}")
        if hit is None:
            close = difflib.get_close_matches(text.lower(), list(by_lower), n=3, cutoff=0.6)
            hint = f"; did you mean {' or '.join(repr(by_lower[c]) for c in close)}?" if close else ""
            raise InvalidOptionError(
                f"{option}: {game.id} has no action tag {text!r}{hint} (list them with: boardlab playtest {game.id} --list-tags)"
            )
        out.append(hit)
    return out
