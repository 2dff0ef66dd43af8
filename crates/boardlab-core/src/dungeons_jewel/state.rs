//! The rules (rules.py), the engine's turn cap and event log (engine/state.py), the views,
//! the JSON document and the determinization (view.py), and the features (features.py).

use super::game::{Game, TType, FEATURES};
use crate::json::{sha256_hex, J};
use crate::rng::Rng;

pub const FACE_UP: u16 = 1 << 8;
pub const NO_TOKEN: u8 = u8::MAX;
pub const NONE: i8 = -1;
const SIDES: [&str; 4] = ["N", "E", "S", "W"];
const SIDE_NAMES: [&str; 4] = ["north", "east", "south", "west"];
const OPPOSITE: [u8; 4] = [2, 3, 0, 1];

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    Move(u16),
    Attack(u8),
    Dragon,
    Place(bool), // true = reveal
    Roll,
    Use(u8),
    Take(u8),
    Wall(u8), // 0..3 = N E S W, 4 = none
}

impl Action {
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Move(_) => "move",
            Action::Attack(_) => "attack",
            Action::Dragon => "dragon",
            Action::Place(_) => "place",
            Action::Roll => "roll",
            Action::Use(_) => "use",
            Action::Take(_) => "take",
            Action::Wall(_) => "wall",
        }
    }
    /// The action as JSON (the list form of the Python tuple).
    pub fn to_j(&self, g: &Game) -> J {
        let mut v = vec![J::s(self.kind())];
        match *self {
            Action::Move(c) => v.push(J::i(c)),
            Action::Attack(s) => v.push(J::i(s)),
            Action::Place(r) => v.push(J::s(if r { "reveal" } else { "secret" })),
            Action::Use(i) | Action::Take(i) => v.push(J::s(&g.item_ids[i as usize])),
            Action::Wall(d) => v.push(J::s(if d < 4 { SIDES[d as usize] } else { "none" })),
            Action::Dragon | Action::Roll => {}
        }
        J::Arr(v)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Prompt {
    Survive { seat: u8, cell: u16, loot: bool },
    Place { seat: u8, cell: u16 },
    Wall { seat: u8, cell: u16 },
    Take { seat: u8, from: u8 },
}

impl Prompt {
    pub fn seat(&self) -> usize {
        match *self {
            Prompt::Survive { seat, .. } | Prompt::Place { seat, .. } | Prompt::Wall { seat, .. } | Prompt::Take { seat, .. } => {
                seat as usize
            }
        }
    }
    pub fn kind(&self) -> &'static str {
        match self {
            Prompt::Survive { .. } => "survive",
            Prompt::Place { .. } => "place",
            Prompt::Wall { .. } => "wall",
            Prompt::Take { .. } => "take",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Event {
    pub idx: usize,
    pub decision: u32,
    pub turn: u32,
    pub text: String,
    pub data: J,
    pub to: Option<Vec<usize>>,
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
    pub seat: usize,
    pub first: usize,
    pub pos: [u16; 4],
    pub health: [i64; 4],
    pub power: [i64; 4],
    pub items: [Vec<u8>; 4],
    pub tokens: Vec<u8>,
    pub known: Vec<u16>,
    pub walls: Vec<u8>,
    pub facing: Vec<(u16, u8)>,
    pub pile: Vec<u8>,
    pub deck: Vec<u8>,
    pub jewel: i8,
    pub exit: i8,
    pub winner: i8,
    pub stats: Vec<u32>,
    pub max_turns: u32,
    // the engine's bookkeeping while events are recorded
    pub record: bool,
    pub log: Vec<Event>,
    pub seed: Option<i128>,
    pub hist: Vec<Action>,
}

fn opt(v: i8) -> J {
    if v < 0 {
        J::Null
    } else {
        J::i(v)
    }
}

impl State {
    /// `game.new_state(seed)`; `record` is `game.record_events`.
    pub fn new(g: &Game, seed: i128, max_turns: u32, record: bool) -> State {
        let n = g.players;
        let mut st = State {
            rng: Rng::new(seed.rem_euclid(1i128 << 64) as u64),
            turn: 0,
            decisions: 0,
            truncated: false,
            stack: Vec::with_capacity(4),
            seat: 0,
            first: 0,
            pos: [0; 4],
            health: [0; 4],
            power: [0; 4],
            items: Default::default(),
            tokens: vec![NO_TOKEN; g.cells],
            known: vec![0; g.cells],
            walls: vec![0; g.cells],
            facing: vec![],
            pile: g.pile0.clone(),
            deck: g.deck0.clone(),
            jewel: NONE,
            exit: NONE,
            winner: NONE,
            stats: vec![0; g.stat_keys.len() * n],
            max_turns: if max_turns > 0 { max_turns } else { g.max_turns },
            record,
            log: vec![],
            seed: if record { Some(seed) } else { None },
            hist: vec![],
        };
        for s in 0..n {
            st.pos[s] = g.starts[s] as u16;
            st.health[s] = g.start_health;
        }
        st.rng.shuffle(&mut st.pile);
        st.rng.shuffle(&mut st.deck);
        let mut contenders: Vec<usize> = (0..n).collect();
        while contenders.len() > 1 {
            let rolls: Vec<u64> = contenders.iter().map(|_| st.rng.roll(g.die)).collect();
            let best = *rolls.iter().max().unwrap();
            if st.record {
                let parts: Vec<String> =
                    contenders.iter().zip(&rolls).map(|(&s, r)| format!("{} {}", g.seat_names[s], r)).collect();
                let data = J::obj(vec![(
                    "rolls",
                    J::Arr(contenders.iter().zip(&rolls).map(|(&s, &r)| J::Arr(vec![J::i(s as i64), J::i(r)])).collect()),
                )]);
                st.emit(format!("Rolls for the first player: {}", parts.join(", ")), data, None);
            }
            contenders = contenders.iter().zip(&rolls).filter(|(_, &r)| r == best).map(|(&s, _)| s).collect();
        }
        st.first = contenders[0];
        st.seat = contenders[0];
        if st.record {
            let text = format!("{} shuffles and starts.", g.seat_names[st.seat]);
            st.emit(text, J::obj(vec![("first", J::i(st.seat as i64))]), None);
        }
        st.turn += 1;
        st
    }

    // -- engine ------------------------------------------------------------------------
    pub fn emit(&mut self, text: String, data: J, private: Option<(usize, String, J)>) {
        let (to, ptext, pdata) = match private {
            Some((s, t, d)) => (Some(vec![s]), Some(t), Some(d)),
            None => (None, None, None),
        };
        let idx = self.log.len();
        self.log.push(Event { idx, decision: self.decisions, turn: self.turn, text, data, to, ptext, pdata });
    }

    #[inline]
    pub fn rules_over(&self) -> bool {
        self.winner >= 0
    }
    #[inline]
    pub fn is_over(&self) -> bool {
        self.truncated || self.winner >= 0
    }
    #[inline]
    pub fn current_seat(&self) -> Option<usize> {
        if self.is_over() {
            None
        } else if let Some(p) = self.stack.last() {
            Some(p.seat())
        } else {
            Some(self.seat)
        }
    }

    /// Results.to_json(): scores, winners, truncated, reason.
    pub fn scores(&self, g: &Game) -> Vec<f64> {
        (0..g.players).map(|s| if !self.truncated && self.winner == s as i8 { 1.0 } else { 0.0 }).collect()
    }
    pub fn results_j(&self, g: &Game) -> J {
        if self.truncated {
            J::obj(vec![
                ("scores", J::Arr((0..g.players).map(|_| J::Float(0.0)).collect())),
                ("winners", J::Arr(vec![])),
                ("truncated", J::Bool(true)),
                ("reason", J::s("turn cap reached")),
            ])
        } else {
            J::obj(vec![
                ("scores", J::Arr(self.scores(g).into_iter().map(J::Float).collect())),
                ("winners", J::Arr(vec![J::i(self.winner as i64)])),
                ("truncated", J::Bool(false)),
                ("reason", J::s("brought the jewel home")),
            ])
        }
    }

    /// `State.apply` after validation: the rules' transition, the decision count, the turn cap.
    pub fn apply(&mut self, g: &Game, a: Action) {
        self.apply_rules(g, a);
        if self.record {
            self.hist.push(a);
        }
        self.decisions += 1;
        if self.turn > self.max_turns && self.winner < 0 {
            self.truncated = true;
            if self.record {
                self.emit(format!("The game is stopped by the turn cap ({} turns).", self.max_turns), J::Null, None);
            }
        }
    }

    #[inline]
    fn count(&mut self, g: &Game, key: usize, seat: usize) {
        self.stats[key * g.players + seat] += 1;
    }

    fn has_item(&self, s: usize, item: u8) -> bool {
        self.items[s].contains(&item)
    }

    // -- legal actions -----------------------------------------------------------------
    pub fn legal_actions(&self, g: &Game) -> Vec<Action> {
        let mut out = Vec::with_capacity(8);
        self.legal_into(g, &mut out);
        out
    }

    pub fn legal_into(&self, g: &Game, out: &mut Vec<Action>) {
        out.clear();
        if self.is_over() {
            return;
        }
        if let Some(p) = self.stack.last() {
            match *p {
                Prompt::Survive { seat, cell, .. } => {
                    if let Some(cure) = g.cure[self.tokens[cell as usize] as usize] {
                        if self.has_item(seat as usize, cure) {
                            out.push(Action::Use(cure));
                        }
                    }
                    out.push(Action::Roll);
                }
                Prompt::Place { .. } => {
                    out.push(Action::Place(false));
                    out.push(Action::Place(true));
                }
                Prompt::Wall { cell, .. } => self.wall_choices(g, cell as usize, out),
                Prompt::Take { from, .. } => {
                    let mut its: Vec<u8> = self.items[from as usize].clone();
                    its.sort_by(|a, b| g.item_ids[*a as usize].cmp(&g.item_ids[*b as usize]));
                    its.dedup();
                    for i in its {
                        out.push(Action::Take(i));
                    }
                }
            }
            return;
        }
        let s = self.seat;
        let c = self.pos[s] as usize;
        let w = match g.wall_item {
            Some(wi) if self.has_item(s, wi) => 0,
            _ => self.walls[c],
        };
        for &(d, j) in &g.sides[c] {
            if (w >> d) & 1 == 0 {
                out.push(Action::Move(j as u16));
            }
        }
        if c == g.centre {
            if self.jewel < 0 {
                out.push(Action::Dragon);
            } else if self.jewel == s as i8 && self.exit == s as i8 && g.exit_any {
                for &j in &g.around {
                    let m = Action::Move(j as u16);
                    if !out.contains(&m) && !g.sides[c].iter().any(|&(_, x)| x == j) {
                        out.push(m);
                    }
                }
            }
        }
        for t in 0..g.players {
            if t != s && g.near(c, self.pos[t] as usize) {
                out.push(Action::Attack(t as u8));
            }
        }
    }

    fn wall_choices(&self, g: &Game, cell: usize, out: &mut Vec<Action>) {
        let mut walls = self.walls.clone();
        for &(d, j) in &g.sides[cell] {
            if (walls[cell] >> d) & 1 == 1 {
                continue;
            }
            walls[cell] |= 1 << d;
            walls[j] |= 1 << OPPOSITE[d as usize];
            if g.connected(&walls) {
                out.push(Action::Wall(d));
            }
            walls[cell] &= !(1 << d);
            walls[j] &= !(1 << OPPOSITE[d as usize]);
        }
        if out.is_empty() {
            out.push(Action::Wall(4));
        }
    }

    // -- the transition ----------------------------------------------------------------
    fn apply_rules(&mut self, g: &Game, a: Action) {
        if let Some(p) = self.stack.pop() {
            match (a, p) {
                (Action::Roll, Prompt::Survive { cell, loot, .. }) => self.roll_hazard(g, cell as usize, loot),
                (Action::Use(item), Prompt::Survive { cell, loot, .. }) => self.use_item(g, cell as usize, loot, item),
                (Action::Place(reveal), Prompt::Place { cell, .. }) => self.place(g, cell as usize, reveal),
                (Action::Wall(d), Prompt::Wall { cell, .. }) => self.turn_wall(g, cell as usize, d),
                (Action::Take(item), Prompt::Take { seat, from }) => self.take(g, seat as usize, from as usize, item),
                _ => unreachable!("action does not answer the prompt"),
            }
        } else {
            let s = self.seat as i8;
            if self.exit == s && (matches!(a, Action::Move(_)) || g.exit_next_turn) {
                self.exit = NONE;
            }
            match a {
                Action::Move(c) => self.do_move(g, c as usize),
                Action::Attack(t) => self.attack(g, t as usize),
                _ => self.fight_dragon(g),
            }
        }
        if self.stack.is_empty() && self.winner < 0 {
            self.seat = (self.seat + 1) % g.players;
            self.turn += 1;
        }
    }

    fn do_move(&mut self, g: &Game, cell: usize) {
        let s = self.seat;
        self.pos[s] = cell as u16;
        if self.record {
            let t = format!("{} moves to {}.", g.seat_names[s], g.labels[cell]);
            self.emit(t, J::obj(vec![("seat", J::i(s as i64)), ("cell", J::i(cell as i64))]), None);
        }
        if g.is_start(cell) {
            if self.jewel == s as i8 && cell == g.starts[s] {
                self.win(g, s);
            }
            return;
        }
        if cell == g.centre {
            if self.jewel < 0 {
                self.fight_dragon(g);
            }
            return;
        }
        let kind = self.tokens[cell];
        if kind == NO_TOKEN {
            let Some(kind) = self.pile.pop() else {
                if self.record {
                    self.emit(
                        "The dungeon token pile is empty: the room is empty.".to_string(),
                        J::obj(vec![("cell", J::i(cell as i64))]),
                        None,
                    );
                }
                return;
            };
            self.tokens[cell] = kind;
            self.count(g, g.stat_token[kind as usize], s);
            let k = kind as usize;
            if g.token_type[k] == TType::Wall {
                self.known[cell] = FACE_UP | 1 << s;
                if self.record {
                    let t = format!("{} draws a wall token.", g.seat_names[s]);
                    let d = J::obj(vec![("seat", J::i(s as i64)), ("cell", J::i(cell as i64)), ("token", J::s(&g.token_ids[k]))]);
                    self.emit(t, d, None);
                }
                self.stack.push(Prompt::Wall { seat: s as u8, cell: cell as u16 });
            } else {
                self.known[cell] = 1 << s;
                if self.record {
                    let t = format!("{} draws a dungeon token for {}.", g.seat_names[s], g.labels[cell]);
                    let d = J::obj(vec![("seat", J::i(s as i64)), ("cell", J::i(cell as i64))]);
                    let pt = format!("You draw {} for {}.", g.token_names[k], g.labels[cell]);
                    let pd = J::obj(vec![("seat", J::i(s as i64)), ("cell", J::i(cell as i64)), ("token", J::s(&g.token_ids[k]))]);
                    self.emit(t, d, Some((s, pt, pd)));
                }
                self.stack.push(Prompt::Place { seat: s as u8, cell: cell as u16 });
            }
            return;
        }
        self.known[cell] |= 1 << s;
        if g.token_type[kind as usize] == TType::Wall {
            return;
        }
        self.count(g, g.stat_token[kind as usize], s);
        self.stack.push(Prompt::Survive { seat: s as u8, cell: cell as u16, loot: false });
    }

    fn place(&mut self, g: &Game, cell: usize, reveal: bool) {
        let s = self.seat;
        if reveal {
            self.known[cell] |= FACE_UP;
        }
        if self.record {
            if reveal {
                let k = self.tokens[cell] as usize;
                let t = format!("{} places {} face up on {}.", g.seat_names[s], g.token_names[k], g.labels[cell]);
                let d = J::obj(vec![("seat", J::i(s as i64)), ("cell", J::i(cell as i64)), ("token", J::s(&g.token_ids[k]))]);
                self.emit(t, d, None);
            } else {
                let t = format!("{} places the token face down.", g.seat_names[s]);
                self.emit(t, J::obj(vec![("seat", J::i(s as i64)), ("cell", J::i(cell as i64))]), None);
            }
        }
        self.stack.push(Prompt::Survive { seat: s as u8, cell: cell as u16, loot: true });
    }

    fn use_item(&mut self, g: &Game, cell: usize, loot: bool, item: u8) {
        let s = self.seat;
        self.count(g, g.st_item_used, s);
        if self.record {
            let k = self.tokens[cell] as usize;
            let t = format!("{} survives the room with an item.", g.seat_names[s]);
            let d = J::obj(vec![("seat", J::i(s as i64)), ("cell", J::i(cell as i64))]);
            let pt = format!("You survive {} with {}.", g.token_names[k], g.item_names[item as usize]);
            let pd = J::obj(vec![
                ("seat", J::i(s as i64)),
                ("cell", J::i(cell as i64)),
                ("token", J::s(&g.token_ids[k])),
                ("item", J::s(&g.item_ids[item as usize])),
            ]);
            self.emit(t, d, Some((s, pt, pd)));
        }
        if loot {
            self.loot(g, s);
        }
    }

    fn roll_hazard(&mut self, g: &Game, cell: usize, loot: bool) {
        let s = self.seat;
        let kind = self.tokens[cell] as usize;
        let ttype = g.token_type[kind];
        let r = self.rng.roll(g.die) as i64;
        let ok = if ttype == TType::Monster { r + self.power[s] >= g.monster } else { r >= g.hazard };
        if self.record {
            let die = g.die_name(false);
            let sum_text = if ttype == TType::Monster {
                format!("{} on {} + {} attack power = {}, needed {}", r, die, self.power[s], r + self.power[s], g.monster)
            } else {
                format!("{} on {}, needed {}", r, die, g.hazard)
            };
            let verdict = if ok { "survives" } else { "fails" };
            let name = &g.seat_names[s];
            let public = if self.known[cell] & FACE_UP != 0 {
                format!("{} rolls against {}: {}: {} the room.", name, g.token_names[kind], sum_text, verdict)
            } else {
                format!("{} rolls {} on {} and {} the room (its token is secret).", name, r, die, verdict)
            };
            let d = J::obj(vec![("seat", J::i(s as i64)), ("cell", J::i(cell as i64)), ("roll", J::i(r)), ("ok", J::Bool(ok))]);
            let pt = format!(
                "You roll against {}: {}: {}.",
                g.token_names[kind],
                sum_text,
                if ok { "you survive" } else { "you fail" }
            );
            let pd = J::obj(vec![
                ("seat", J::i(s as i64)),
                ("cell", J::i(cell as i64)),
                ("roll", J::i(r)),
                ("ok", J::Bool(ok)),
                ("token", J::s(&g.token_ids[kind])),
            ]);
            self.emit(public, d, Some((s, pt, pd)));
        }
        if ok {
            if loot {
                self.loot(g, s);
            }
        } else if ttype == TType::Trapdoor {
            self.count(g, g.st_trapdoor, s);
            self.send_home(g, s);
        } else {
            self.damage(g, s);
        }
    }

    fn loot(&mut self, g: &Game, s: usize) {
        let Some(item) = self.deck.pop() else {
            self.count(g, g.st_no_loot, s);
            if self.record {
                self.emit("The treasure pile is empty: no loot.".to_string(), J::obj(vec![("seat", J::i(s as i64))]), None);
            }
            return;
        };
        self.items[s].push(item);
        if g.item_attack[item as usize] {
            self.power[s] += 1;
        }
        self.count(g, g.stat_item[item as usize], s);
        if self.record {
            let t = format!("{} loots {}.", g.seat_names[s], g.item_names[item as usize]);
            self.emit(t, J::obj(vec![("seat", J::i(s as i64)), ("item", J::s(&g.item_ids[item as usize]))]), None);
        }
    }

    fn damage(&mut self, g: &Game, s: usize) {
        self.health[s] -= 1;
        if self.health[s] <= 0 {
            self.count(g, g.st_respawn, s);
            self.send_home(g, s);
            self.health[s] = g.respawn_health;
            if self.record {
                let t = format!("{} is out of health and starts over.", g.seat_names[s]);
                self.emit(t, J::obj(vec![("seat", J::i(s as i64))]), None);
            }
        } else if self.record {
            let t = format!("{} loses a health point.", g.seat_names[s]);
            self.emit(t, J::obj(vec![("seat", J::i(s as i64)), ("health", J::i(self.health[s]))]), None);
        }
    }

    fn send_home(&mut self, g: &Game, s: usize) {
        if self.jewel == s as i8 {
            self.jewel = NONE;
            self.exit = NONE;
            self.count(g, g.st_jewel_dropped, s);
            if self.record {
                let t = format!("{} drops the jewel; it returns to the dragon.", g.seat_names[s]);
                self.emit(t, J::obj(vec![("seat", J::i(s as i64))]), None);
            }
        }
        self.pos[s] = g.starts[s] as u16;
    }

    fn fight_dragon(&mut self, g: &Game) {
        let s = self.seat;
        let r1 = self.rng.roll(g.die) as i64;
        let r2 = self.rng.roll(g.die) as i64;
        let total = r1 + r2 + self.power[s];
        let ok = total >= g.dragon;
        self.count(g, g.st_dragon_fight, s);
        if self.record {
            let t = format!(
                "{} fights the dragon: two {} {}+{}, +{} attack power = {}, needed {}: {}.",
                g.seat_names[s],
                g.die_name(true),
                r1,
                r2,
                self.power[s],
                total,
                g.dragon,
                if ok { "wins the jewel" } else { "fails" }
            );
            let d = J::obj(vec![
                ("seat", J::i(s as i64)),
                ("rolls", J::Arr(vec![J::i(r1), J::i(r2)])),
                ("total", J::i(total)),
                ("ok", J::Bool(ok)),
            ]);
            self.emit(t, d, None);
        }
        if ok {
            self.count(g, g.st_dragon_won, s);
            self.jewel = s as i8;
            self.exit = s as i8;
        } else {
            self.damage(g, s);
        }
    }

    fn win(&mut self, g: &Game, s: usize) {
        self.winner = s as i8;
        if self.record {
            let t = format!("{} brings the jewel home and wins!", g.seat_names[s]);
            self.emit(t, J::obj(vec![("winner", J::i(s as i64))]), None);
        }
    }

    fn attack(&mut self, g: &Game, t: usize) {
        let s = self.seat;
        let a = self.rng.roll(g.die) as i64 + self.power[s];
        let d = self.rng.roll(g.die) as i64 + self.power[t];
        let (win, lose);
        if a > d {
            win = s;
            lose = t;
            self.count(g, g.st_won_att, s);
        } else if d > a {
            win = t;
            lose = s;
            self.count(g, g.st_won_def, t);
        } else {
            self.count(g, g.st_tie, s);
            if self.record {
                let text = format!("{} attacks {}: {}, a tie.", g.seat_names[s], g.seat_names[t], self.contest_text(g, t, a, d));
                let data = J::obj(vec![
                    ("seat", J::i(s as i64)),
                    ("target", J::i(t as i64)),
                    ("sums", J::Arr(vec![J::i(a), J::i(d)])),
                ]);
                self.emit(text, data, None);
            }
            return;
        }
        if self.record {
            let text = format!(
                "{} attacks {}: {}, {} wins.",
                g.seat_names[s],
                g.seat_names[t],
                self.contest_text(g, t, a, d),
                g.seat_names[win]
            );
            let data = J::obj(vec![
                ("seat", J::i(s as i64)),
                ("target", J::i(t as i64)),
                ("sums", J::Arr(vec![J::i(a), J::i(d)])),
                ("winner", J::i(win as i64)),
            ]);
            self.emit(text, data, None);
        }
        if self.jewel == lose as i8 {
            self.jewel = win as i8;
            if self.exit == lose as i8 {
                self.exit = NONE;
            }
            self.count(g, g.st_jewel_taken, win);
            if self.record {
                let text = format!("{} takes the jewel.", g.seat_names[win]);
                self.emit(text, J::obj(vec![("seat", J::i(win as i64))]), None);
            }
        }
        self.damage(g, lose);
        if self.jewel == win as i8 && self.pos[win] as usize == g.starts[win] {
            self.win(g, win);
            return;
        }
        if g.steal && !self.items[lose].is_empty() {
            self.stack.push(Prompt::Take { seat: win as u8, from: lose as u8 });
        }
    }

    fn contest_text(&self, g: &Game, t: usize, a: i64, d: i64) -> String {
        let s = self.seat;
        let die = g.die_name(false);
        format!(
            "each rolls {} and adds attack power: {} + {} = {} against {} + {} = {}",
            die,
            a - self.power[s],
            self.power[s],
            a,
            d - self.power[t],
            self.power[t],
            d
        )
    }

    fn take(&mut self, g: &Game, win: usize, lose: usize, item: u8) {
        if let Some(p) = self.items[lose].iter().position(|&x| x == item) {
            self.items[lose].remove(p);
        }
        self.items[win].push(item);
        if g.item_attack[item as usize] {
            self.power[lose] -= 1;
            self.power[win] += 1;
        }
        self.count(g, g.st_item_stolen, win);
        if self.record {
            let text = format!("{} takes {} from {}.", g.seat_names[win], g.item_names[item as usize], g.seat_names[lose]);
            let data = J::obj(vec![
                ("seat", J::i(win as i64)),
                ("from", J::i(lose as i64)),
                ("item", J::s(&g.item_ids[item as usize])),
            ]);
            self.emit(text, data, None);
        }
    }

    fn turn_wall(&mut self, g: &Game, cell: usize, d: u8) {
        let s = self.seat;
        if d < 4 {
            let j = g.sides[cell].iter().find(|&&(x, _)| x == d).map(|&(_, j)| j).unwrap();
            self.walls[cell] |= 1 << d;
            self.walls[j] |= 1 << OPPOSITE[d as usize];
            if let Some(e) = self.facing.iter_mut().find(|e| e.0 as usize == cell) {
                e.1 = d;
            } else {
                self.facing.push((cell as u16, d));
            }
        }
        if self.record {
            let text = if d < 4 {
                format!("{} turns the wall to the {} side of {}.", g.seat_names[s], SIDE_NAMES[d as usize], g.labels[cell])
            } else {
                format!("{} sets the wall of {} on no side: every side would cut a room off.", g.seat_names[s], g.labels[cell])
            };
            let data = J::obj(vec![
                ("seat", J::i(s as i64)),
                ("cell", J::i(cell as i64)),
                ("side", J::s(if d < 4 { SIDES[d as usize] } else { "none" })),
            ]);
            self.emit(text, data, None);
        }
    }

    // -- views -------------------------------------------------------------------------
    #[inline]
    pub fn face_known(&self, c: usize, seat: Option<usize>) -> bool {
        let m = self.known[c];
        m & FACE_UP != 0 || matches!(seat, Some(s) if (m >> s) & 1 == 1)
    }

    fn game_view(&self, g: &Game, seat: Option<usize>) -> J {
        let mut tokens = vec![];
        for c in 0..g.cells {
            let k = self.tokens[c];
            if k == NO_TOKEN {
                continue;
            }
            let up = self.known[c] & FACE_UP != 0;
            let face = if self.face_known(c, seat) { J::s(&g.token_ids[k as usize]) } else { J::Null };
            tokens.push(J::Arr(vec![J::i(c as i64), face, J::Bool(up)]));
        }
        let prompt = match self.stack.last() {
            None => J::Null,
            Some(p) => {
                let mut pairs = vec![("kind", J::s(p.kind())), ("seat", J::i(p.seat() as i64))];
                match *p {
                    Prompt::Survive { cell, loot, .. } => {
                        pairs.push(("cell", J::i(cell)));
                        pairs.push(("loot", J::Bool(loot)));
                    }
                    Prompt::Take { from, .. } => pairs.push(("from", J::i(from))),
                    Prompt::Place { cell, .. } | Prompt::Wall { cell, .. } => pairs.push(("cell", J::i(cell))),
                }
                J::obj(pairs)
            }
        };
        let n = g.players;
        let mut facing = self.facing.clone();
        facing.sort();
        J::obj(vec![
            ("size", J::i(g.size as i64)),
            ("centre", J::i(g.centre as i64)),
            ("starts", J::Arr(g.starts.iter().map(|&s| J::i(s as i64)).collect())),
            ("first", J::i(self.first as i64)),
            ("turn_seat", J::i(self.seat as i64)),
            ("positions", J::Arr((0..n).map(|s| J::i(self.pos[s])).collect())),
            ("health", J::Arr((0..n).map(|s| J::i(self.health[s])).collect())),
            ("power", J::Arr((0..n).map(|s| J::i(self.power[s])).collect())),
            ("items", self.items_j(g)),
            ("jewel", opt(self.jewel)),
            ("jewel_exit", opt(self.exit)),
            ("winner", opt(self.winner)),
            ("tokens", J::Arr(tokens)),
            ("walls", J::Arr(facing.iter().map(|&(c, d)| J::Arr(vec![J::i(c), J::s(SIDES[d as usize])])).collect())),
            ("blocked", J::Arr(self.walls.iter().map(|&w| J::i(w)).collect())),
            ("token_pile", J::i(self.pile.len() as i64)),
            ("treasure_deck", J::i(self.deck.len() as i64)),
            ("pending", prompt),
        ])
    }

    fn items_j(&self, g: &Game) -> J {
        J::Arr(
            (0..g.players)
                .map(|s| J::Arr(self.items[s].iter().map(|&i| J::s(&g.item_ids[i as usize])).collect()))
                .collect(),
        )
    }

    /// `State.view(seat)`.
    pub fn view(&self, g: &Game, seat: Option<usize>) -> J {
        let over = self.is_over();
        J::obj(vec![
            ("game", J::s("dungeons-jewel")),
            ("variant", J::s(&g.variant)),
            ("players", J::i(g.players as i64)),
            ("seat", J::opt_i(seat)),
            ("acting", J::opt_i(self.current_seat())),
            ("turn", J::i(self.turn)),
            ("decisions", J::i(self.decisions)),
            ("over", J::Bool(over)),
            ("results", if over { self.results_j(g) } else { J::Null }),
            ("roles", J::Arr(g.roles.iter().map(|r| J::s(r)).collect())),
            ("prompt", match self.stack.last() {
                Some(p) => J::s(p.kind()),
                None => J::Null,
            }),
            ("state", self.game_view(g, seat)),
        ])
    }

    /// `State.events(seat)`.
    pub fn events(&self, seat: Option<usize>, start: usize) -> J {
        J::Arr(
            self.log[start.min(self.log.len())..]
                .iter()
                .map(|e| {
                    let mut pairs = vec![("i", J::i(e.idx as i64)), ("decision", J::i(e.decision)), ("turn", J::i(e.turn))];
                    let private = matches!((&e.to, seat), (Some(to), Some(s)) if to.contains(&s));
                    if private {
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

    // -- the state document ------------------------------------------------------------
    fn prompt_j(p: &Prompt) -> J {
        let data = match *p {
            Prompt::Survive { cell, loot, .. } => J::tuple(vec![J::i(cell), J::i(loot as i64)]),
            Prompt::Place { cell, .. } | Prompt::Wall { cell, .. } => J::i(cell),
            Prompt::Take { from, .. } => J::i(from),
        };
        J::obj(vec![
            ("$r", J::s("boardlab.engine.state.Prompt")),
            ("v", J::Arr(vec![J::i(p.seat() as i64), J::s(p.kind()), data])),
        ])
    }

    /// `State.to_json()`, digest included.
    pub fn to_json(&self, g: &Game) -> J {
        self.to_json_parts(g, true)
    }

    /// The state document; without `whole`, only rng, turn, decisions, truncated, stack and data.
    pub fn to_json_parts(&self, g: &Game, whole: bool) -> J {
        let n = g.players;
        let ints = |v: &[i64]| J::Arr(v[..n].iter().map(|&x| J::i(x)).collect());
        let log: Vec<J> = self
            .log
            .iter()
            .take(if whole { usize::MAX } else { 0 })
            .map(|e| {
                J::tuple(vec![
                    J::i(e.idx as i64),
                    J::i(e.decision),
                    J::i(e.turn),
                    J::Str(e.text.clone()),
                    e.data.clone(),
                    match &e.to {
                        Some(to) => J::tuple(to.iter().map(|&s| J::i(s as i64)).collect()),
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
        let facing = if self.facing.is_empty() {
            J::Obj(vec![])
        } else {
            J::obj(vec![("$d", J::Arr(self.facing.iter().map(|&(c, d)| J::Arr(vec![J::i(c), J::i(d)])).collect()))])
        };
        let data = J::obj(vec![
            ("seat", J::i(self.seat as i64)),
            ("first", J::i(self.first as i64)),
            ("pos", J::Arr(self.pos[..n].iter().map(|&x| J::i(x)).collect())),
            ("health", ints(&self.health)),
            ("power", ints(&self.power)),
            ("items", self.items_j(g)),
            (
                "tokens",
                J::Arr(self.tokens.iter().map(|&k| if k == NO_TOKEN { J::Null } else { J::s(&g.token_ids[k as usize]) }).collect()),
            ),
            ("known", J::Arr(self.known.iter().map(|&k| J::i(k)).collect())),
            ("walls", J::Arr(self.walls.iter().map(|&k| J::i(k)).collect())),
            ("facing", facing),
            ("pile", J::Arr(self.pile.iter().map(|&k| J::s(&g.token_ids[k as usize])).collect())),
            ("deck", J::Arr(self.deck.iter().map(|&k| J::s(&g.item_ids[k as usize])).collect())),
            ("jewel", opt(self.jewel)),
            ("exit", opt(self.exit)),
            ("winner", opt(self.winner)),
            ("stats", J::Arr(self.stats.iter().map(|&k| J::i(k)).collect())),
        ]);
        if !whole {
            return J::obj(vec![
                ("rng", J::Int(self.rng.state as i128)),
                ("turn", J::i(self.turn)),
                ("decisions", J::i(self.decisions)),
                ("truncated", J::Bool(self.truncated)),
                ("stack", J::Arr(self.stack.iter().map(State::prompt_j).collect())),
                ("data", data),
            ]);
        }
        let history = match self.seed {
            Some(seed) if self.hist.len() == self.decisions as usize => J::obj(vec![
                ("seed", J::Int(seed)),
                ("actions", J::Arr(self.hist.iter().map(|a| a.to_j(g)).collect())),
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
                ("stack", J::Arr(self.stack.iter().map(State::prompt_j).collect())),
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

    // -- determinization ---------------------------------------------------------------
    /// `State.determinize(seat, rng)` without the log: a copy with every unseen face re-dealt.
    pub fn determinize(&self, g: &Game, seat: usize, rng: &mut Rng) -> State {
        let mut new = self.clone_sim();
        new.rng = Rng::new(rng.next64());
        let mask = (1u16 << seat) | FACE_UP;
        let unseen: Vec<usize> =
            (0..g.cells).filter(|&c| self.tokens[c] != NO_TOKEN && self.known[c] & mask == 0).collect();
        let mut others: Vec<u8> = Vec::with_capacity(self.pile.len() + unseen.len());
        let mut walls: Vec<u8> = vec![];
        for &k in self.pile.iter().chain(unseen.iter().map(|&c| &self.tokens[c])) {
            if g.token_type[k as usize] == TType::Wall {
                walls.push(k);
            } else {
                others.push(k);
            }
        }
        rng.shuffle(&mut others);
        for (i, &c) in unseen.iter().enumerate() {
            if i < others.len() {
                new.tokens[c] = others[i];
            }
        }
        let mut rest: Vec<u8> = others[unseen.len().min(others.len())..].to_vec();
        rest.extend(walls);
        rng.shuffle(&mut rest);
        new.pile = rest;
        rng.shuffle(&mut new.deck);
        new
    }

    /// A copy for simulation: no log, no history.
    pub fn clone_sim(&self) -> State {
        State {
            rng: self.rng,
            turn: self.turn,
            decisions: self.decisions,
            truncated: self.truncated,
            stack: self.stack.clone(),
            seat: self.seat,
            first: self.first,
            pos: self.pos,
            health: self.health,
            power: self.power,
            items: self.items.clone(),
            tokens: self.tokens.clone(),
            known: self.known.clone(),
            walls: self.walls.clone(),
            facing: self.facing.clone(),
            pile: self.pile.clone(),
            deck: self.deck.clone(),
            jewel: self.jewel,
            exit: self.exit,
            winner: self.winner,
            stats: self.stats.clone(),
            max_turns: self.max_turns,
            record: false,
            log: vec![],
            seed: None,
            hist: vec![],
        }
    }

    // -- features and evaluation (features.py) -----------------------------------------
    fn goal_distance(&self, g: &Game, seat: usize) -> i64 {
        let c = self.pos[seat] as usize;
        let mut target = if self.jewel == seat as i8 { g.starts[seat] } else { g.centre };
        if self.jewel >= 0 && self.jewel != seat as i8 {
            target = self.pos[self.jewel as usize] as usize;
        }
        let (x, y) = ((c % g.size) as i64, (c / g.size) as i64);
        let (tx, ty) = ((target % g.size) as i64, (target / g.size) as i64);
        (x - tx).abs() + (y - ty).abs()
    }

    /// The features in the order of `game::FEATURES`.
    pub fn features(&self, g: &Game, seat: usize) -> [f64; 9] {
        let mine = self.jewel == seat as i8;
        let bit = 1u16 << seat;
        let idx = (self.power[seat].max(0) as usize).min(g.dragon_chance.len() - 1);
        let chance = g.dragon_chance[idx];
        let closeness = 1.0 - self.goal_distance(g, seat) as f64 / (2 * g.size) as f64;
        let seen = (0..g.cells).filter(|&c| self.tokens[c] != NO_TOKEN && self.known[c] & (bit | FACE_UP) != 0).count();
        [
            self.health[seat] as f64,
            self.power[seat] as f64,
            self.items[seat].len() as f64,
            if mine { 1.0 } else { 0.0 },
            if self.jewel >= 0 && !mine { 1.0 } else { 0.0 },
            closeness,
            seen as f64 / g.cells as f64,
            chance,
            if self.jewel < 0 { chance * closeness } else { 0.0 },
        ]
    }

    /// `evaluate(seat)`: the hand-made estimate.
    pub fn evaluate(&self, g: &Game, seat: usize) -> f64 {
        if self.winner >= 0 {
            return if self.winner == seat as i8 { 1.0 } else { 0.0 };
        }
        let f = self.features(g, seat);
        let mut value = 0.2 + 0.04 * f[1].min(6.0) + 0.03 * f[0] + 0.1 * f[5];
        if f[3] != 0.0 {
            value = 0.55 + 0.4 * f[5];
        } else if f[4] != 0.0 {
            value *= 0.6;
        }
        value.clamp(0.0, 1.0)
    }

    /// Every seat's value at a depth cut-off: the fitted evaluation if the game has one.
    pub fn values(&self, g: &Game, out: &mut Vec<f64>) {
        out.clear();
        let n = g.players;
        match &g.eval_models {
            None => {
                for s in 0..n {
                    out.push(self.evaluate(g, s));
                }
            }
            Some(models) => {
                let feats: Vec<[f64; 9]> = (0..n).map(|s| self.features(g, s)).collect();
                let get = |s: usize, f: usize| if f < FEATURES.len() { feats[s][f] } else { 0.0 };
                for s in 0..n {
                    let m = &models[s];
                    let mut x = m.bias;
                    for &(f, w) in &m.own {
                        x += w * get(s, f);
                    }
                    if !m.rival.is_empty() {
                        for &(f, w) in &m.rival {
                            let mut best = f64::NEG_INFINITY;
                            for o in 0..n {
                                if o != s {
                                    let v = get(o, f);
                                    if v > best {
                                        best = v;
                                    }
                                }
                            }
                            x += w * best;
                        }
                    }
                    let x = x.clamp(-40.0, 40.0);
                    out.push(1.0 / (1.0 + (-x).exp()));
                }
            }
        }
    }
}
