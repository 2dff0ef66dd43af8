//! The rules (rules.py, combat.py, tokens.py), the engine's turn cap and event log
//! (engine/state.py), the views, the JSON document and the determinization (view.py), and the
//! features and evaluation (features.py).

use super::game::*;
use crate::json::{sha256_hex, J};
use crate::rng::Rng;

pub const GREEN: u8 = 0;
pub const RED: u8 = 1;
pub const SORCERER: u8 = 0;
pub const ARCHER: u8 = 1;
pub const WARRIOR: u8 = 2;
pub const SIDES: [&str; 2] = ["green", "red"];
pub const KINDS: [&str; 3] = ["sorcerer", "archer", "warrior"];
pub const UNIT_NAMES: [&str; 6] = ["green sorcerer", "green archer", "green warrior", "red sorcerer", "red archer", "red warrior"];
const NO: u8 = u8::MAX;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    Place(u16),
    Stance(u8),
    Move(u8, u16),
    Take(u8),
    Revive(u8, u16),
    End,
    Shoot(u8),
    Stop,
    Jump(u16),
    Stay,
    Displace(u8, u16),
    Pass,
}

impl Action {
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Place(_) => "place",
            Action::Stance(_) => "stance",
            Action::Move(..) => "move",
            Action::Take(_) => "take",
            Action::Revive(..) => "revive",
            Action::End => "end",
            Action::Shoot(_) => "shoot",
            Action::Stop => "stop",
            Action::Jump(_) => "jump",
            Action::Stay => "stay",
            Action::Displace(..) => "displace",
            Action::Pass => "pass",
        }
    }
    pub fn to_j(&self) -> J {
        let mut v = vec![J::s(self.kind())];
        match *self {
            Action::Place(c) | Action::Jump(c) => v.push(J::i(c)),
            Action::Stance(u) | Action::Take(u) | Action::Shoot(u) => v.push(J::i(u)),
            Action::Move(u, c) | Action::Revive(u, c) | Action::Displace(u, c) => {
                v.push(J::i(u));
                v.push(J::i(c));
            }
            Action::End | Action::Stop | Action::Stay | Action::Pass => {}
        }
        J::Arr(v)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PKind {
    Shoot { targets: [u8; 3], len: u8 },
    Speed { points: i64 },
    Teleport,
    Displace,
    ReviveToken,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Prompt {
    pub seat: u8,
    pub unit: u8,
    pub kind: PKind,
}

impl Prompt {
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            PKind::Shoot { .. } => "shoot",
            PKind::Speed { .. } => "speed",
            PKind::Teleport => "teleport",
            PKind::Displace => "displace",
            PKind::ReviveToken => "revive-token",
        }
    }
    fn data_pairs(&self) -> Vec<(&'static str, J)> {
        let mut d = vec![("unit", J::i(self.unit))];
        match self.kind {
            PKind::Shoot { targets, len } => d.push(("targets", J::Arr(targets[..len as usize].iter().map(|&t| J::i(t)).collect()))),
            PKind::Speed { points } => d.push(("points", J::i(points))),
            _ => {}
        }
        d
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Unit {
    pub side: u8,
    pub kind: u8,
    pub cell: Option<u16>,
    pub defensive: bool,
    pub slow_at: Option<u32>,
    pub inv_until: Option<u32>,
    pub respawn: Option<i64>,
}

#[derive(Clone, Debug)]
pub struct Event {
    pub idx: usize,
    pub decision: u32,
    pub turn: u32,
    pub text: String,
    pub data: J,
    pub to: Option<usize>,
    pub ptext: Option<String>,
    pub pdata: Option<J>,
}

#[derive(Clone, Debug)]
pub struct State {
    pub rng: Rng,
    pub turn: u32,
    pub decisions: u32,
    pub truncated: bool,
    pub stack: Vec<Prompt>,
    pub play: bool,
    pub bag: Vec<u8>,
    /// the tokens on the board in the dict's insertion order: (cell, kind)
    pub tokens: Vec<(u16, u8)>,
    /// tok[cell]: the kind there, or NO
    pub tok: Vec<u8>,
    pub placing: [Vec<u16>; 2],
    pub side_of_seat: Option<[u8; 2]>,
    pub red_start: Option<u8>,
    pub exit: Option<u8>,
    pub units: Vec<Unit>,
    pub orb_cell: Option<u16>,
    pub orb_holder: Option<u8>,
    pub side: u8,
    pub moved: Vec<u8>,
    pub stance_done: bool,
    pub revive_from: Option<u8>,
    pub winner: Option<u8>,
    pub reason: String,
    pub stats: [[u32; 2]; 24],
    pub revealed: Vec<(u8, u32)>,
    pub max_turns: u32,
    /// the game's tokens_per_player (the placing seat needs it)
    pub tpp: u8,
    pub record: bool,
    pub log: Vec<Event>,
    pub seed: Option<i128>,
    pub hist: Vec<Action>,
}

fn oi<T: Into<i128> + Copy>(v: Option<T>) -> J {
    match v {
        Some(x) => J::Int(x.into()),
        None => J::Null,
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + &c.as_str().to_lowercase(),
        None => String::new(),
    }
}

impl State {
    pub fn new(g: &Game, seed: i128, max_turns: u32, record: bool) -> State {
        let mut st = State {
            rng: Rng::new(seed.rem_euclid(1i128 << 64) as u64),
            turn: 0,
            decisions: 0,
            truncated: false,
            stack: Vec::with_capacity(4),
            play: false,
            bag: vec![],
            tokens: Vec::with_capacity(16),
            tok: vec![NO; g.n],
            placing: [vec![], vec![]],
            side_of_seat: None,
            red_start: None,
            exit: None,
            units: vec![],
            orb_cell: None,
            orb_holder: None,
            side: GREEN,
            moved: vec![],
            stance_done: false,
            revive_from: None,
            winner: None,
            reason: String::new(),
            stats: [[0; 2]; 24],
            revealed: vec![],
            max_turns: if max_turns > 0 { max_turns } else { g.max_turns },
            tpp: g.tokens_per_player as u8,
            record,
            log: vec![],
            seed: if record { Some(seed) } else { None },
            hist: vec![],
        };
        for &(k, n) in &g.token_counts {
            for _ in 0..n {
                st.bag.push(k);
            }
        }
        st.rng.shuffle(&mut st.bag);
        for &cell in &g.treasure {
            let k = st.bag.pop().expect("the bag fills the treasure rooms");
            st.set_token(cell, k);
        }
        if st.record {
            st.emit("Fifteen tokens are shuffled face down; seven go to the treasure rooms.".into(), J::Null);
        }
        if g.tokens_per_player == 0 {
            st.finish_setup(g);
        }
        st
    }

    // -- engine ---------------------------------------------------------------------------
    fn emit(&mut self, text: String, data: J) {
        let idx = self.log.len();
        self.log.push(Event { idx, decision: self.decisions, turn: self.turn, text, data, to: None, ptext: None, pdata: None });
    }

    #[inline]
    pub fn is_over(&self) -> bool {
        self.truncated || self.winner.is_some()
    }

    pub fn current_seat(&self) -> Option<usize> {
        if self.is_over() {
            None
        } else if let Some(p) = self.stack.last() {
            Some(p.seat as usize)
        } else if !self.play {
            Some(if self.placing[0].len() < self.tpp() { 0 } else { 1 })
        } else {
            Some(self.seat_of(self.side))
        }
    }

    #[inline]
    fn tpp(&self) -> usize {
        self.tpp as usize
    }

    pub fn scores(&self) -> Vec<f64> {
        if self.truncated {
            return vec![0.0, 0.0];
        }
        let w = self.seat_of(self.winner.unwrap());
        (0..2).map(|s| if s == w { 1.0 } else { 0.0 }).collect()
    }

    pub fn results_j(&self) -> J {
        if self.truncated {
            return J::obj(vec![
                ("scores", J::Arr(vec![J::Float(0.0), J::Float(0.0)])),
                ("winners", J::Arr(vec![])),
                ("truncated", J::Bool(true)),
                ("reason", J::s("turn cap reached")),
            ]);
        }
        let w = self.seat_of(self.winner.unwrap());
        J::obj(vec![
            ("scores", J::Arr(self.scores().into_iter().map(J::Float).collect())),
            ("winners", J::Arr(vec![J::i(w as i64)])),
            ("truncated", J::Bool(false)),
            ("reason", J::Str(self.reason.clone())),
        ])
    }

    /// `State.apply` after validation: the rules' transition, the decision count, the turn cap.
    pub fn apply(&mut self, g: &Game, a: Action) {
        self.apply_rules(g, a);
        if self.record {
            self.hist.push(a);
        }
        self.decisions += 1;
        if self.turn > self.max_turns && self.winner.is_none() {
            self.truncated = true;
            if self.record {
                self.emit(format!("The game is stopped by the turn cap ({} turns).", self.max_turns), J::Null);
            }
        }
    }

    // -- helpers ---------------------------------------------------------------------------
    #[inline]
    pub fn seat_of(&self, side: u8) -> usize {
        let s = self.side_of_seat.unwrap();
        if s[0] == side {
            0
        } else {
            1
        }
    }

    fn set_token(&mut self, cell: usize, k: u8) {
        if self.tok[cell] == NO {
            self.tokens.push((cell as u16, k));
        } else if let Some(e) = self.tokens.iter_mut().find(|e| e.0 as usize == cell) {
            e.1 = k;
        }
        self.tok[cell] = k;
    }

    fn pop_token(&mut self, cell: usize) -> u8 {
        let k = self.tok[cell];
        self.tok[cell] = NO;
        if let Some(p) = self.tokens.iter().position(|e| e.0 as usize == cell) {
            self.tokens.remove(p);
        }
        k
    }

    #[inline]
    pub fn has_token(&self, cell: usize) -> bool {
        self.tok[cell] != NO
    }

    #[inline]
    fn count(&mut self, key: usize, side: u8) {
        if self.side_of_seat.is_none() {
            return;
        }
        let s = self.seat_of(side);
        self.stats[key][s] += 1;
    }

    #[inline]
    pub fn guarded(&self, u: usize) -> bool {
        let v = &self.units[u];
        v.kind == WARRIOR && v.defensive
    }

    #[inline]
    fn alive(&self, u: usize) -> bool {
        self.units[u].cell.is_some()
    }

    #[inline]
    fn cell(&self, u: usize) -> usize {
        self.units[u].cell.unwrap() as usize
    }

    fn occupied(&self, cell: usize, ignore: usize) -> bool {
        self.units.iter().enumerate().any(|(i, v)| i != ignore && v.cell == Some(cell as u16))
    }

    fn nearest_free(&self, g: &Game, cell: usize, ignore: usize) -> usize {
        for &c in &g.nearest[cell] {
            let c = c as usize;
            if !self.occupied(c, ignore) && !self.has_token(c) {
                return c;
            }
        }
        panic!("no free square")
    }

    /// `_free_within`: empty, token-free, accessible squares within `r` (Manhattan, through walls).
    fn free_within(&self, g: &Game, cell: usize, r: i32, out: &mut Vec<usize>) {
        g.within_manhattan(cell, r, out);
        out.retain(|&c| !self.occupied(c, usize::MAX) && !self.has_token(c));
    }

    fn hands_a_win(&self, g: &Game, u: usize, cell: usize) -> bool {
        self.orb_holder == Some(u as u8) && self.exit.map_or(false, |e| g.exits[e as usize] == cell)
    }

    pub fn allowance(&self, g: &Game, u: usize) -> i64 {
        let unit = &self.units[u];
        let mut base = match unit.kind {
            WARRIOR => {
                if unit.defensive {
                    0
                } else {
                    g.warrior_move
                }
            }
            ARCHER => g.archer_move,
            _ => g.sorcerer_move,
        };
        if base != 0 && unit.slow_at == Some(self.turn) {
            base -= 1;
        }
        base
    }

    /// `reach(u, points)`: squares unit `u` may end a move of up to `points` spaces on.
    pub fn reach(&self, g: &Game, u: usize, points: i64, out: &mut Vec<usize>) {
        self.reach_upto(g, u, points, out, usize::MAX)
    }

    /// `reach`, stopping once `limit` squares are found (`limit` 1: whether the unit can move at all).
    fn reach_upto(&self, g: &Game, u: usize, points: i64, out: &mut Vec<usize>, limit: usize) {
        out.clear();
        let unit = &self.units[u];
        let side = unit.side;
        // the living units' squares: (cell, side, an opposing defensive warrior), in unit order
        let mut occ = [(u16::MAX, 0u8, false); 6];
        let mut k = 0;
        for v in &self.units {
            if let Some(c) = v.cell {
                occ[k] = (c, v.side, v.side != side && v.kind == WARRIOR && v.defensive);
                k += 1;
            }
        }
        let occ = &occ[..k];
        let mut seen = [0u64; MAX_CELLS / 64];
        let start = unit.cell.unwrap() as usize;
        seen[start >> 6] |= 1 << (start & 63);
        let carrier = self.orb_holder == Some(u as u8);
        let mut frontier: Vec<usize> = Vec::with_capacity(16);
        frontier.push(start);
        let mut nxt: Vec<usize> = Vec::with_capacity(16);
        for _ in 0..points.max(0) {
            nxt.clear();
            for &c in &frontier {
                for &n in &g.nbrs[c] {
                    if seen[n >> 6] >> (n & 63) & 1 == 1 {
                        continue;
                    }
                    seen[n >> 6] |= 1 << (n & 63);
                    // the last unit standing on n (the dict's overwrite order), and blockers
                    let mut occ_side: Option<u8> = None;
                    let mut blocker = false;
                    for &(oc, os, ob) in occ {
                        if oc as usize == n {
                            occ_side = Some(os);
                            blocker |= ob;
                        }
                    }
                    if blocker {
                        if carrier {
                            out.push(n);
                            if out.len() >= limit {
                                return;
                            }
                        }
                        continue;
                    }
                    nxt.push(n);
                    if occ_side != Some(side) {
                        out.push(n);
                        if out.len() >= limit {
                            return;
                        }
                    }
                }
            }
            std::mem::swap(&mut frontier, &mut nxt);
        }
    }

    /// `_revive_squares(cells, side)`.
    fn revive_squares(&self, cells: &[usize], side: u8, out: &mut Vec<usize>) {
        out.clear();
        for &c in cells {
            if self.has_token(c) {
                continue;
            }
            let ok = self.units.iter().enumerate().all(|(i, v)| {
                v.cell != Some(c as u16) || (v.side != side && !self.guarded(i) && v.inv_until.is_none())
            });
            if ok {
                out.push(c);
            }
        }
    }

    // -- legal actions ------------------------------------------------------------------------
    pub fn legal_actions(&self, g: &Game) -> Vec<Action> {
        let mut out = Vec::with_capacity(32);
        self.legal_into(g, &mut out);
        out
    }

    pub fn legal_into(&self, g: &Game, out: &mut Vec<Action>) {
        out.clear();
        if self.is_over() {
            return;
        }
        if !self.play {
            let mine = &self.placing[self.current_seat().unwrap()];
            for &c in &g.placeable {
                if !mine.contains(&(c as u16)) {
                    out.push(Action::Place(c as u16));
                }
            }
            return;
        }
        if let Some(p) = self.stack.last() {
            self.prompt_actions(g, p, out);
            return;
        }
        self.turn_actions(g, out);
    }

    fn turn_actions(&self, g: &Game, out: &mut Vec<Action>) {
        let side = self.side;
        let base = side as usize * 3;
        let war = base + WARRIOR as usize;
        if self.moved.is_empty() && !self.stance_done && self.alive(war) {
            out.push(Action::Stance(war as u8));
        }
        let mut cells = Vec::with_capacity(16);
        for u in base..base + 3 {
            if !self.alive(u) || self.moved.contains(&(u as u8)) {
                continue;
            }
            let a = self.allowance(g, u);
            if a != 0 {
                self.reach(g, u, a, &mut cells);
                for &c in &cells {
                    out.push(Action::Move(u as u8, c as u16));
                }
            }
            let unit = &self.units[u];
            if unit.kind == SORCERER && self.orb_holder.is_none() && self.orb_cell == unit.cell {
                out.push(Action::Take(u as u8));
            }
        }
        let sorc = base;
        if self.alive(sorc)
            && self.orb_holder != Some(sorc as u8)
            && (!self.moved.contains(&(sorc as u8)) || self.revive_from == Some(sorc as u8))
        {
            let dead: Vec<usize> = [base + 1, base + 2].into_iter().filter(|&u| !self.alive(u)).collect();
            if !dead.is_empty() {
                self.revive_squares(&g.nbrs[self.cell(sorc)], side, &mut cells);
                for &d in &dead {
                    for &c in &cells {
                        out.push(Action::Revive(d as u8, c as u16));
                    }
                }
            }
        }
        out.push(Action::End);
    }

    /// Whether nothing but `end` is left (`_turn_actions() == [("end",)]`).
    fn only_end(&self, g: &Game) -> bool {
        let side = self.side;
        let base = side as usize * 3;
        let war = base + 2;
        if self.moved.is_empty() && !self.stance_done && self.alive(war) {
            return false;
        }
        let mut cells = Vec::new();
        for u in base..base + 3 {
            if !self.alive(u) || self.moved.contains(&(u as u8)) {
                continue;
            }
            let a = self.allowance(g, u);
            if a != 0 {
                self.reach_upto(g, u, a, &mut cells, 1);
                if !cells.is_empty() {
                    return false;
                }
            }
            let unit = &self.units[u];
            if unit.kind == SORCERER && self.orb_holder.is_none() && self.orb_cell == unit.cell {
                return false;
            }
        }
        let sorc = base;
        if self.alive(sorc)
            && self.orb_holder != Some(sorc as u8)
            && (!self.moved.contains(&(sorc as u8)) || self.revive_from == Some(sorc as u8))
            && (!self.alive(base + 1) || !self.alive(base + 2))
        {
            self.revive_squares(&g.nbrs[self.cell(sorc)], side, &mut cells);
            if !cells.is_empty() {
                return false;
            }
        }
        true
    }

    fn prompt_actions(&self, g: &Game, p: &Prompt, out: &mut Vec<Action>) {
        let u = p.unit as usize;
        let mut cells = Vec::with_capacity(16);
        match p.kind {
            PKind::Shoot { targets, len } => {
                for &t in &targets[..len as usize] {
                    out.push(Action::Shoot(t));
                }
            }
            PKind::Speed { points } => {
                self.reach(g, u, points, &mut cells);
                for &c in &cells {
                    out.push(Action::Move(u as u8, c as u16));
                }
                out.push(Action::Stop);
            }
            PKind::Teleport => {
                self.free_within(g, self.cell(u), g.teleport_range, &mut cells);
                for &c in &cells {
                    out.push(Action::Jump(c as u16));
                }
                out.push(Action::Stay);
            }
            PKind::Displace => {
                let side = self.units[u].side;
                let foe = (1 - side) as usize * 3;
                for e in foe..foe + 3 {
                    if let Some(cell) = self.units[e].cell {
                        self.free_within(g, cell as usize, 2, &mut cells);
                        for &c in &cells {
                            if !self.hands_a_win(g, e, c) {
                                out.push(Action::Displace(e as u8, c as u16));
                            }
                        }
                    }
                }
                if out.is_empty() {
                    out.push(Action::Pass);
                }
            }
            PKind::ReviveToken => {
                let side = self.units[u].side;
                let b = side as usize * 3;
                let dead: Vec<usize> = (b..b + 3).filter(|&x| !self.alive(x)).collect();
                self.revive_squares(&g.cells, side, &mut cells);
                for &d in &dead {
                    for &c in &cells {
                        out.push(Action::Revive(d as u8, c as u16));
                    }
                }
                if out.is_empty() {
                    out.push(Action::Pass);
                }
            }
        }
    }

    // -- set-up and turns -----------------------------------------------------------------------
    fn finish_setup(&mut self, g: &Game) {
        let mut taken = vec![false; g.n];
        for &(c, _) in &self.tokens {
            taken[c as usize] = true;
        }
        for seat in 0..2 {
            let placing = std::mem::take(&mut self.placing[seat]);
            for &cell in &placing {
                let mut cell = cell as usize;
                if taken[cell] {
                    cell = g.nearest[cell].iter().map(|&c| c as usize).find(|&c| g.placeable_set[c] && !taken[c]).unwrap();
                }
                taken[cell] = true;
                let k = self.bag.pop().unwrap();
                self.set_token(cell, k);
            }
        }
        self.placing = [vec![], vec![]];
        if self.record {
            let mut cells: Vec<u16> = self.tokens.iter().map(|e| e.0).collect();
            cells.sort();
            self.emit(
                "The players' tokens are revealed face down.".into(),
                J::obj(vec![("tokens", J::Arr(cells.iter().map(|&c| J::i(c)).collect()))]),
            );
        }
        let rs = (self.rng.roll(4) - 1) as u8;
        self.red_start = Some(rs);
        if self.record {
            let r = rs + 1;
            self.emit(
                format!(
                    "Rolled {} on a four-sided die: red starts at start square R{} ({}).",
                    r, r, g.labels[g.red_starts[rs as usize]]
                ),
                J::obj(vec![("roll", J::i(r))]),
            );
        }
        let ex = (self.rng.roll(4) - 1) as u8;
        self.exit = Some(ex);
        if self.record {
            let r = ex + 1;
            self.emit(
                format!(
                    "Rolled {} on a four-sided die: exit E{} ({}) is open; the Orb leaves the castle there.",
                    r, r, g.labels[g.exits[ex as usize]]
                ),
                J::obj(vec![("roll", J::i(r))]),
            );
        }
        let green_seat = match g.colours {
            0 => {
                let r = self.rng.roll(6);
                let gs = if r % 2 == 0 { 0 } else { 1 };
                if self.record {
                    self.emit(
                        format!(
                            "Player 1 rolls a six-sided die: {}, {}, so Player {} plays green (even: Player 1 is green).",
                            r,
                            if r % 2 == 0 { "even" } else { "odd" },
                            gs + 1
                        ),
                        J::obj(vec![("roll", J::i(r))]),
                    );
                }
                gs
            }
            1 => 0,
            _ => 1,
        };
        self.side_of_seat = Some(if green_seat == 0 { [GREEN, RED] } else { [RED, GREEN] });
        let starts = [g.green_start, g.red_starts[rs as usize]];
        self.units = (0..6u8)
            .map(|i| Unit {
                side: i / 3,
                kind: i % 3,
                cell: Some(starts[(i / 3) as usize] as u16),
                defensive: false,
                slow_at: None,
                inv_until: None,
                respawn: None,
            })
            .collect();
        self.orb_holder = Some(0);
        self.play = true;
        self.side = GREEN;
        self.start_turn(g);
    }

    fn start_turn(&mut self, g: &Game) {
        self.turn += 1;
        let side = self.side;
        self.moved.clear();
        self.stance_done = false;
        self.revive_from = None;
        let turn = self.turn;
        for u in self.units.iter_mut() {
            if matches!(u.inv_until, Some(t) if t <= turn) {
                u.inv_until = None;
            }
            if matches!(u.slow_at, Some(t) if t < turn) {
                u.slow_at = None;
            }
        }
        let s = side as usize * 3;
        if self.units[s].cell.is_none() {
            if let Some(r) = self.units[s].respawn {
                self.units[s].respawn = Some(r - 1);
                if r - 1 <= 0 {
                    self.do_respawn(g, s);
                }
            }
        }
    }

    fn end_turn(&mut self, g: &Game) {
        self.side = 1 - self.side;
        self.start_turn(g);
    }

    // -- the transition ----------------------------------------------------------------------
    fn apply_rules(&mut self, g: &Game, a: Action) {
        if !self.play {
            let Action::Place(cell) = a else { unreachable!() };
            let seat = self.current_seat().unwrap();
            self.placing[seat].push(cell);
            if self.record {
                let n = self.placing[seat].len();
                let idx = self.log.len();
                self.log.push(Event {
                    idx,
                    decision: self.decisions,
                    turn: self.turn,
                    text: format!("Player {} places a token ({}/{}).", seat + 1, n, g.tokens_per_player),
                    data: J::obj(vec![("seat", J::i(seat as i64))]),
                    to: Some(seat),
                    ptext: Some(format!("You place a face-down token on {}.", g.labels[cell as usize])),
                    pdata: Some(J::obj(vec![("seat", J::i(seat as i64)), ("cell", J::i(cell))])),
                });
            }
            if self.placing[1].len() == g.tokens_per_player {
                self.finish_setup(g);
            }
            return;
        }
        if let Some(p) = self.stack.pop() {
            self.answer(g, p, a);
        } else {
            match a {
                Action::End => {
                    if self.record {
                        self.emit(format!("{} ends the turn.", capitalize(SIDES[self.side as usize])), J::Null);
                    }
                    self.end_turn(g);
                    self.after_action(g, false);
                    return;
                }
                Action::Stance(u) => {
                    let unit = &mut self.units[u as usize];
                    unit.defensive = !unit.defensive;
                    let (side, d) = (unit.side, unit.defensive);
                    self.stance_done = true;
                    self.count(S_STANCE, side);
                    if self.record {
                        let st = if d { "defensive" } else { "offensive" };
                        self.emit(
                            format!("The {} takes the {} stance.", UNIT_NAMES[u as usize], st),
                            J::obj(vec![("unit", J::i(u)), ("stance", J::s(st))]),
                        );
                    }
                }
                Action::Move(u, c) => {
                    self.revive_from = None;
                    self.moved.push(u);
                    self.do_move(g, u as usize, c as usize);
                }
                Action::Take(u) => {
                    self.revive_from = None;
                    self.moved.push(u);
                    self.take_orb(u as usize);
                }
                Action::Revive(u, c) => {
                    self.revive_from = None;
                    let sorc = self.side * 3;
                    if !self.moved.contains(&sorc) {
                        self.moved.push(sorc);
                    }
                    self.revive(g, u as usize, c as usize, "The sorcerer");
                }
                _ => unreachable!("not a turn action"),
            }
        }
        self.after_action(g, true);
    }

    fn after_action(&mut self, g: &Game, auto_end: bool) {
        self.check_exit(g);
        if self.winner.is_some() {
            self.stack.clear();
            return;
        }
        if auto_end && self.stack.is_empty() && self.only_end(g) {
            self.end_turn(g);
        }
    }

    fn answer(&mut self, g: &Game, p: Prompt, a: Action) {
        let pu = p.unit as usize;
        match a {
            Action::Shoot(t) => {
                self.attack(g, t as usize, pu, S_ARCHER);
                self.after_fire(g, pu);
            }
            Action::Move(u, c) => self.do_move(g, u as usize, c as usize),
            Action::Jump(c) => {
                self.units[pu].cell = Some(c);
                if self.record {
                    self.emit(
                        format!("The {} teleports to {}.", UNIT_NAMES[pu], g.labels[c as usize]),
                        J::obj(vec![("unit", J::i(pu as i64)), ("cell", J::i(c))]),
                    );
                }
                self.stop(g, pu, true);
            }
            Action::Displace(e, c) => {
                self.units[e as usize].cell = Some(c);
                if self.record {
                    self.emit(
                        format!("The {} is displaced to {}.", UNIT_NAMES[e as usize], g.labels[c as usize]),
                        J::obj(vec![("unit", J::i(e)), ("cell", J::i(c))]),
                    );
                }
                self.stop(g, e as usize, false);
            }
            Action::Revive(u, c) => self.revive(g, u as usize, c as usize, "A revive token"),
            _ => {}
        }
    }

    fn win(&mut self, side: u8, reason: String) {
        if self.winner.is_none() {
            self.winner = Some(side);
            self.stack.clear();
            if self.record {
                self.emit(
                    format!("{} wins: {}.", capitalize(SIDES[side as usize]), reason),
                    J::obj(vec![("winner", J::i(side))]),
                );
            }
            self.reason = reason;
        }
    }

    fn check_exit(&mut self, g: &Game) {
        if let (Some(h), Some(e)) = (self.orb_holder, self.exit) {
            if self.units[h as usize].cell == Some(g.exits[e as usize] as u16) {
                let side = self.units[h as usize].side;
                self.win(side, format!("the {} sorcerer carried the Orb out of exit #{}", SIDES[side as usize], e + 1));
            }
        }
    }

    fn take_orb(&mut self, u: usize) {
        self.orb_holder = Some(u as u8);
        self.orb_cell = None;
        self.count(S_ORB_PICKUP, self.units[u].side);
        if self.record {
            self.emit(format!("The {} takes the Orb of Blackfire.", UNIT_NAMES[u]), J::obj(vec![("unit", J::i(u as i64))]));
        }
    }

    fn revive(&mut self, g: &Game, u: usize, cell: usize, how: &str) {
        let side = self.units[u].side;
        self.count(S_REVIVE, side);
        for e in 0..6 {
            let v = self.units[e];
            if v.cell == Some(cell as u16) && v.side != side {
                if self.record {
                    self.emit(
                        format!("The revived {} appears on the {}.", UNIT_NAMES[u], UNIT_NAMES[e]),
                        J::obj(vec![("unit", J::i(e as i64))]),
                    );
                }
                self.count(S_ATTACK_REVIVE, side);
                self.kill(g, e);
            }
        }
        self.units[u].cell = Some(cell as u16);
        self.units[u].respawn = None;
        if self.record {
            self.emit(
                format!("{} revives the {} on {}.", how, UNIT_NAMES[u], g.labels[cell]),
                J::obj(vec![("unit", J::i(u as i64)), ("cell", J::i(cell as i64))]),
            );
        }
        self.placed(g, &[u], side);
    }

    fn do_respawn(&mut self, g: &Game, u: usize) {
        self.units[u].respawn = None;
        let side = self.units[u].side;
        let b = side as usize * 3;
        if (b..b + 3).all(|x| !self.alive(x)) {
            return;
        }
        let start = if side == GREEN { g.green_start } else { g.red_starts[self.red_start.unwrap() as usize] };
        let radius = g.push_radius;
        let here = if radius != 0 {
            let friend = |c: usize| (b..b + 3).any(|x| self.units[x].cell == Some(c as u16));
            g.nearest[start].iter().map(|&c| c as usize).find(|&c| !friend(c) && !self.has_token(c)).unwrap()
        } else {
            self.nearest_free(g, start, u)
        };
        let mut pushed: Vec<usize> = vec![];
        let f = (1 - side) as usize * 3;
        for e in f..f + 3 {
            if let Some(c) = self.units[e].cell {
                if radius != 0 && g.d(here, c as usize) <= radius {
                    let to = self.push_square(g, here, c as usize, radius + 1, e);
                    self.units[e].cell = Some(to as u16);
                    pushed.push(e);
                    self.count(S_PUSH, side);
                    if self.record {
                        self.emit(
                            format!("The {} is pushed back to {}.", UNIT_NAMES[e], g.labels[to]),
                            J::obj(vec![("unit", J::i(e as i64)), ("cell", J::i(to as i64))]),
                        );
                    }
                }
            }
        }
        self.units[u].cell = Some(here as u16);
        self.count(S_RESPAWN, side);
        if self.record {
            self.emit(
                format!("The {} respawns on {}.", UNIT_NAMES[u], g.labels[here]),
                J::obj(vec![("unit", J::i(u as i64)), ("cell", J::i(here as i64))]),
            );
        }
        self.placed(g, &pushed, side);
    }

    fn push_square(&self, g: &Game, centre: usize, frm: usize, d: i32, ignore: usize) -> usize {
        let mut best: Option<((i32, i32, i32, usize), usize)> = None;
        for &c in &g.cells {
            let r = g.d(centre, c);
            if d <= r && r < FAR && !self.occupied(c, ignore) && !self.has_token(c) && !self.hands_a_win(g, ignore, c) {
                let key = (r, g.d(frm, c), g.manhattan(frm, c), c);
                if best.map_or(true, |(k, _)| key < k) {
                    best = Some((key, c));
                }
            }
        }
        best.expect("a square to push to").1
    }

    // -- combat (combat.py) ---------------------------------------------------------------------
    fn do_move(&mut self, g: &Game, u: usize, dest: usize) {
        let side = self.units[u].side;
        let enemies: Vec<usize> = (0..6).filter(|&i| self.units[i].cell == Some(dest as u16) && self.units[i].side != side).collect();
        if !enemies.is_empty() {
            let mut survived = false;
            for &e in &enemies {
                if !self.attack(g, e, u, S_LANDING) {
                    survived = true;
                }
            }
            if survived {
                if self.record {
                    let here = self.units[u].cell.unwrap() as usize;
                    self.emit(
                        format!("The {} stays on {}: its attack was absorbed.", UNIT_NAMES[u], g.labels[here]),
                        J::obj(vec![("unit", J::i(u as i64))]),
                    );
                }
                return;
            }
        }
        if self.record {
            let from = self.units[u].cell;
            self.emit(
                format!("The {} moves to {}.", UNIT_NAMES[u], g.labels[dest]),
                J::obj(vec![("unit", J::i(u as i64)), ("from", oi(from)), ("to", J::i(dest as i64))]),
            );
        }
        self.units[u].cell = Some(dest as u16);
        self.stop(g, u, true);
    }

    fn stop(&mut self, g: &Game, u: usize, own: bool) {
        let unit = self.units[u];
        let here = unit.cell.unwrap() as usize;
        let foe = 1 - unit.side;
        let fa = foe as usize * 3 + 1;
        let in_range = matches!(self.units[fa].cell, Some(c) if g.d(here, c as usize) <= g.archer_range);
        if unit.kind == ARCHER && in_range && g.archer_contest {
            self.contest(g, u);
        } else if in_range {
            self.attack(g, u, fa, S_ARCHER);
        } else if unit.kind == ARCHER && own && g.archer_offense {
            let mut targets = [0u8; 3];
            let mut len = 0u8;
            let f = foe as usize * 3;
            for e in f..f + 3 {
                if let Some(c) = self.units[e].cell {
                    if g.d(here, c as usize) <= g.archer_range && !self.guarded(e) {
                        targets[len as usize] = e as u8;
                        len += 1;
                    }
                }
            }
            if len > 1 {
                let seat = self.seat_of(unit.side) as u8;
                self.stack.push(Prompt { seat, unit: u as u8, kind: PKind::Shoot { targets, len } });
                return;
            }
            if len == 1 {
                self.attack(g, targets[0] as usize, u, S_ARCHER);
            }
        }
        if own {
            self.after_fire(g, u);
        }
    }

    fn contest(&mut self, g: &Game, u: usize) {
        let side = self.units[u].side;
        let foe = (1 - side) as usize * 3 + 1;
        let r = self.rng.roll(6);
        let won = r >= g.contest_target;
        self.count(S_CONTEST, side);
        if self.record {
            self.emit(
                format!(
                    "Archer contest: the {} rolls a six-sided die: {}, needed {}: {}.",
                    UNIT_NAMES[u],
                    r,
                    g.contest_target,
                    if won { "wins" } else { "loses" }
                ),
                J::obj(vec![("unit", J::i(u as i64)), ("roll", J::i(r)), ("won", J::Bool(won))]),
            );
        }
        if won {
            self.count(S_CONTEST_WON, side);
            self.attack(g, foe, u, S_ARCHER);
        } else {
            self.attack(g, u, foe, S_ARCHER);
        }
    }

    fn placed(&mut self, g: &Game, placed: &[usize], side: u8) {
        if self.winner.is_some() || !g.archer_contest {
            return;
        }
        let (a0, a1) = (1usize, 4usize);
        let (Some(c0), Some(c1)) = (self.units[a0].cell, self.units[a1].cell) else { return };
        if g.d(c0 as usize, c1 as usize) > g.archer_range {
            return;
        }
        let moved: Vec<usize> = [a0, a1].into_iter().filter(|a| placed.contains(a)).collect();
        if !moved.is_empty() {
            let who = if moved.len() == 1 { moved[0] } else { side as usize * 3 + 1 };
            self.contest(g, who);
        }
    }

    fn after_fire(&mut self, g: &Game, u: usize) {
        let Some(cell) = self.units[u].cell else { return };
        let cell = cell as usize;
        let kind = self.units[u].kind;
        if kind == SORCERER && self.orb_holder.is_none() && self.orb_cell == Some(cell as u16) {
            self.take_orb(u);
            if self.has_token(cell) {
                self.pickup(g, u, true);
            }
        } else if self.has_token(cell) {
            self.pickup(g, u, false);
        } else if kind == SORCERER && self.orb_holder != Some(u as u8) {
            self.revive_from = Some(u as u8);
        }
    }

    fn attack(&mut self, g: &Game, target: usize, by: usize, how: usize) -> bool {
        let side = self.units[by].side;
        let tside = self.units[target].side;
        if self.guarded(target) && self.orb_holder != Some(by as u8) {
            self.count(S_BLOCKED, tside);
            if self.record {
                self.emit(format!("The defensive {} blocks the attack.", UNIT_NAMES[target]), J::obj(vec![("unit", J::i(target as i64))]));
            }
            return false;
        }
        if self.units[target].inv_until.is_some() {
            self.units[target].inv_until = None;
            self.count(S_ABSORBED, tside);
            if self.record {
                self.emit(
                    format!("The {} is invulnerable: the attack is absorbed.", UNIT_NAMES[target]),
                    J::obj(vec![("unit", J::i(target as i64))]),
                );
            }
            return false;
        }
        self.count(how, side);
        if self.record {
            self.emit(
                format!("The {} kills the {}.", UNIT_NAMES[by], UNIT_NAMES[target]),
                J::obj(vec![("unit", J::i(target as i64)), ("by", J::i(by as i64))]),
            );
        }
        self.kill(g, target);
        true
    }

    fn kill(&mut self, g: &Game, u: usize) {
        let cell = self.units[u].cell;
        let side = self.units[u].side;
        {
            let unit = &mut self.units[u];
            unit.cell = None;
            unit.defensive = false;
            unit.slow_at = None;
            unit.inv_until = None;
        }
        self.count(S_UNITS_LOST, side);
        self.count(S_KILL, 1 - side);
        if self.orb_holder == Some(u as u8) {
            self.orb_holder = None;
            self.orb_cell = cell;
            if self.record {
                let c = cell.unwrap();
                self.emit(format!("The Orb falls on {}.", g.labels[c as usize]), J::obj(vec![("cell", J::i(c))]));
            }
        }
        if self.units[u].kind == SORCERER {
            if g.sorcerer_kill_wins {
                self.win(1 - side, format!("{} killed the {} sorcerer", SIDES[1 - side as usize], SIDES[side as usize]));
                return;
            }
            self.units[u].respawn = if g.respawn { Some(g.respawn_turns) } else { None };
        }
        let b = side as usize * 3;
        if (b..b + 3).all(|x| !self.alive(x)) {
            self.win(1 - side, format!("{} has no unit left", SIDES[side as usize]));
        }
    }

    // -- tokens (tokens.py) ---------------------------------------------------------------------
    fn pickup(&mut self, g: &Game, u: usize, took_orb: bool) {
        let cell = self.cell(u);
        let kind = self.pop_token(cell);
        if let Some(e) = self.revealed.iter_mut().find(|e| e.0 == kind) {
            e.1 += 1;
        } else {
            self.revealed.push((kind, 1));
        }
        let side = self.units[u].side;
        self.count(kind as usize, side);
        let name = TOKEN_KINDS[kind as usize];
        if self.record {
            let article = if "aeiou".contains(&name[..1]) { "an" } else { "a" };
            self.emit(
                format!("The {} picks up {} {} token.", UNIT_NAMES[u], article, capitalize(name)),
                J::obj(vec![("unit", J::i(u as i64)), ("token", J::s(name))]),
            );
        }
        let seat = self.seat_of(side) as u8;
        let unit = u as u8;
        match kind {
            T_SPEED if took_orb => {
                if self.record {
                    self.emit("Taking the Orb ends its movement: the Speed points are lost.".into(), J::obj(vec![("unit", J::i(unit))]));
                }
            }
            T_SPEED => self.stack.push(Prompt { seat, unit, kind: PKind::Speed { points: g.speed_bonus } }),
            T_SLOW => self.units[u].slow_at = Some(self.turn + 2),
            T_INVULNERABLE => self.units[u].inv_until = Some(self.turn + 2 * g.invulnerable_turns),
            T_DEATH => self.kill(g, u),
            T_REVIVE => self.stack.push(Prompt { seat, unit, kind: PKind::ReviveToken }),
            T_RECALL => {
                let moved = self.recall(g, side);
                self.placed(g, &moved, side);
            }
            T_DISPLACE => self.stack.push(Prompt { seat, unit, kind: PKind::Displace }),
            _ => {
                // teleport
                let r = if g.teleport_table { self.rng.roll(6) } else { 6 };
                if g.teleport_table && self.record {
                    self.emit(
                        format!(
                            "Teleport: the {} rolls a six-sided die: {} (1-4: the Orb moves to that red start square, 5: Mass Recall, 6: the unit teleports).",
                            UNIT_NAMES[u], r
                        ),
                        J::obj(vec![("unit", J::i(unit)), ("roll", J::i(r))]),
                    );
                }
                if r <= 4 {
                    self.count(S_TELEPORT_ORB, side);
                    self.orb_holder = None;
                    let c = g.red_starts[(r - 1) as usize];
                    self.orb_cell = Some(c as u16);
                    if self.record {
                        self.emit(
                            format!("The Orb is moved to red start square R{} ({}).", r, g.labels[c]),
                            J::obj(vec![("cell", J::i(c as i64))]),
                        );
                    }
                } else if r == 5 {
                    self.count(S_MASS_RECALL, side);
                    if self.record {
                        self.emit("Mass Recall: all units return to their sorcerer.".into(), J::Null);
                    }
                    let mut moved = self.recall(g, GREEN);
                    moved.extend(self.recall(g, RED));
                    self.placed(g, &moved, side);
                } else {
                    self.stack.push(Prompt { seat, unit, kind: PKind::Teleport });
                }
            }
        }
    }

    fn recall(&mut self, g: &Game, side: u8) -> Vec<usize> {
        let b = side as usize * 3;
        let mut moved = vec![];
        let Some(sc) = self.units[b].cell else { return moved };
        for u in [b + 1, b + 2] {
            if self.alive(u) {
                moved.push(u);
                let c = self.nearest_free(g, sc as usize, u);
                self.units[u].cell = Some(c as u16);
                if self.record {
                    self.emit(
                        format!("The {} is recalled to {}.", UNIT_NAMES[u], g.labels[c]),
                        J::obj(vec![("unit", J::i(u as i64)), ("cell", J::i(c as i64))]),
                    );
                }
            }
        }
        moved
    }

    // -- views (view.py) ---------------------------------------------------------------------------
    pub fn roles(&self) -> [&'static str; 2] {
        match self.side_of_seat {
            None => ["undecided", "undecided"],
            Some(s) => [SIDES[s[0] as usize], SIDES[s[1] as usize]],
        }
    }

    fn prompt_view(p: &Prompt) -> J {
        let mut pairs = vec![("kind", J::s(p.kind_name()))];
        pairs.extend(p.data_pairs());
        J::obj(pairs)
    }

    fn game_view(&self, g: &Game, seat: Option<usize>) -> J {
        let turn = self.turn as i64;
        let units: Vec<J> = self
            .units
            .iter()
            .enumerate()
            .map(|(i, v)| {
                J::obj(vec![
                    ("id", J::i(i as i64)),
                    ("name", J::s(UNIT_NAMES[i])),
                    ("side", J::s(SIDES[v.side as usize])),
                    ("kind", J::s(KINDS[v.kind as usize])),
                    ("cell", match v.cell {
                        Some(c) => g.xy(c as usize),
                        None => J::Null,
                    }),
                    ("stance", if v.kind == WARRIOR { J::s(if v.defensive { "defensive" } else { "offensive" }) } else { J::Null }),
                    ("slow", J::Bool(matches!(v.slow_at, Some(t) if t as i64 >= turn))),
                    ("slowed_now", J::Bool(v.slow_at == Some(self.turn))),
                    ("invulnerable", J::i(match v.inv_until {
                        Some(t) => (t as i64 - turn + 1).div_euclid(2),
                        None => 0,
                    })),
                    ("respawn", oi(v.respawn)),
                    ("moved", J::Bool(self.moved.contains(&(i as u8)))),
                    ("orb", J::Bool(self.orb_holder == Some(i as u8))),
                ])
            })
            .collect();
        let orb = if self.play {
            J::obj(vec![
                ("cell", match self.orb_cell {
                    Some(c) => g.xy(c as usize),
                    None => J::Null,
                }),
                ("holder", oi(self.orb_holder)),
            ])
        } else {
            J::Null
        };
        let mut cells: Vec<u16> = self.tokens.iter().map(|e| e.0).collect();
        cells.sort();
        let remaining: Vec<(String, J)> = g
            .token_counts
            .iter()
            .map(|&(k, n)| {
                let r = self.revealed.iter().find(|e| e.0 == k).map_or(0, |e| e.1);
                (TOKEN_KINDS[k as usize].to_string(), J::i(n as i64 - r as i64))
            })
            .collect();
        J::obj(vec![
            ("phase", J::s(if self.play { "play" } else { "place" })),
            ("colours", if self.side_of_seat.is_some() { J::Arr(self.roles().iter().map(|r| J::s(r)).collect()) } else { J::Null }),
            ("side", if self.play { J::s(SIDES[self.side as usize]) } else { J::Null }),
            ("red_start", oi(self.red_start.map(|r| r + 1))),
            ("exit", oi(self.exit.map(|r| r + 1))),
            ("units", J::Arr(units)),
            ("orb", orb),
            ("tokens", J::Arr(cells.iter().map(|&c| g.xy(c as usize)).collect())),
            ("unplaced_tokens", J::i(self.bag.len() as i64)),
            ("placements", J::Arr(self.placing.iter().map(|p| J::i(p.len() as i64)).collect())),
            ("my_placements", match seat {
                Some(s) => J::Arr(self.placing[s].iter().map(|&c| g.xy(c as usize)).collect()),
                None => J::Arr(vec![]),
            }),
            ("hidden_kinds", J::Obj(remaining)),
            ("revealed", self.revealed_j()),
            ("moved", J::Arr(self.moved.iter().map(|&u| J::i(u)).collect())),
            ("stance_open", J::Bool(self.play && self.moved.is_empty() && !self.stance_done)),
            ("prompt", match self.stack.last() {
                Some(p) => State::prompt_view(p),
                None => J::Null,
            }),
            ("winner", match self.winner {
                Some(w) => J::s(SIDES[w as usize]),
                None => J::Null,
            }),
        ])
    }

    fn revealed_j(&self) -> J {
        J::Obj(self.revealed.iter().map(|&(k, n)| (TOKEN_KINDS[k as usize].to_string(), J::i(n))).collect())
    }

    /// `State.view(seat)`.
    pub fn view(&self, g: &Game, seat: Option<usize>) -> J {
        let over = self.is_over();
        J::obj(vec![
            ("game", J::s("blackfire")),
            ("variant", J::s(&g.variant)),
            ("players", J::i(2)),
            ("seat", J::opt_i(seat)),
            ("acting", J::opt_i(self.current_seat())),
            ("turn", J::i(self.turn)),
            ("decisions", J::i(self.decisions)),
            ("over", J::Bool(over)),
            ("results", if over { self.results_j() } else { J::Null }),
            ("roles", J::Arr(self.roles().iter().map(|r| J::s(r)).collect())),
            ("prompt", match self.stack.last() {
                Some(p) => J::s(p.kind_name()),
                None => J::Null,
            }),
            ("state", self.game_view(g, seat)),
        ])
    }

    /// `State.events(seat)` from index `start`.
    pub fn events(&self, seat: Option<usize>, start: usize) -> J {
        J::Arr(
            self.log[start.min(self.log.len())..]
                .iter()
                .map(|e| {
                    let mut pairs = vec![("i", J::i(e.idx as i64)), ("decision", J::i(e.decision)), ("turn", J::i(e.turn))];
                    if e.to.is_some() && e.to == seat {
                        pairs.push(("text", J::Str(e.ptext.clone().unwrap_or_else(|| e.text.clone()))));
                        pairs.push(("data", e.pdata.clone().unwrap_or_else(|| e.data.clone())));
                        pairs.push(("private", J::Bool(true)));
                    } else {
                        pairs.push(("text", J::Str(e.text.clone())));
                        pairs.push(("data", e.data.clone()));
                    }
                    J::obj(pairs)
                })
                .collect(),
        )
    }

    // -- the state document --------------------------------------------------------------------------
    fn prompt_j(p: &Prompt) -> J {
        J::obj(vec![
            ("$r", J::s("boardlab.engine.state.Prompt")),
            ("v", J::Arr(vec![J::i(p.seat), J::s(p.kind_name()), J::obj(p.data_pairs())])),
        ])
    }

    pub fn to_json(&self, g: &Game) -> J {
        self.to_json_parts(g, true)
    }

    pub fn to_json_parts(&self, g: &Game, whole: bool) -> J {
        let units: Vec<J> = self
            .units
            .iter()
            .map(|v| {
                J::obj(vec![
                    ("$r", J::s("boardlab.games.blackfire.pieces.Unit")),
                    (
                        "v",
                        J::Arr(vec![
                            J::i(v.side),
                            J::i(v.kind),
                            oi(v.cell),
                            J::s(if v.defensive { "defensive" } else { "offensive" }),
                            oi(v.slow_at),
                            oi(v.inv_until),
                            oi(v.respawn),
                        ]),
                    ),
                ])
            })
            .collect();
        let tokens = if self.tokens.is_empty() {
            J::Obj(vec![])
        } else {
            J::obj(vec![(
                "$d",
                J::Arr(self.tokens.iter().map(|&(c, k)| J::Arr(vec![J::i(c), J::s(TOKEN_KINDS[k as usize])])).collect()),
            )])
        };
        let stats = J::Obj(
            STAT_KEYS
                .iter()
                .enumerate()
                .map(|(i, k)| (k.to_string(), J::Arr(vec![J::i(self.stats[i][0]), J::i(self.stats[i][1])])))
                .collect(),
        );
        let data = J::obj(vec![
            ("phase", J::s(if self.play { "play" } else { "place" })),
            ("bag", J::Arr(self.bag.iter().map(|&k| J::s(TOKEN_KINDS[k as usize])).collect())),
            ("tokens", tokens),
            ("placing", J::Arr(self.placing.iter().map(|p| J::Arr(p.iter().map(|&c| J::i(c)).collect())).collect())),
            ("side_of_seat", match self.side_of_seat {
                Some(s) => J::Arr(vec![J::i(s[0]), J::i(s[1])]),
                None => J::Null,
            }),
            ("red_start", oi(self.red_start)),
            ("exit", oi(self.exit)),
            ("units", J::Arr(units)),
            ("orb_cell", oi(self.orb_cell)),
            ("orb_holder", oi(self.orb_holder)),
            ("side", J::i(self.side)),
            ("moved", J::Arr(self.moved.iter().map(|&u| J::i(u)).collect())),
            ("stance_done", J::Bool(self.stance_done)),
            ("revive_from", oi(self.revive_from)),
            ("winner", oi(self.winner)),
            ("reason", J::Str(self.reason.clone())),
            ("stats", stats),
            ("revealed", self.revealed_j()),
        ]);
        let stack = J::Arr(self.stack.iter().map(State::prompt_j).collect());
        if !whole {
            return J::obj(vec![
                ("rng", J::Int(self.rng.state as i128)),
                ("turn", J::i(self.turn)),
                ("decisions", J::i(self.decisions)),
                ("truncated", J::Bool(self.truncated)),
                ("stack", stack),
                ("data", data),
            ]);
        }
        let log: Vec<J> = self
            .log
            .iter()
            .map(|e| {
                J::tuple(vec![
                    J::i(e.idx as i64),
                    J::i(e.decision),
                    J::i(e.turn),
                    J::Str(e.text.clone()),
                    e.data.clone(),
                    match e.to {
                        Some(s) => J::tuple(vec![J::i(s as i64)]),
                        None => J::Null,
                    },
                    match &e.ptext {
                        Some(t) => J::Str(t.clone()),
                        None => J::Null,
                    },
                    e.pdata.clone().unwrap_or(J::Null),
                ])
            })
            .collect();
        let history = match self.seed {
            Some(seed) if self.hist.len() == self.decisions as usize => J::obj(vec![
                ("seed", J::Int(seed)),
                ("actions", J::Arr(self.hist.iter().map(|a| a.to_j()).collect())),
            ]),
            _ => J::Null,
        };
        let mut pairs = vec![("format".to_string(), J::s("boardlab.state/1"))];
        if let J::Obj(cfg) = &g.config {
            pairs.extend(cfg.iter().cloned());
        }
        pairs.extend(
            vec![
                ("rng", J::Int(self.rng.state as i128)),
                ("turn", J::i(self.turn)),
                ("decisions", J::i(self.decisions)),
                ("truncated", J::Bool(self.truncated)),
                ("stack", stack),
                ("log", J::Arr(log)),
                ("data", data),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v)),
        );
        let mut body = String::new();
        J::Obj(pairs.clone()).dump(&mut body, true, true);
        let digest = sha256_hex(body.as_bytes())[..32].to_string();
        pairs.push(("history".to_string(), history));
        pairs.push(("digest".to_string(), J::Str(digest)));
        J::Obj(pairs)
    }

    // -- determinization -------------------------------------------------------------------------
    /// A copy for simulation: no log, no history.
    pub fn clone_sim(&self) -> State {
        State {
            rng: self.rng,
            turn: self.turn,
            decisions: self.decisions,
            truncated: self.truncated,
            stack: self.stack.clone(),
            play: self.play,
            bag: self.bag.clone(),
            tokens: self.tokens.clone(),
            tok: self.tok.clone(),
            placing: self.placing.clone(),
            side_of_seat: self.side_of_seat,
            red_start: self.red_start,
            exit: self.exit,
            units: self.units.clone(),
            orb_cell: self.orb_cell,
            orb_holder: self.orb_holder,
            side: self.side,
            moved: self.moved.clone(),
            stance_done: self.stance_done,
            revive_from: self.revive_from,
            winner: self.winner,
            reason: self.reason.clone(),
            stats: self.stats,
            revealed: self.revealed.clone(),
            max_turns: self.max_turns,
            tpp: self.tpp,
            record: false,
            log: vec![],
            seed: None,
            hist: vec![],
        }
    }

    /// `State.determinize(seat, rng)` without the log: every face-down token resampled.
    pub fn determinize(&self, g: &Game, seat: usize, rng: &mut Rng) -> State {
        let mut new = self.clone_sim();
        new.rng = Rng::new(rng.next64());
        let mut hidden: Vec<u16> = self.tokens.iter().map(|e| e.0).collect();
        hidden.sort();
        let mut kinds: Vec<u8> = hidden.iter().map(|&c| self.tok[c as usize]).collect();
        kinds.extend(self.bag.iter().copied());
        rng.shuffle(&mut kinds);
        for (i, &c) in hidden.iter().enumerate() {
            new.set_token(c as usize, kinds[i]);
        }
        new.bag = kinds[hidden.len()..].to_vec();
        if !self.play {
            let other = 1 - seat;
            let k = self.placing[other].len();
            if k > 0 {
                let mut pool: Vec<u16> = g.placeable.iter().map(|&c| c as u16).collect();
                let mut picks = Vec::with_capacity(k);
                for _ in 0..k {
                    let i = rng.below(pool.len() as u64) as usize;
                    picks.push(pool.remove(i));
                }
                new.placing[other] = picks;
            }
        }
        new
    }

    // -- features and evaluation (features.py) ----------------------------------------------------
    pub fn features(&self, g: &Game, seat: usize) -> [f64; 6] {
        let Some(sos) = self.side_of_seat else { return [0.0; 6] };
        let side = sos[seat];
        let alive = |s: u8| (s as usize * 3..s as usize * 3 + 3).filter(|&u| self.alive(u)).count() as i64;
        let exit_cell = g.exits[self.exit.unwrap() as usize];
        let (mut orb, mut progress, mut safety, mut pressure) = (0.0, 0.0, 1.0, 0.0);
        if let Some(h) = self.orb_holder {
            let hu = &self.units[h as usize];
            let hc = hu.cell.unwrap() as usize;
            let d = g.d(hc, exit_cell).min(30);
            let mine = hu.side == side;
            orb = if mine { 1.0 } else { -1.0 };
            progress = (1.0 - d as f64 / 30.0) * orb;
            let enemy = 1 - hu.side;
            let near = (enemy as usize * 3..enemy as usize * 3 + 3)
                .filter_map(|u| self.units[u].cell)
                .map(|c| g.d(c as usize, hc))
                .min()
                .unwrap_or(30);
            let closeness = 1.0 - near.min(10) as f64 / 10.0;
            if mine {
                safety = 1.0 - closeness;
            } else {
                pressure = closeness;
            }
        }
        let tokens: i64 = g.token_counts.iter().map(|&(k, _)| self.stats[k as usize][seat] as i64).sum();
        [
            orb,
            progress,
            (alive(side) - alive(1 - side)) as f64 / 3.0,
            safety,
            pressure,
            tokens as f64 / 15.0,
        ]
    }

    /// `position_value(seat)` with the default weights.
    pub fn evaluate(&self, g: &Game, seat: usize) -> f64 {
        if let Some(w) = self.winner {
            return if self.seat_of(w) == seat { 1.0 } else { 0.0 };
        }
        let f = self.features(g, seat);
        const W: [f64; 6] = [1.0, 2.5, 1.0, 0.5, 0.5, 0.2];
        let mut x = 0.0;
        for i in 0..6 {
            x += W[i] * f[i];
        }
        1.0 / (1.0 + (-x).exp())
    }

    /// Every seat's value at a depth cut-off: the fitted evaluation if the game has one.
    pub fn values(&self, g: &Game, out: &mut Vec<f64>) {
        out.clear();
        match &g.eval_models {
            None => {
                for s in 0..2 {
                    out.push(self.evaluate(g, s));
                }
            }
            Some(models) => {
                let feats = [self.features(g, 0), self.features(g, 1)];
                let get = |s: usize, f: usize| if f < 6 { feats[s][f] } else { 0.0 };
                for s in 0..2 {
                    let m = match self.side_of_seat {
                        None => &models[2],
                        Some(sos) => &models[sos[s] as usize],
                    };
                    let mut x = m.bias;
                    for &(f, w) in &m.own {
                        x += w * get(s, f);
                    }
                    for &(f, w) in &m.rival {
                        x += w * get(1 - s, f);
                    }
                    let x = x.clamp(-40.0, 40.0);
                    out.push(1.0 / (1.0 + (-x).exp()));
                }
            }
        }
    }
}
