"""Names typed in the lobby replace "Player N" (and numbered role names) in scenes, labels and logs."""

from boardlab.engine import make
from boardlab.engine.scene import rename_seats


def test_player_n_becomes_the_typed_name_everywhere_but_ids():
    game = make("blackfire")
    st = game.new_state(1)
    while st.view(0)["state"]["phase"] == "place":
        st.apply(st.legal_actions()[0])
    seat = st.current_seat()
    scene = game.scene(st.view(seat), st.legal_actions())
    names = ["Ada", "Player 2"]
    named = rename_seats(scene, game.seat_names(), names)
    assert named["status"].startswith(f"{names[seat]} (")
    titles = [p["title"] for p in named["panels"]]
    assert any(t.endswith("- Ada") for t in titles) and not any("Player 1" in t for t in titles)
    assert any("Player 2" in t for t in titles)  # a seat that kept its default name keeps it
    assert [t["clicks"] for t in named["targets"]] == [t["clicks"] for t in scene["targets"]]
    assert scene["status"].startswith("Player 1")  # the original is not changed


def test_numbered_roles_keep_the_role_and_role_panels_get_the_name():
    game = make("wizards-labyrinth")
    st = game.new_state(1)
    scene = rename_seats(game.scene(st.view(0), st.legal_actions()), game.seat_names(), ["Ada", "Bob", "Hero 2", "Cy"])
    titles = {p.get("seat"): p["title"] for p in scene["panels"]}
    assert titles[0] == "Ada · Wizard" and titles[1] == "Bob (Hero 1)" and titles[2] == "Hero 2" and titles[3] == "Cy (Hero 3)"
    assert scene["status"].startswith("Ada (Wizard) to act")


def test_events_keep_their_data_and_numbers_do_not_run_on():
    events = [{"text": "Player 1 passes to Player 10.", "data": {"who": "Player 1"}}]
    out = rename_seats(events, [f"Player {i + 1}" for i in range(10)], ["Ada"] + [f"Player {i + 1}" for i in range(1, 10)])
    assert out == [{"text": "Ada passes to Player 10.", "data": {"who": "Player 1"}}]
