//! The crate's own checks of the Blackfire rules (`cargo test --no-default-features`).
//! The specs in tests/data were written by `core_spec` (boardlab/games/blackfire/core.py);
//! the expected values below are what the Python reference gives for the same seeds.

use boardlab_core::blackfire::game::Game;
use boardlab_core::blackfire::state::{Action, State};
use boardlab_core::blackfire::{parse, play_game, Agent, Spec};
use boardlab_core::json::J;
use boardlab_core::rng::Rng;

fn game(name: &str) -> Game {
    let path = format!("{}/tests/data/{}.json", env!("CARGO_MANIFEST_DIR"), name);
    Game::from_spec(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn setup_matches_the_reference() {
    // Python: make("blackfire", variant="prototype").new_state(7)
    let g = game("blackfire_prototype");
    let st = State::new(&g, 7, 0, true);
    assert_eq!(st.rng.state, 12036054880848365869);
    let legal = st.legal_actions(&g);
    assert_eq!(legal.len(), 181);
    assert_eq!(&legal[..3], &[Action::Place(1), Action::Place(2), Action::Place(4)]);
    assert_eq!(st.current_seat(), Some(0));
    assert_eq!(st.tokens.len(), 7); // the seven treasure rooms
}

#[test]
fn a_whole_game_matches_the_reference() {
    // Python: runner.play_game(make("blackfire"), ["random", "heuristic"], 7, keep_actions=True)
    let g = game("blackfire_final");
    let specs = vec![Spec::Random, parse("heuristic", &g.heuristic).unwrap()];
    let rec = play_game(&g, &specs, 7, 0, true);
    assert_eq!((rec.decisions, rec.turns), (30, 8));
    assert_eq!(rec.winners, vec![1]);
    assert_eq!(rec.reason, "green has no unit left");
    let first: Vec<J> = rec.actions[..9].iter().map(|a| a.to_j()).collect();
    assert_eq!(J::Arr(first).dumps(), "[[\"place\", 34], [\"place\", 123], [\"place\", 51], [\"place\", 110], [\"place\", 174], \
[\"place\", 124], [\"place\", 82], [\"place\", 50], [\"move\", 2, 111]]");
    // replayed with events on, the state document carries Python's digest
    let mut st = State::new(&g, 7, 0, true);
    for &a in &rec.actions {
        assert!(st.legal_actions(&g).contains(&a));
        st.apply(&g, a);
    }
    assert_eq!(st.rng.state, 2298681937012504961);
    let J::Obj(doc) = st.to_json(&g) else { panic!() };
    let digest = doc.iter().find(|(k, _)| k == "digest").unwrap().1.clone();
    assert_eq!(digest, J::s("efc86959e43c8cf6595f870680e831e3"));
}

#[test]
fn random_games_end_and_keep_every_token() {
    for name in ["blackfire_final", "blackfire_prototype"] {
        let g = game(name);
        let total: u32 = g.token_counts.iter().map(|&(_, n)| n).sum();
        for seed in 0..40 {
            let mut st = State::new(&g, seed, 150, seed % 2 == 0);
            let mut rng = Rng::new(seed as u64 + 99);
            while st.current_seat().is_some() {
                let legal = st.legal_actions(&g);
                assert!(!legal.is_empty(), "a seat must always have an action");
                st.apply(&g, legal[rng.below(legal.len() as u64) as usize]);
                let picked: u32 = st.revealed.iter().map(|e| e.1).sum();
                assert_eq!(st.tokens.len() as u32 + st.bag.len() as u32 + picked, total);
                // every living unit stands on an accessible square of the castle
                assert!(st.units.iter().filter_map(|u| u.cell).all(|c| !g.blocked[c as usize]), "{} seed {}", name, seed);
            }
            assert!(st.truncated || st.winner.is_some());
        }
    }
}

#[test]
fn the_heuristic_spec_reads_personas_and_weights() {
    let g = game("blackfire_final");
    assert!(parse("heuristic:persona=wizard", &g.heuristic).is_err());
    assert!(parse("heuristic:noise=-1", &g.heuristic).is_err());
    assert!(parse("heuristic:strength=5", &g.heuristic).is_err());
    let Spec::Heuristic(p) = parse("heuristic:persona=hunter:kill=2:stay=-1", &g.heuristic).unwrap() else { panic!() };
    assert_eq!((p.persona.as_str(), p.kill, p.stay, p.noise), ("hunter", 2.0, -1.0, 1.0));
    // a search agent plays whole games
    let spec = parse("ismcts:iterations=20", &g.heuristic).unwrap();
    let mut agents = [Agent::new(&g, &spec, 0, 1), Agent::new(&g, &Spec::Random, 1, 2)];
    let mut st = State::new(&g, 3, 40, false);
    while let Some(seat) = st.current_seat() {
        let legal = st.legal_actions(&g);
        let a = agents[seat].act(&g, &st, &legal);
        assert!(legal.contains(&a));
        st.apply(&g, a);
    }
}
