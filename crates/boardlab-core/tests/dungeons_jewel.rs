//! The crate's own checks of the Dungeon's Jewel rules (`cargo test --no-default-features`).
//! The specs in tests/data were written by `core_spec` (boardlab/games/dungeons_jewel/core.py);
//! the expected values below are what the Python reference gives for the same seeds.

use boardlab_core::agents::parse;
use boardlab_core::dungeons_jewel::game::Game;
use boardlab_core::dungeons_jewel::state::{Action, State};
use boardlab_core::dungeons_jewel::{play_game, Agent};
use boardlab_core::rng::Rng;

fn game(name: &str) -> Game {
    let path = format!("{}/tests/data/{}.json", env!("CARGO_MANIFEST_DIR"), name);
    Game::from_spec(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn setup_matches_the_reference() {
    // Python: make("dungeons-jewel", players=2).new_state(7): first 0, moves 1 and 7
    let g = game("dungeons_jewel_rulebook_2");
    let st = State::new(&g, 7, 0, true);
    assert_eq!(st.first, 0);
    assert_eq!(st.legal_actions(&g), vec![Action::Move(1), Action::Move(7)]);
    assert_eq!(st.rng.state, 8166725934087849623);
    let top: Vec<&str> = st.pile[st.pile.len() - 3..].iter().map(|&k| g.token_ids[k as usize].as_str()).collect();
    assert_eq!(top, vec!["gas", "fire", "trapdoor"]);
    let g4 = game("dungeons_jewel_revised_4");
    let st4 = State::new(&g4, 7, 0, true);
    assert_eq!(st4.first, 2);
    assert_eq!(st4.legal_actions(&g4), vec![Action::Move(41), Action::Move(47)]);
    assert_eq!(st4.rng.state, 12521411499024694977);
}

#[test]
fn random_games_end_and_every_action_is_legal() {
    for name in ["dungeons_jewel_rulebook_2", "dungeons_jewel_revised_4"] {
        let g = game(name);
        for seed in 0..30 {
            let mut st = State::new(&g, seed, 200, seed % 2 == 0);
            let mut rng = Rng::new(seed as u64 + 99);
            while let Some(_) = st.current_seat() {
                let legal = st.legal_actions(&g);
                assert!(!legal.is_empty(), "a seat must always have an action");
                let a = legal[rng.below(legal.len() as u64) as usize];
                st.apply(&g, a);
            }
            assert!(st.truncated || st.winner >= 0);
            assert!(st.turn <= 201);
            // the tokens on the board and in the pile never exceed the token pile
            let placed = st.tokens.iter().filter(|&&k| k != u8::MAX).count();
            assert_eq!(placed + st.pile.len(), g.pile0.len());
        }
    }
}

#[test]
fn determinization_keeps_the_seats_view() {
    let g = game("dungeons_jewel_revised_4");
    let mut st = State::new(&g, 3, 0, false);
    let mut rng = Rng::new(5);
    for _ in 0..120 {
        let legal = st.legal_actions(&g);
        st.apply(&g, legal[rng.below(legal.len() as u64) as usize]);
    }
    for seat in 0..4 {
        let mut r = Rng::new(seat as u64);
        let d = st.determinize(&g, seat, &mut r);
        assert_eq!(d.view(&g, Some(seat)), st.view(&g, Some(seat)));
        assert_eq!(d.legal_actions(&g), st.legal_actions(&g));
        let mut a = d.pile.clone();
        let mut b = st.pile.clone();
        a.extend(d.tokens.iter().filter(|&&k| k != u8::MAX));
        b.extend(st.tokens.iter().filter(|&&k| k != u8::MAX));
        a.sort();
        b.sort();
        assert_eq!(a, b, "a determinization deals the same tokens");
    }
}

#[test]
fn agents_choose_legal_actions() {
    let g = game("dungeons_jewel_rulebook_2");
    for spec in ["random", "heuristic", "heuristic:strength=6:caution=1.5", "ismcts:iterations=30"] {
        let sp = parse(spec).unwrap();
        let mut st = State::new(&g, 11, 0, false);
        let mut agents: Vec<Agent> = (0..2).map(|s| Agent::new(&g, &sp, s, 40 + s as u64)).collect();
        for _ in 0..60 {
            let Some(seat) = st.current_seat() else { break };
            let legal = st.legal_actions(&g);
            let a = agents[seat].act(&g, &st, &legal);
            assert!(legal.contains(&a), "{} chose {:?} out of {:?}", spec, a, legal);
            st.apply(&g, a);
        }
    }
}

#[test]
fn play_game_is_reproducible() {
    let g = game("dungeons_jewel_revised_4");
    let specs: Vec<_> = ["heuristic", "random", "heuristic", "random"].iter().map(|s| parse(s).unwrap()).collect();
    let a = play_game(&g, &specs, 21, 0, true);
    let b = play_game(&g, &specs, 21, 0, true);
    assert_eq!(a.actions, b.actions);
    assert_eq!(a.decisions as usize, a.actions.len());
    assert!(a.truncated || a.winners.len() == 1);
}

#[test]
fn specs_the_core_cannot_play_are_refused() {
    for bad in ["", "mcts", "ismcts:eval=game", "heuristic:x=1", "random:seed=3", "ismcts:iterations=0"] {
        assert!(parse(bad).is_err(), "{:?} should be refused", bad);
    }
}
