//! Blackfire (`boardlab/games/blackfire`), move for move the Python rules.

pub mod from_json;
pub mod game;
pub mod heuristic;
pub mod state;

use crate::agents::{self, number, typed, AgentSpec, Value};
use crate::mcts::{Ismcts, Params, SearchGame};
use crate::rng::{derive_seed, Rng};
use game::{Game, HParams};
use heuristic::{Heuristic, PERSONAS};
use state::{Action, State};

impl SearchGame for Game {
    type State = State;
    type Action = Action;
    type Heuristic = Heuristic;

    fn players(&self) -> usize {
        2
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
        out.extend(st.scores());
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
        self.variety.clone()
    }
    fn set_param(&self, h: &mut Heuristic, name: &str, value: f64) {
        // a varied weight multiplies the persona's (the default persona's factors are 1)
        match name {
            "noise" => h.noise = value,
            "progress" => h.progress = value,
            "danger" => h.danger = value,
            "kill" => h.kill = value,
            "hunt" => h.hunt = value,
            "token" => h.token = value,
            "stay" => h.stay = value,
            _ => {}
        }
    }
}

/// An agent spec the core plays for Blackfire.
#[derive(Clone, Debug)]
pub enum Spec {
    Random,
    Heuristic(HParams),
    Ismcts(agents::SearchSpec),
}

/// Parse an agent spec for Blackfire (its heuristic's parameters are `HeuristicAgent`'s:
/// noise, persona, progress, danger, kill, hunt, token and stay); `Err` with a one-line reason.
pub fn parse(spec: &str, defaults: &HParams) -> Result<Spec, String> {
    let trimmed = spec.trim();
    if trimmed.split(':').next() != Some("heuristic") {
        return match agents::parse(spec)? {
            AgentSpec::Random => Ok(Spec::Random),
            AgentSpec::Ismcts(s) => Ok(Spec::Ismcts(s)),
            AgentSpec::Heuristic { .. } => unreachable!(),
        };
    }
    let mut p = defaults.clone();
    let mut seen: Vec<String> = vec![];
    for part in trimmed.split(':').skip(1) {
        let Some((key, raw)) = part.split_once('=') else {
            return Err(format!("agent parameter {:?} in {:?} must look like key=value", part, trimmed));
        };
        if key.is_empty() {
            return Err(format!("agent parameter {:?} in {:?} must look like key=value", part, trimmed));
        }
        if seen.iter().any(|k| k == key) {
            return Err(format!("agent parameter {:?} is given twice in {:?}", key, trimmed));
        }
        seen.push(key.to_string());
        let v = typed(raw);
        if key == "persona" {
            match &v {
                Value::Str(name) if PERSONAS.contains(&name.as_str()) && !name.is_empty() => p.persona = name.clone(),
                _ => return Err(format!("unknown persona {:?}", raw)),
            }
            continue;
        }
        let x = match key {
            "noise" | "progress" | "danger" | "kill" | "hunt" | "token" | "stay" => number(key, &v)?,
            _ => return Err(format!("agent HeuristicAgent has no parameter {:?}", key)),
        };
        if key != "stay" && x < 0.0 {
            return Err(format!("heuristic parameter {} must be a non-negative number", key));
        }
        match key {
            "noise" => p.noise = x,
            "progress" => p.progress = x,
            "danger" => p.danger = x,
            "kill" => p.kill = x,
            "hunt" => p.hunt = x,
            "token" => p.token = x,
            _ => p.stay = x,
        }
    }
    Ok(Spec::Heuristic(p))
}

/// A playing agent of this game.
#[derive(Clone)]
pub enum Agent {
    Random(Rng),
    Heuristic(Heuristic),
    Ismcts(Box<Ismcts<Game>>),
}

impl Agent {
    pub fn new(g: &Game, spec: &Spec, seat: usize, seed: u64) -> Agent {
        match spec {
            Spec::Random => Agent::Random(Rng::new(seed)),
            Spec::Heuristic(p) => Agent::Heuristic(Heuristic::with(p, seat, seed)),
            Spec::Ismcts(s) => Agent::Ismcts(Box::new(Ismcts::new(g, seat, seed, search_params(s)))),
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

/// The Python ISMCTS defaults resolved for this game (a heuristic agent, its own `evaluate`
/// and a fitted evaluation: depth `auto` is 12).
pub fn search_params(s: &agents::SearchSpec) -> Params {
    Params {
        iterations: s.iterations,
        time_limit: s.time_limit,
        c: s.c,
        heuristic_rollout: s.rollout != "random",
        depth: s.depth.unwrap_or(12),
        prior: s.prior == "heuristic" || (s.prior == "auto" && s.bias > 0.0),
        bias: s.bias,
        paired: s.worlds == "paired",
        variety: s.variety == "auto",
        expand_heuristic: s.expand == "heuristic",
        stop_sure: s.stop == "sure",
        only: s.only.clone(),
    }
}

/// One game as `runner.play_game` plays it.
pub struct Record {
    pub seed: i128,
    pub scores: Vec<f64>,
    pub winners: Vec<usize>,
    pub truncated: bool,
    pub reason: String,
    pub turns: u32,
    pub decisions: u32,
    pub roles: [&'static str; 2],
    pub actions: Vec<Action>,
    pub stats: [[u32; 2]; 24],
}

pub fn play_game(g: &Game, specs: &[Spec], seed: i128, max_turns: u32, keep_actions: bool) -> Record {
    let useed = seed.rem_euclid(1i128 << 64) as u64;
    let mut agents: Vec<Agent> =
        specs.iter().enumerate().map(|(s, sp)| Agent::new(g, sp, s, derive_seed(useed, &[1000 + s as i128]))).collect();
    let mut st = State::new(g, seed, max_turns, false);
    let mut legal = Vec::with_capacity(32);
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
        scores: st.scores(),
        winners: if truncated { vec![] } else { vec![st.seat_of(st.winner.unwrap())] },
        truncated,
        reason: if truncated { "turn cap reached".into() } else { st.reason.clone() },
        turns: st.turn,
        decisions: st.decisions,
        roles: st.roles(),
        actions,
        stats: st.stats,
    }
}
