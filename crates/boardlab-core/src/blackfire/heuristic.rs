//! The heuristic agent (`boardlab/games/blackfire/agents.py`, `HeuristicAgent`), choosing exactly
//! as Python's: the same scores in the same float order, the same draws.  It reads the state
//! directly but only what the seat's view holds (positions, stances, the Orb, token squares).

use super::game::{Game, HParams};
use super::state::{Action, State, ARCHER, SORCERER, WARRIOR};
use crate::rng::Rng;

const CARRIER_VALUE: f64 = 450.0;
const KILL_VALUE: [f64; 3] = [160.0, 110.0, 80.0];
const PATIENCE: i64 = 100;
const IMPATIENCE: f64 = 5.0;
const EXIT_PARKING: f64 = 30.0;

pub const PERSONAS: [&str; 6] = ["", "runner", "hunter", "cautious", "collector", "camper"];

#[derive(Clone, Debug)]
pub struct Heuristic {
    pub seat: usize,
    pub rng: Rng,
    pub noise: f64,
    pub progress: f64,
    pub danger: f64,
    pub kill: f64,
    pub hunt: f64,
    pub token: f64,
    pub camp: f64,
    pub stay: f64,
}

impl Heuristic {
    pub fn new(g: &Game, seat: usize, seed: u64) -> Heuristic {
        Heuristic::with(&g.heuristic, seat, seed)
    }

    /// An agent with these parameters (persona and weights as `HeuristicAgent.__init__` combines them).
    pub fn with(p: &HParams, seat: usize, seed: u64) -> Heuristic {
        let (mut progress, mut danger, mut kill, mut hunt, mut token, mut camp) = (1.0, 1.0, 1.0, 1.0, 1.0, 0.0);
        match p.persona.as_str() {
            "runner" => {
                progress = 1.6;
                danger = 0.8
            }
            "hunter" => {
                kill = 1.5;
                hunt = 1.6;
                danger = 0.7
            }
            "cautious" => {
                danger = 2.0;
                kill = 0.9
            }
            "collector" => token = 4.0,
            "camper" => camp = 1.0,
            _ => {}
        }
        Heuristic {
            seat,
            rng: Rng::new(seed),
            noise: p.noise,
            progress: progress * p.progress,
            danger: danger * p.danger,
            kill: kill * p.kill,
            hunt: hunt * p.hunt,
            token: token * p.token,
            camp,
            stay: p.stay,
        }
    }

    pub fn act(&mut self, g: &Game, st: &State, legal: &[Action]) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        if !st.play {
            let near: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|a| match a {
                    Action::Place(c) => {
                        let r = g.d(g.green_start, *c as usize);
                        (2..=6).contains(&r)
                    }
                    _ => false,
                })
                .collect();
            let pool: &[Action] = if near.is_empty() { legal } else { &near };
            return pool[self.rng.below(pool.len() as u64) as usize];
        }
        let mut noise = self.noise;
        let late = st.turn as i64 - PATIENCE;
        if late > 0 {
            noise += late as f64 / IMPATIENCE;
        }
        let scores = self.scores(g, st, legal);
        let mut best = legal[0];
        let mut best_score = f64::NEG_INFINITY;
        for (&a, &score) in legal.iter().zip(&scores) {
            let s = score + noise * self.rng.random();
            if s > best_score {
                best = a;
                best_score = s;
            }
        }
        best
    }

    pub fn scores(&self, g: &Game, st: &State, legal: &[Action]) -> Vec<f64> {
        let b = Board::new(g, st, self.seat);
        let mut scores: Vec<f64> = legal.iter().map(|&a| self.score(&b, a)).collect();
        let sorc = b.me as usize * 3;
        if st.stack.is_empty() && !st.moved.contains(&(sorc as u8)) {
            let mut gain = 0.0f64;
            let mut any = false;
            for (a, &s) in legal.iter().zip(&scores) {
                if let Action::Move(u, _) = a {
                    if *u as usize == sorc {
                        if !any || s > gain {
                            gain = s;
                        }
                        any = true;
                    }
                }
            }
            if gain > 0.0 {
                for (a, s) in legal.iter().zip(scores.iter_mut()) {
                    if matches!(a, Action::Revive(..)) {
                        *s -= gain;
                    }
                }
            }
        }
        scores
    }

    fn score(&self, b: &Board, a: Action) -> f64 {
        match a {
            Action::Move(u, c) => self.move_score(b, u as usize, c as usize),
            Action::Jump(c) => self.move_score(b, b.st.stack.last().unwrap().unit as usize, c as usize),
            Action::Take(_) => 600.0,
            Action::Shoot(e) => self.kill_value(b, e as usize),
            Action::Revive(u, c) => self.revive_score(b, u as usize, c as usize),
            Action::Displace(e, c) => self.displace_score(b, e as usize, c as usize),
            Action::Stance(w) => self.stance_score(b, w as usize),
            _ => self.stay,
        }
    }

    fn kill_value(&self, b: &Board, e: usize) -> f64 {
        if b.inv(e) {
            return 15.0;
        }
        (if b.st.orb_holder == Some(e as u8) { CARRIER_VALUE } else { KILL_VALUE[b.st.units[e].kind as usize] }) * self.kill
    }

    fn threat(&self, b: &Board, cell: usize) -> f64 {
        let g = b.g;
        let mut t: f64 = 0.0;
        for e in b.foes() {
            let u = &b.st.units[e];
            let de = g.d(cell, b.cell(e)) as i64;
            match u.kind {
                ARCHER => {
                    if de <= g.archer_move + if g.archer_offense { g.archer_range as i64 } else { 0 } {
                        t = t.max(0.8);
                    }
                }
                WARRIOR => {
                    let reach = if !u.defensive { g.warrior_move } else { 0 };
                    if de <= reach {
                        t = t.max(0.9);
                    }
                }
                _ => {
                    if de <= g.sorcerer_move {
                        t = t.max(0.7);
                    }
                }
            }
        }
        t
    }

    fn move_score(&self, b: &Board, u: usize, c0: usize) -> f64 {
        let g = b.g;
        let st = b.st;
        let d = |x: usize, y: usize| g.d(x, y) as i64;
        let unit = &st.units[u];
        let kind = unit.kind;
        let here = b.cell(u);
        let mut c = c0;
        let mut score = 0.0;
        let mut absorbed = false;
        let mut victim_fa = false;
        let fa = b.archer_of(1 - b.me);
        for e in b.foes() {
            if b.cell(e) == c0 {
                score += self.kill_value(b, e);
                if b.inv(e) {
                    absorbed = true;
                }
                if Some(e) == fa {
                    victim_fa = true;
                }
            }
        }
        if absorbed {
            c = here;
        }
        let in_zone = match fa {
            Some(f) => d(c, b.cell(f)) <= g.archer_range as i64 && !victim_fa,
            None => false,
        };
        let orb = st.orb_holder == Some(u as u8);
        let my_inv = b.inv(u);
        let my_value = if orb { CARRIER_VALUE } else { KILL_VALUE[kind as usize] };
        if kind == ARCHER && in_zone && g.archer_contest {
            let p = (7 - g.contest_target as i64) as f64 / 6.0;
            score += p * self.kill_value(b, fa.unwrap()) - (1.0 - p) * my_value * (if my_inv { 0.0 } else { 1.0 });
        } else if kind == ARCHER && !in_zone {
            if g.archer_offense {
                let mut best: Option<f64> = None;
                for e in b.foes() {
                    let eu = &st.units[e];
                    if d(c, b.cell(e)) <= g.archer_range as i64 && !(eu.kind == WARRIOR && eu.defensive) {
                        let v = self.kill_value(b, e);
                        if best.map_or(true, |x| v > x) {
                            best = Some(v);
                        }
                    }
                }
                if let Some(v) = best {
                    score += v;
                }
            }
        } else if in_zone && !my_inv {
            score -= my_value;
        }
        let carrier = st.orb_holder.map(|h| h as usize);
        let goal = b.goal;
        if self.camp != 0.0 && !orb {
            if let Some(camp) = b.camp_square() {
                return score
                    + 20.0 * self.camp * ((d(here, camp).min(12) - (d(c, camp) - 1).abs().min(12)) as f64);
            }
        }
        if orb {
            if c == goal && !(in_zone && !my_inv) {
                return 5000.0;
            }
            score += 12.0 * self.progress * ((d(here, goal) - d(c, goal)) as f64);
        } else if kind == SORCERER && carrier.is_none() && b.orb_cell.is_some() {
            let oc = b.orb_cell.unwrap();
            score += 10.0 * ((d(here, oc) - d(c, oc)) as f64);
            if c == oc {
                score += 300.0;
            }
        } else if carrier.is_some() && st.units[carrier.unwrap()].side != b.me {
            let target = b.cell(carrier.unwrap());
            let ideal = if kind != ARCHER { 0 } else { g.archer_range as i64 + 1 };
            score += 8.0 * self.hunt * (((d(here, target) - ideal).abs() - (d(c, target) - ideal).abs()) as f64);
            if d(c, goal) < d(target, goal) {
                score += 4.0;
            }
        } else if let Some(car) = carrier {
            let target = b.cell(car);
            if c == goal {
                score -= EXIT_PARKING;
            } else if here == goal && d(target, goal) <= g.sorcerer_move + 1 {
                score += EXIT_PARKING;
            }
            score += 3.0 * ((d(here, target).min(6) - d(c, target).min(6)) as f64);
            score += 4.0 * ((d(here, goal) - d(c, goal)) as f64);
            let mut hunt: Option<(i64, usize)> = None;
            for e in b.foes() {
                let de = d(b.cell(e), target);
                if de <= 6 && hunt.map_or(true, |(x, _)| de < x) {
                    hunt = Some((de, e));
                }
            }
            if let Some((_, e)) = hunt {
                let ec = b.cell(e);
                score += 5.0 * ((d(here, ec) - d(c, ec)) as f64);
            }
        } else if let Some(oc) = b.orb_cell {
            let mut best: Option<((i64, usize), usize)> = None;
            for e in b.foes() {
                let key = (d(b.cell(e), oc), e);
                if best.map_or(true, |(k, _)| key < k) {
                    best = Some((key, e));
                }
            }
            if let Some((_, e)) = best {
                let target = b.cell(e);
                let ideal = if kind != ARCHER { 0 } else { g.archer_range as i64 + 1 };
                score += 6.0 * (((d(here, target) - ideal).abs() - (d(c, target) - ideal).abs()) as f64);
            }
            if c == oc {
                score -= 60.0;
            } else if here == oc {
                score += 60.0;
            }
        }
        if st.has_token(c) && c != here {
            score += if orb { -40.0 } else { 10.0 * self.token };
        }
        let mut t = self.threat(b, c);
        if c != here {
            t -= self.threat(b, here);
        }
        if t != 0.0 && !my_inv {
            let f = if orb {
                0.6
            } else if kind == SORCERER {
                0.25
            } else {
                0.15
            };
            score -= t * my_value * self.danger * f;
        }
        score
    }

    fn revive_score(&self, b: &Board, u: usize, c: usize) -> f64 {
        let g = b.g;
        let st = b.st;
        let kind = st.units[u].kind;
        let mut score = 80.0 + if kind == SORCERER { 60.0 } else { 0.0 };
        for e in b.foes() {
            if b.cell(e) == c {
                score += self.kill_value(b, e);
            }
        }
        if let Some(oc) = b.orb_cell {
            score += 2.0 * ((30 - g.d(c, oc).min(30)) as f64);
        }
        if let Some(fa) = b.archer_of(1 - b.me) {
            if kind == ARCHER && g.archer_contest && b.cell(fa) != c && g.d(c, b.cell(fa)) <= g.archer_range {
                let p = (7 - g.contest_target as i64) as f64 / 6.0;
                score += p * self.kill_value(b, fa) - (1.0 - p) * KILL_VALUE[1];
            }
        }
        score
    }

    fn displace_score(&self, b: &Board, e: usize, c: usize) -> f64 {
        let g = b.g;
        let st = b.st;
        let d = |x: usize, y: usize| g.d(x, y) as i64;
        let here = b.cell(e);
        let unit = &st.units[e];
        let mut score = 0.0;
        if st.orb_holder == Some(e as u8) {
            if c == b.goal {
                return -5000.0;
            }
            score += 10.0 * ((d(c, b.goal).min(30) - d(here, b.goal)) as f64);
        }
        if let Some(ma) = b.archer_of(b.me) {
            if d(c, b.cell(ma)) <= g.archer_range as i64 {
                if unit.kind == ARCHER && g.archer_contest {
                    let p = (7 - g.contest_target as i64) as f64 / 6.0;
                    let mine = if b.inv(ma) { 0.0 } else { KILL_VALUE[1] };
                    score += (1.0 - p) * self.kill_value(b, e) - p * mine;
                } else if !(unit.kind == WARRIOR && unit.defensive) && !b.inv(e) {
                    score += self.kill_value(b, e);
                }
            }
        }
        if let Some(h) = st.orb_holder {
            if st.units[h as usize].side == b.me {
                let mine = b.cell(h as usize);
                score += 3.0 * ((d(c, mine).min(8) - d(here, mine).min(8)) as f64);
            }
        }
        score
    }

    fn stance_score(&self, b: &Board, w: usize) -> f64 {
        let g = b.g;
        let st = b.st;
        let guarding = match st.orb_holder {
            Some(h) => {
                st.units[h as usize].side != b.me
                    && g.d(b.cell(w), b.goal) <= 1
                    && g.d(b.cell(h as usize), b.goal) <= 5
            }
            None => false,
        };
        if !st.units[w].defensive {
            if guarding {
                60.0
            } else {
                -1.0
            }
        } else if guarding {
            -1.0
        } else {
            60.0
        }
    }
}

/// What the agent reads off its view.
struct Board<'a> {
    g: &'a Game,
    st: &'a State,
    me: u8,
    goal: usize,
    orb_cell: Option<usize>,
}

impl<'a> Board<'a> {
    fn new(g: &'a Game, st: &'a State, seat: usize) -> Board<'a> {
        let me = st.side_of_seat.unwrap()[seat];
        let orb_cell = match st.orb_holder {
            Some(h) => st.units[h as usize].cell.map(|c| c as usize),
            None => st.orb_cell.map(|c| c as usize),
        };
        Board { g, st, me, goal: g.exits[st.exit.unwrap() as usize], orb_cell }
    }
    #[inline]
    fn cell(&self, u: usize) -> usize {
        self.st.units[u].cell.unwrap() as usize
    }
    /// The enemy's units on the board, in index order.
    fn foes(&self) -> impl Iterator<Item = usize> + '_ {
        let f = (1 - self.me) as usize * 3;
        (f..f + 3).filter(move |&u| self.st.units[u].cell.is_some())
    }
    fn archer_of(&self, side: u8) -> Option<usize> {
        let i = side as usize * 3 + 1;
        self.st.units[i].cell.map(|_| i)
    }
    /// The view's `invulnerable` count is not zero.
    fn inv(&self, u: usize) -> bool {
        match self.st.units[u].inv_until {
            Some(t) => (t as i64 - self.st.turn as i64 + 1).div_euclid(2) != 0,
            None => false,
        }
    }
    /// The dead enemy sorcerer's respawn square (its start square), else None.
    fn camp_square(&self) -> Option<usize> {
        let foe = 1 - self.me;
        let s = foe as usize * 3;
        if self.st.units[s].cell.is_some() {
            return None;
        }
        if foe == 0 {
            Some(self.g.green_start)
        } else {
            self.st.red_start.map(|r| self.g.red_starts[r as usize])
        }
    }
}
