"""Game-neutral encodings shared by the adapters: action indexes and observation arrays.

**Action indexes.**  Two schemes, both built only from the legal-action list:

* *positional* (PettingZoo): index ``i`` is the ``i``-th legal action in the
  engine's order, and the ``action_mask`` marks the first ``len(legal)``
  indexes.  The space size is the game's bound (:func:`action_space_size`).

**Action bounds.**  Both adapters size their action space by the same
per-game bound on the number of legal actions in one state:
:data:`ACTION_BOUNDS` (a game class may declare ``max_legal_actions``
instead).  A state offering more raises an error naming the game, the
count and the bound (:func:`check_action_count`), never a silent clip.
* *stable* (OpenSpiel): an action's id is a 24-bit hash (CRC-32) of its
  canonical JSON, so the same action has the same id in every state and every
  determinization (which information-set search needs).  Should two legal
  actions collide, the later one probes to the next free id, in legal order.

**Observations.**  A seat's view is flattened into ``(path, value)`` leaves
and hashed (the "hashing trick") into a fixed-length ``float32`` vector:
a number adds its value at ``hash(path)``, a string or boolean adds 1 at
``hash(path=value)``.  The vector is built from the view only, so it holds
nothing the seat may not know.
"""

from __future__ import annotations

import json
import zlib
from typing import Any, Iterator, Sequence

DEFAULT_ACTION_SPACE = 1024
"""The action space of a game with no entry in :data:`ACTION_BOUNDS` and no ``max_legal_actions``."""

#: Per-game bound on the number of legal actions in one state: the size of both adapters'
#: action spaces (OpenSpiel's ``num_distinct_actions``, PettingZoo's ``Discrete`` and mask).
#: Blackfire's is derived from its rules on the designed castle (197 squares): the largest
#: list is a Revive token's prompt, up to 3 dead units x 197 squares + pass = 592, or a turn,
#: at most 1 stance + 3 x 196 moves + take + 2 x 8 revives + end = 607; 1024 leaves room for a
#: larger map.  The others are measured: each is at least 2.5 times the largest count seen
#: (issue 31's fuzz runs: Armies 107, Summoner's Quest 136; ``scripts/action_bounds.py``;
#: docs/ecosystem.md lists them).  A state with more legal actions raises
#: :func:`check_action_count`'s error, naming the game: never a silent clip.
ACTION_BOUNDS: dict[str, int] = {
    "armies": 320,
    "blackfire": 1024,
    "dungeons-jewel": 32,
    "summoners-quest": 384,
    "wizards-labyrinth": 512,
}
STABLE_ID_BITS = 24
STABLE_ID_SPACE = 1 << STABLE_ID_BITS
OBSERVATION_SIZE = 512


def action_key(action: Sequence[Any]) -> str:
    return json.dumps(list(action), separators=(",", ":"))


def stable_ids(legal: Sequence[tuple]) -> list[int]:
    """Stable ids of the legal actions, in the same order (collisions probe upward)."""
    used: set[int] = set()
    out = []
    for a in legal:
        i = zlib.crc32(action_key(a).encode()) % STABLE_ID_SPACE
        while i in used:
            i = (i + 1) % STABLE_ID_SPACE
        used.add(i)
        out.append(i)
    return out


def action_space_size(game: Any) -> int:
    """The size of ``game``'s action space (a game object or class): its bound on legal actions."""
    return int(getattr(game, "max_legal_actions", 0) or ACTION_BOUNDS.get(game.id, DEFAULT_ACTION_SPACE))


def check_action_count(game: Any, count: int, bound: int) -> None:
    """Fail loudly when a state offers more legal actions than the action space holds."""
    if count > bound:
        from boardlab.engine.errors import BoardlabError

        raise BoardlabError(
            f"{game.id}: {count} legal actions exceed the action space of {bound}; raise its bound in "
            "boardlab.envs.encoding.ACTION_BOUNDS (scripts/action_bounds.py measures them)"
        )


def _leaves(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for k in sorted(value, key=str):
            yield from _leaves(value[k], f"{path}.{k}")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _leaves(v, f"{path}[{i}]")
    else:
        yield path, value


def encode_view(view: dict[str, Any], size: int = OBSERVATION_SIZE) -> list[float]:
    """Hash a view into a fixed-length vector (see the module docs)."""
    vec = [0.0] * size
    for path, v in _leaves(view, ""):
        if isinstance(v, bool) or isinstance(v, str) or v is None:
            vec[zlib.crc32(f"{path}={v}".encode()) % size] += 1.0
        else:
            vec[zlib.crc32(path.encode()) % size] += float(v)
    return vec


def view_string(view: dict[str, Any]) -> str:
    """Canonical JSON of a view (for OpenSpiel observation strings)."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"))
