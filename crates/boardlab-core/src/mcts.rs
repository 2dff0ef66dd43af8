//! Information-set MCTS, the algorithm of `boardlab/agents/mcts.py` (`ISMCTSAgent`) with its
//! parameters, generic over a game (`SearchGame`) so that the other games can be added.
//! Float arithmetic and tree order are Rust's own: games may differ from Python's.

use crate::rng::{derive_seed, Rng};
use std::hash::Hash;
use std::time::{Duration, Instant};

/// What the search needs from a game.
pub trait SearchGame {
    type State: Clone;
    type Action: Copy + Eq + Hash + std::fmt::Debug;
    /// The game's heuristic agent (playouts, prior, guide, `only`).
    type Heuristic: Clone;

    fn players(&self) -> usize;
    fn current_seat(&self, st: &Self::State) -> Option<usize>;
    fn legal(&self, st: &Self::State, out: &mut Vec<Self::Action>);
    fn apply(&self, st: &mut Self::State, a: Self::Action);
    fn is_over(&self, st: &Self::State) -> bool;
    fn scores(&self, st: &Self::State, out: &mut Vec<f64>);
    /// Every seat's value at a depth cut-off (fitted evaluation or `evaluate`).
    fn values(&self, st: &Self::State, out: &mut Vec<f64>);
    fn determinize(&self, st: &Self::State, seat: usize, rng: &mut Rng) -> Self::State;
    fn set_rng(&self, st: &mut Self::State, rng: Rng);
    fn kind_of(&self, a: Self::Action) -> &'static str;
    fn heuristic(&self, seat: usize, seed: u64) -> Self::Heuristic;
    fn heuristic_act(&self, h: &mut Self::Heuristic, st: &Self::State, legal: &[Self::Action]) -> Self::Action;
    fn heuristic_rng<'a>(&self, h: &'a mut Self::Heuristic) -> &'a mut Rng;
    /// The parameters varied per playout (`Game.playout_variety`), sorted by name: (name, values).
    fn variety(&self) -> Vec<(String, Vec<f64>)>;
    fn set_param(&self, h: &mut Self::Heuristic, name: &str, value: f64);
}

#[derive(Clone, Debug)]
pub struct Params {
    pub iterations: u64,
    pub time_limit: f64,
    pub c: f64,
    pub heuristic_rollout: bool,
    pub depth: u64,
    pub prior: bool,
    pub bias: f64,
    pub paired: bool,
    pub variety: bool,
    pub expand_heuristic: bool,
    pub stop_sure: bool,
    pub only: Vec<String>,
}

struct Node<A> {
    visits: u64,
    total: f64,
    avail: u64,
    /// (acting seat, action, child index)
    kids: Vec<(u8, A, u32)>,
}

impl<A: Copy + Eq> Node<A> {
    fn new() -> Node<A> {
        Node { visits: 0, total: 0.0, avail: 0, kids: Vec::new() }
    }
}

fn find<A: Copy + Eq>(nodes: &[Node<A>], node: usize, seat: usize, a: A) -> Option<usize> {
    nodes[node].kids.iter().find(|k| k.0 as usize == seat && k.1 == a).map(|k| k.2 as usize)
}

pub struct Ismcts<G: SearchGame> {
    pub seat: usize,
    pub rng: Rng,
    pub p: Params,
    rollout_agents: Option<Vec<G::Heuristic>>,
    prior_agent: Option<G::Heuristic>,
    guide_agents: Option<Vec<G::Heuristic>>,
    only_agent: Option<G::Heuristic>,
    variety: Vec<(String, Vec<f64>)>,
    pub last_iterations: u64,
}

impl<G: SearchGame> Clone for Ismcts<G> {
    fn clone(&self) -> Self {
        Ismcts {
            seat: self.seat,
            rng: self.rng,
            p: self.p.clone(),
            rollout_agents: self.rollout_agents.clone(),
            prior_agent: self.prior_agent.clone(),
            guide_agents: self.guide_agents.clone(),
            only_agent: self.only_agent.clone(),
            variety: self.variety.clone(),
            last_iterations: self.last_iterations,
        }
    }
}

impl<G: SearchGame> Ismcts<G> {
    pub fn new(g: &G, seat: usize, seed: u64, p: Params) -> Ismcts<G> {
        let prior_agent = if p.prior { Some(g.heuristic(seat, derive_seed(seed, &[78]))) } else { None };
        let rollout_agents: Option<Vec<G::Heuristic>> = if p.heuristic_rollout {
            Some((0..g.players()).map(|s| g.heuristic(s, derive_seed(seed, &[77, s as i128]))).collect())
        } else {
            None
        };
        let guide_agents = if p.expand_heuristic {
            match &rollout_agents {
                Some(_) => None, // the playout agents guide (see `guide`)
                None => Some((0..g.players()).map(|s| g.heuristic(s, derive_seed(seed, &[79, s as i128]))).collect()),
            }
        } else {
            None
        };
        let variety = if rollout_agents.is_some() && p.variety { g.variety() } else { vec![] };
        let only_agent = if p.only.is_empty() { None } else { Some(g.heuristic(seat, derive_seed(seed, &[80]))) };
        Ismcts {
            seat,
            rng: Rng::new(seed),
            p,
            rollout_agents,
            prior_agent,
            guide_agents,
            only_agent,
            variety,
            last_iterations: 0,
        }
    }

    pub fn act(&mut self, g: &G, st: &G::State) -> G::Action {
        let mut legal = Vec::new();
        g.legal(st, &mut legal);
        if legal.len() == 1 {
            self.last_iterations = 0;
            return legal[0];
        }
        if let Some(h) = self.only_agent.as_mut() {
            let kind = g.kind_of(legal[0]);
            if !self.p.only.iter().any(|k| k == kind) {
                self.last_iterations = 0;
                return g.heuristic_act(h, st, &legal);
            }
        }
        let hint = self.prior_agent.as_mut().map(|h| g.heuristic_act(h, st, &legal));
        let (nodes, root_kids) = self.search(g, st, &legal, hint);
        let _ = root_kids;
        let visits = |a: G::Action| find(&nodes, 0, self.seat, a).map(|i| nodes[i].visits as i64);
        let mut best = match hint {
            Some(h) if visits(h).is_some() => h,
            _ => legal[0],
        };
        let mut best_visits = visits(best).unwrap_or(-1);
        for &a in &legal {
            if let Some(v) = visits(a) {
                if v > best_visits {
                    best = a;
                    best_visits = v;
                }
            }
        }
        best
    }

    fn search(&mut self, g: &G, st: &G::State, root_legal: &[G::Action], hint: Option<G::Action>) -> (Vec<Node<G::Action>>, ()) {
        let bias = if hint.is_some() { self.p.bias } else { 0.0 };
        let c = self.p.c;
        let depth_cap = self.p.depth;
        let iterations = self.p.iterations;
        let start = Instant::now();
        let deadline = if self.p.time_limit > 0.0 { Some(start + Duration::from_secs_f64(self.p.time_limit)) } else { None };
        let root_seat = self.seat;
        let sure = self.p.stop_sure && iterations > 0;
        let mut nodes: Vec<Node<G::Action>> = Vec::with_capacity(1024);
        nodes.push(Node::new());
        let mut worlds: Vec<(G::State, u64)> = Vec::new();
        let mut done: u64 = 0;
        let mut legal: Vec<G::Action> = Vec::with_capacity(16);
        let mut untried: Vec<G::Action> = Vec::with_capacity(16);
        let mut path: Vec<(usize, usize)> = Vec::with_capacity(64);
        let mut rewards: Vec<f64> = Vec::with_capacity(4);
        let mut rollout_agents = self.rollout_agents.take();
        let mut guide_agents = self.guide_agents.take();
        loop {
            if iterations > 0 && done >= iterations {
                break;
            }
            if sure && done > 0 {
                let (mut first, mut second) = (0u64, 0u64);
                for k in &nodes[0].kids {
                    if k.0 as usize == root_seat {
                        let v = nodes[k.2 as usize].visits;
                        if v > first {
                            second = first;
                            first = v;
                        } else if v > second {
                            second = v;
                        }
                    }
                }
                if first - second > iterations - done {
                    break;
                }
            }
            if let Some(dl) = deadline {
                if done > 0 && Instant::now() >= dl {
                    break;
                }
            }
            done += 1;
            path.clear();
            let mut node = 0usize;
            let mut steps = 0u64;
            let mut expanded = false;
            let mut state;
            let mut prng;
            let mut prng_is_main = false;
            if self.p.paired {
                for &a in root_legal {
                    if let Some(i) = find(&nodes, 0, root_seat, a) {
                        nodes[i].avail += 1;
                    }
                }
                let a = self.select_root(&nodes, root_legal, c, bias, hint);
                let child = match find(&nodes, 0, root_seat, a) {
                    Some(i) => i,
                    None => {
                        let i = nodes.len();
                        let mut n = Node::new();
                        n.avail = 1;
                        nodes.push(n);
                        nodes[0].kids.push((root_seat as u8, a, i as u32));
                        expanded = true;
                        i
                    }
                };
                let k = nodes[child].visits as usize;
                if k == worlds.len() {
                    let sample = g.determinize(st, root_seat, &mut self.rng);
                    let w = self.rng.next64();
                    worlds.push((sample, w));
                }
                let wseed = worlds[k].1;
                state = worlds[k].0.clone();
                g.set_rng(&mut state, Rng::new(wseed));
                prng = Rng::new(wseed ^ 0x5DEECE66D);
                if let Some(agents) = rollout_agents.as_mut() {
                    for (s, agent) in agents.iter_mut().enumerate() {
                        *g.heuristic_rng(agent) = Rng::new(wseed.wrapping_add(s as u64 + 1));
                    }
                    if !self.variety.is_empty() {
                        let mut vr = Rng::new(wseed ^ 0x9E3779B9);
                        vary(g, agents, &self.variety, &mut vr);
                    }
                }
                g.apply(&mut state, a);
                path.push((child, root_seat));
                node = child;
                steps = 1;
            } else {
                state = g.determinize(st, root_seat, &mut self.rng);
                prng = Rng::new(0);
                prng_is_main = true;
                if !self.variety.is_empty() {
                    if let Some(agents) = rollout_agents.as_mut() {
                        vary(g, agents, &self.variety, &mut self.rng);
                    }
                }
            }
            // selection and expansion
            while !expanded && !(depth_cap > 0 && steps >= depth_cap) {
                let Some(seat) = g.current_seat(&state) else { break };
                g.legal(&state, &mut legal);
                untried.clear();
                let mut best: Option<(G::Action, usize)> = None;
                let mut best_score = -1.0f64;
                for &a in &legal {
                    match find(&nodes, node, seat, a) {
                        None => untried.push(a),
                        Some(i) => {
                            let ch = &mut nodes[i];
                            ch.avail += 1;
                            if untried.is_empty() {
                                let v = ch.visits as f64;
                                let mut score = ch.total / v + c * ((ch.avail as f64).ln() / v).sqrt();
                                if bias > 0.0 && Some(a) == hint && node == 0 {
                                    score += bias / (v + 1.0);
                                }
                                if score > best_score {
                                    best = Some((a, i));
                                    best_score = score;
                                }
                            }
                        }
                    }
                }
                if !untried.is_empty() {
                    let a = if bias > 0.0 && node == 0 && hint.map_or(false, |h| untried.contains(&h)) {
                        hint.unwrap()
                    } else if self.p.expand_heuristic && node != 0 && untried.len() > 1 {
                        let guide = match (rollout_agents.as_mut(), guide_agents.as_mut()) {
                            (Some(r), _) => &mut r[seat],
                            (None, Some(gd)) => &mut gd[seat],
                            _ => unreachable!(),
                        };
                        let a = g.heuristic_act(guide, &state, &legal);
                        if untried.contains(&a) {
                            a
                        } else {
                            untried[self.rng.below(untried.len() as u64) as usize]
                        }
                    } else if untried.len() > 1 {
                        untried[self.rng.below(untried.len() as u64) as usize]
                    } else {
                        untried[0]
                    };
                    let i = nodes.len();
                    let mut n = Node::new();
                    n.avail = 1;
                    nodes.push(n);
                    nodes[node].kids.push((seat as u8, a, i as u32));
                    g.apply(&mut state, a);
                    path.push((i, seat));
                    steps += 1;
                    break;
                }
                let (a, i) = best.expect("a node with no untried action has a best child");
                g.apply(&mut state, a);
                path.push((i, seat));
                node = i;
                steps += 1;
                if depth_cap > 0 && steps >= depth_cap {
                    break;
                }
            }
            // playout
            while !(depth_cap > 0 && steps >= depth_cap) {
                let Some(seat) = g.current_seat(&state) else { break };
                g.legal(&state, &mut legal);
                let a = match rollout_agents.as_mut() {
                    None => {
                        if legal.len() > 1 {
                            let r = if prng_is_main { &mut self.rng } else { &mut prng };
                            legal[r.below(legal.len() as u64) as usize]
                        } else {
                            legal[0]
                        }
                    }
                    Some(agents) => g.heuristic_act(&mut agents[seat], &state, &legal),
                };
                g.apply(&mut state, a);
                steps += 1;
            }
            if g.is_over(&state) {
                g.scores(&state, &mut rewards);
            } else {
                g.values(&state, &mut rewards);
            }
            for &(i, seat) in &path {
                nodes[i].visits += 1;
                nodes[i].total += rewards[seat];
            }
        }
        self.rollout_agents = rollout_agents;
        self.guide_agents = guide_agents;
        self.last_iterations = done;
        (nodes, ())
    }

    fn select_root(&mut self, nodes: &[Node<G::Action>], legal: &[G::Action], c: f64, bias: f64, hint: Option<G::Action>) -> G::Action {
        let untried: Vec<G::Action> = legal.iter().copied().filter(|&a| find(nodes, 0, self.seat, a).is_none()).collect();
        if !untried.is_empty() {
            if bias > 0.0 {
                if let Some(h) = hint {
                    if untried.contains(&h) {
                        return h;
                    }
                }
            }
            return if untried.len() > 1 { untried[self.rng.below(untried.len() as u64) as usize] } else { untried[0] };
        }
        let mut best = legal[0];
        let mut best_score = -1.0f64;
        for &a in legal {
            let ch = &nodes[find(nodes, 0, self.seat, a).unwrap()];
            let v = ch.visits as f64;
            let mut score = ch.total / v + c * ((ch.avail as f64).ln() / v).sqrt();
            if bias > 0.0 && Some(a) == hint {
                score += bias / (v + 1.0);
            }
            if score > best_score {
                best = a;
                best_score = score;
            }
        }
        best
    }
}

fn vary<G: SearchGame>(g: &G, agents: &mut [G::Heuristic], variety: &[(String, Vec<f64>)], rng: &mut Rng) {
    for agent in agents.iter_mut() {
        for (key, values) in variety {
            let v = values[rng.below(values.len() as u64) as usize];
            g.set_param(agent, key, v);
        }
    }
}
