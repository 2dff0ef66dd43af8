"""A log line that begins with a seat's name names the seat its event is about (issue 42, the mutants).

Each built-in game writes lines such as "Player 2 equips Aegis on P1." with ``{"seat": 1, ...}`` as the
event's data.  The sampled mutation runs found many surviving mutants of one kind: ``Player {seat + 1}``
turned into ``{seat ^ 1}``, ``{seat * 1}`` or ``{seat + 0}`` on lines only one seat's tests ever read.
This check plays seeded random games of every variant at the smallest and largest player counts and
compares, for every line that begins with a seat's name (``Game.seat_names()``, without a parenthesis)
and carries a ``seat`` (or a ``winner``) in its data, the name with that seat's.  Where seats are named
"Player N", every "Player N" anywhere in a line, public or private, must number a seat (1 to the
player count): "Player 0", "Player 1.0" and "Player 4" of three are caught wherever they stand.  Lines about someone else ("Switcheroo:
...", "The white General ...") do not begin with a seat's name and are not read."""

from __future__ import annotations

import random
import re

import pytest

from boardlab.engine import make
from boardlab.games import BUILTIN

ACTIONS_PER_GAME = 400
SEEDS = range(8)


def _names(game) -> list[str]:
    return [re.sub(r"\s*\(.*\)$", "", n) for n in game.seat_names()]


def _configs(gid: str):
    g = make(gid)
    for variant in g.variants:
        for players in sorted({g.min_players, g.max_players}):
            yield variant.name, players


NUMBERED = re.compile(r"\bPlayer (\S+?)(?=[\s.,:;'!)]|$)")


def _mismatches(game, st) -> tuple[int, list[str]]:
    names = _names(game)
    pattern = re.compile(r"^(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")\b")
    numbered = any(re.fullmatch(r"Player \d+", n) for n in names)
    read, bad = 0, []
    for entry in st._entries():
        text, data = entry[3], entry[4]
        private = entry[6] if len(entry) > 6 else None
        if numbered:
            # wherever a line numbers a player ("Turn order: Player 2, Player 3"), the number is a seat's
            for t in (text, private):
                for m in NUMBERED.finditer(t or ""):
                    read += 1
                    if m.group(1) not in {str(s + 1) for s in range(game.players)}:
                        bad.append(f"{t!r} numbers a player {m.group(1)!r}")
        if not isinstance(data, dict) or not text:
            continue
        seat = data.get("seat", data.get("winner"))
        if not isinstance(seat, int):
            continue
        m = pattern.match(text)
        if m is None:
            continue
        read += 1
        if m.group(1) != names[seat]:
            bad.append(f"{text!r} with seat {seat} ({names[seat]})")
    return read, bad


@pytest.mark.parametrize("gid", sorted(BUILTIN))
def test_a_line_that_begins_with_a_seats_name_is_about_that_seat(gid):
    read, bad = 0, []
    for variant, players in _configs(gid):
        game = make(gid, players=players, variant=variant)
        for seed in SEEDS:
            st = game.new_state(seed)
            rng = random.Random(seed)
            for _ in range(ACTIONS_PER_GAME):
                if st.is_over():
                    break
                st.apply(rng.choice(st.legal_actions()))
            n, b = _mismatches(game, st)
            read += n
            bad += [f"{variant} {players}p seed {seed}: {x}" for x in b]
    assert read >= 50, f"only {read} lines read: the check would see nothing"
    assert not bad, "\n".join(bad[:10])
