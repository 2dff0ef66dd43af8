"""Saved games: ``Hero`` moved from ``state.py`` to ``rules.py`` (issue 22); documents naming the old record still load."""

from __future__ import annotations

from boardlab.engine import State, make
from boardlab.games.wizards_labyrinth.game import LabyrinthState
from boardlab.games.wizards_labyrinth.rules import Hero

OLD = "boardlab.games.wizards_labyrinth.state.Hero"
NEW = "boardlab.games.wizards_labyrinth.rules.Hero"


def _played(decisions: int = 30, history: bool = True) -> LabyrinthState:
    game = make("wizards-labyrinth", players=4)
    game.record_events = True
    s = game.new_state(5)
    while s.decisions < decisions:
        s.apply(s.legal_actions()[0])
    if not history:
        s.forget_history()
    return s


def test_hero_is_saved_under_its_new_name():
    text = _played().dumps()
    assert NEW in text and OLD not in text


def test_a_document_naming_the_old_hero_record_loads():
    s = _played(history=False)
    text = s.dumps()
    old = text.replace(NEW, OLD)
    assert old.count(OLD) == len(s.heroes) == 3
    loaded = State.loads(old)
    assert type(loaded) is LabyrinthState
    assert all(type(h) is Hero for h in loaded.heroes)
    assert loaded.dumps() == text  # saved again under the new name, otherwise identical
    assert loaded.legal_actions() == s.legal_actions()


def test_a_document_with_history_naming_the_old_hero_record_loads():
    s = _played()
    loaded = State.loads(s.dumps().replace(NEW, OLD))
    assert loaded.dumps() == s.dumps()
