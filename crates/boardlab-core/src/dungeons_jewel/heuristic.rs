//! The heuristic agent of `boardlab/games/dungeons_jewel/agents.py`, decision for decision:
//! it reads only what its seat's view shows (faces it knows, counts, positions, walls).

use super::game::{Game, TType};
use super::state::{Action, Prompt, State, NO_TOKEN};
use crate::rng::Rng;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

#[derive(Clone, Debug)]
pub struct Heuristic {
    pub seat: usize,
    pub rng: Rng,
    pub strength: f64,
    pub caution: f64,
    pub patience: f64,
}

#[derive(PartialEq)]
struct Entry(f64, usize);
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    // a min-heap on (cost, cell), as Python's heapq orders its tuples
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.partial_cmp(&self.0).unwrap_or(Ordering::Equal).then_with(|| other.1.cmp(&self.1))
    }
}

/// Python's `a // b` for the non-negative turn and positive patience the agent uses.
fn floordiv(a: f64, b: f64) -> f64 {
    (a / b).floor()
}

impl Heuristic {
    pub fn new(g: &Game, seat: usize, seed: u64) -> Heuristic {
        Heuristic { seat, rng: Rng::new(seed), strength: g.h_strength, caution: g.h_caution, patience: g.h_patience }
    }

    pub fn act(&mut self, g: &Game, st: &State, legal: &[Action]) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        match legal[0] {
            Action::Place(_) => Action::Place(false),
            Action::Use(_) | Action::Roll => legal[0],
            Action::Take(_) => {
                for &a in legal {
                    if let Action::Take(i) = a {
                        if g.item_attack[i as usize] {
                            return a;
                        }
                    }
                }
                legal[0]
            }
            Action::Wall(_) => self.wall(g, st, legal),
            _ => self.turn(g, st, legal),
        }
    }

    fn fail_chance(&self, g: &Game, st: &State) -> Vec<f64> {
        let me = self.seat;
        let die = g.die as f64;
        let p_hazard = ((g.hazard - 1) as f64 / die).max(0.0).min(1.0);
        let p_monster = ((g.monster - 1 - st.power[me]) as f64 / die).max(0.0).min(1.0);
        let unknown = p_hazard * 0.8 + p_monster * 0.2;
        let mut risk = vec![unknown; g.cells];
        for c in 0..g.cells {
            let k = st.tokens[c];
            if k == NO_TOKEN || !st.face_known(c, Some(me)) {
                continue;
            }
            let t = g.token_type[k as usize];
            let cured = match g.cure[k as usize] {
                Some(item) => st.items[me].contains(&item),
                None => false,
            };
            risk[c] = if t == TType::Wall || cured {
                0.0
            } else if t == TType::Monster {
                p_monster
            } else {
                p_hazard
            };
        }
        for &c in &g.starts {
            risk[c] = 0.0;
        }
        risk[g.centre] = 0.0;
        risk
    }

    fn route(
        &self,
        g: &Game,
        st: &State,
        targets: &[usize],
        risk: &[f64],
        weight: f64,
        avoid_centre: bool,
        need: &[usize],
    ) -> (Vec<f64>, Vec<f64>) {
        let cells = g.cells;
        let through = match g.wall_item {
            Some(w) => st.items[self.seat].contains(&w),
            None => false,
        };
        let mut enter: Vec<f64> = risk.iter().map(|r| 1.0 + weight * r).collect();
        if avoid_centre {
            enter[g.centre] += 50.0;
        }
        let mut dist = vec![1e9f64; cells];
        let mut heap = BinaryHeap::with_capacity(cells * 2);
        for &t in targets {
            dist[t] = 0.0;
            heap.push(Entry(0.0, t));
        }
        let mut left: Vec<bool> = vec![false; cells];
        let mut left_count = 0;
        for &c in need {
            if !left[c] {
                left[c] = true;
                left_count += 1;
            }
        }
        let stop_early = !need.is_empty();
        while let Some(Entry(d, x)) = heap.pop() {
            if d > dist[x] {
                continue;
            }
            if stop_early && left[x] {
                left[x] = false;
                left_count -= 1;
                if left_count == 0 {
                    break;
                }
            }
            let w = if through { 0 } else { st.walls[x] };
            let nd = d + enter[x];
            for &(side, y) in &g.sides[x] {
                if (w >> side) & 1 == 0 && nd < dist[y] {
                    dist[y] = nd;
                    heap.push(Entry(nd, y));
                }
            }
        }
        (dist, enter)
    }

    fn turn(&mut self, g: &Game, st: &State, legal: &[Action]) -> Action {
        let me = self.seat;
        let jewel = st.jewel;
        let risk = self.fail_chance(g, st);
        let moves: Vec<usize> = legal
            .iter()
            .filter_map(|a| if let Action::Move(c) = a { Some(*c as usize) } else { None })
            .collect();
        if jewel >= 0 && jewel as usize != me {
            let j = jewel as usize;
            let attack = Action::Attack(j as u8);
            if legal.contains(&attack) {
                return attack;
            }
            let home = g.starts[j];
            let mine = self.steps(g, st.pos[me] as usize, home);
            let theirs = self.steps(g, st.pos[j] as usize, home);
            let target = if mine < theirs { home } else { st.pos[j] as usize };
            return self.best_move(g, st, &moves, &[target], &risk, self.caution, true);
        }
        if jewel >= 0 {
            let weight = self.caution * if st.health[me] == 1 { 3.0 } else { 1.5 };
            return self.best_move(g, st, &moves, &[g.starts[me]], &risk, weight, false);
        }
        let patience = self.patience * g.players as f64;
        let bar = self.strength - floordiv(st.turn as f64, patience);
        let new_rooms: Vec<usize> =
            (0..g.cells).filter(|&c| !g.is_start(c) && c != g.centre && st.tokens[c] == NO_TOKEN).collect();
        let ready = st.power[me] as f64 >= bar || st.deck.is_empty() || new_rooms.is_empty() || st.pile.is_empty();
        if ready {
            if legal.contains(&Action::Dragon) {
                return Action::Dragon;
            }
            return self.best_move(g, st, &moves, &[g.centre], &risk, self.caution, false);
        }
        self.best_move(g, st, &moves, &new_rooms, &risk, 1.0, true)
    }

    fn steps(&self, g: &Game, a: usize, b: usize) -> i64 {
        let s = g.size as i64;
        let (a, b) = (a as i64, b as i64);
        (a % s - b % s).abs() + (a / s - b / s).abs()
    }

    #[allow(clippy::too_many_arguments)]
    fn best_move(
        &mut self,
        g: &Game,
        st: &State,
        moves: &[usize],
        targets: &[usize],
        risk: &[f64],
        weight: f64,
        avoid_centre: bool,
    ) -> Action {
        let (dist, enter) = self.route(g, st, targets, risk, weight, avoid_centre, moves);
        let mut best: Option<usize> = None;
        let mut best_cost = 0.0;
        for &c in moves {
            let extra = if targets.contains(&c) { 0.0 } else { enter[c] };
            let cost = dist[c] + extra + self.rng.random() * 0.01;
            if best.is_none() || cost < best_cost {
                best = Some(c);
                best_cost = cost;
            }
        }
        Action::Move(best.unwrap_or(moves[0]) as u16)
    }

    fn wall(&mut self, g: &Game, st: &State, legal: &[Action]) -> Action {
        if legal[0] == Action::Wall(4) {
            return legal[0];
        }
        let cell = match st.stack.last() {
            Some(Prompt::Wall { cell, .. }) => *cell as usize,
            _ => return legal[0],
        };
        let me = self.seat;
        let mut best = legal[0];
        let mut best_score: Option<i64> = None;
        for &a in legal {
            let Action::Wall(d) = a else { continue };
            let mut walls = st.walls.clone();
            walls[cell] |= 1 << d;
            let j = g.sides[cell].iter().find(|&&(x, _)| x == d).map(|&(_, j)| j).unwrap();
            walls[j] |= 1 << ((d + 2) % 4);
            let mut score = 0i64;
            for s in 0..g.players {
                let p = st.pos[s] as usize;
                let goal = if st.jewel == s as i8 { g.starts[s] } else { g.centre };
                let dist = g.distances(goal, &walls)[p];
                score += if s == me { -dist * 2 } else { dist };
            }
            if best_score.map_or(true, |b| score > b) {
                best = a;
                best_score = Some(score);
            }
        }
        best
    }
}
