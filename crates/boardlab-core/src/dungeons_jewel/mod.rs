//! The Dungeon's Jewel (`boardlab/games/dungeons_jewel`), move for move the Python rules.

pub mod game;
pub mod heuristic;
pub mod state;

use crate::agents::{AgentSpec, SearchSpec};
use crate::mcts::{Ismcts, Params, SearchGame};
use crate::rng::{derive_seed, Rng};
use game::Game;
use heuristic::Heuristic;
use state::{Action, State};

impl SearchGame for Game {
    type State = State;
    type Action = Action;
    type Heuristic = Heuristic;

    fn players(&self) -> usize {
        self.players
    }
    fn current_seat(&self, st: &State) -> Option<usize> {
        st.current_seat()
    }
    fn legal(&self, st: &State, out: &mut Vec<Action>) {
        st.legal_into(self, out)
    }
    fn apply(&self, st: &mut State, a: Action) {
        st.apply(self, a)
    }
    fn is_over(&self, st: &State) -> bool {
        st.is_over()
    }
    fn scores(&self, st: &State, out: &mut Vec<f64>) {
        out.clear();
        out.extend(st.scores(self));
    }
    fn values(&self, st: &State, out: &mut Vec<f64>) {
        st.values(self, out)
    }
    fn determinize(&self, st: &State, seat: usize, rng: &mut Rng) -> State {
        st.determinize(self, seat, rng)
    }
    fn set_rng(&self, st: &mut State, rng: Rng) {
        st.rng = rng;
    }
    fn kind_of(&self, a: Action) -> &'static str {
        a.kind()
    }
    fn heuristic(&self, seat: usize, seed: u64) -> Heuristic {
        Heuristic::new(self, seat, seed)
    }
    fn heuristic_act(&self, h: &mut Heuristic, st: &State, legal: &[Action]) -> Action {
        h.act(self, st, legal)
    }
    fn heuristic_rng<'a>(&self, h: &'a mut Heuristic) -> &'a mut Rng {
        &mut h.rng
    }
    fn variety(&self) -> Vec<(String, Vec<f64>)> {
        if self.variety_strength.is_empty() {
            vec![]
        } else {
            vec![("strength".to_string(), self.variety_strength.clone())]
        }
    }
    fn set_param(&self, h: &mut Heuristic, name: &str, value: f64) {
        match name {
            "strength" => h.strength = value,
            "caution" => h.caution = value,
            "patience" => h.patience = value,
            _ => {}
        }
    }
}

/// A playing agent of this game.
#[derive(Clone)]
pub enum Agent {
    Random(Rng),
    Heuristic(Heuristic),
    Ismcts(Box<Ismcts<Game>>),
}

impl Agent {
    pub fn new(g: &Game, spec: &AgentSpec, seat: usize, seed: u64) -> Agent {
        match spec {
            AgentSpec::Random => Agent::Random(Rng::new(seed)),
            AgentSpec::Heuristic { strength, caution, patience } => {
                let mut h = Heuristic::new(g, seat, seed);
                if let Some(v) = strength {
                    h.strength = *v;
                }
                if let Some(v) = caution {
                    h.caution = *v;
                }
                if let Some(v) = patience {
                    h.patience = *v;
                }
                Agent::Heuristic(h)
            }
            AgentSpec::Ismcts(s) => Agent::Ismcts(Box::new(Ismcts::new(g, seat, seed, search_params(g, s)))),
        }
    }

    pub fn act(&mut self, g: &Game, st: &State, legal: &[Action]) -> Action {
        match self {
            Agent::Random(rng) => legal[rng.below(legal.len() as u64) as usize],
            Agent::Heuristic(h) => h.act(g, st, legal),
            Agent::Ismcts(m) => m.act(g, st),
        }
    }
}

/// The Python ISMCTS defaults resolved for this game (it has a heuristic and a fitted evaluation).
pub fn search_params(g: &Game, s: &SearchSpec) -> Params {
    let has_values = g.eval_models.is_some() || g.has_own_evaluate;
    Params {
        iterations: s.iterations,
        time_limit: s.time_limit,
        c: s.c,
        heuristic_rollout: s.rollout != "random",
        depth: match s.depth {
            None => {
                if has_values {
                    12
                } else {
                    0
                }
            }
            Some(d) => d,
        },
        prior: s.prior == "heuristic" || (s.prior == "auto" && s.bias > 0.0),
        bias: s.bias,
        paired: s.worlds == "paired",
        variety: s.variety == "auto",
        expand_heuristic: s.expand == "heuristic",
        stop_sure: s.stop == "sure",
        only: s.only.clone(),
    }
}

/// One game as `runner.play_game` plays it; the record's fields (minus metrics, plus stats).
pub struct Record {
    pub seed: i128,
    pub scores: Vec<f64>,
    pub winners: Vec<usize>,
    pub truncated: bool,
    pub reason: String,
    pub turns: u32,
    pub decisions: u32,
    pub actions: Vec<Action>,
    pub stats: Vec<u32>,
}

pub fn play_game(g: &Game, specs: &[AgentSpec], seed: i128, max_turns: u32, keep_actions: bool) -> Record {
    let useed = seed.rem_euclid(1i128 << 64) as u64;
    let mut agents: Vec<Agent> =
        specs.iter().enumerate().map(|(s, sp)| Agent::new(g, sp, s, derive_seed(useed, &[1000 + s as i128]))).collect();
    let mut st = State::new(g, seed, max_turns, false);
    let mut legal = Vec::with_capacity(16);
    let mut actions = vec![];
    while let Some(seat) = st.current_seat() {
        st.legal_into(g, &mut legal);
        let a = agents[seat].act(g, &st, &legal);
        st.apply(g, a);
        if keep_actions {
            actions.push(a);
        }
    }
    let truncated = st.truncated;
    Record {
        seed,
        scores: st.scores(g),
        winners: if truncated { vec![] } else { vec![st.winner as usize] },
        truncated,
        reason: if truncated { "turn cap reached".into() } else { "brought the jewel home".into() },
        turns: st.turn,
        decisions: st.decisions,
        actions,
        stats: st.stats.clone(),
    }
}
