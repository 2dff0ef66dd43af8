//! The heuristic agent of `boardlab/games/dungeons_jewel/agents.py`, decision for decision:
//! it reads only what its seat's view shows (faces it knows, counts, positions, walls).
//!
//! Speed (issue 43): a decision allocates nothing (the working arrays are kept in the agent), and
//! the route search's results are kept in a small cache of the searches' inputs (see `Route`),
//! which the playouts of one search ask again and again. The choices are Python's exactly.

use super::game::{Game, TType};
use super::state::{Action, Prompt, State, NO_TOKEN};
use crate::rng::Rng;

#[derive(Clone, Debug)]
pub struct Heuristic {
    pub seat: usize,
    pub rng: Rng,
    pub strength: f64,
    pub caution: f64,
    pub patience: f64,
    scratch: Scratch,
}

/// Python's `a // b` for the non-negative turn and positive patience the agent uses.
fn floordiv(a: f64, b: f64) -> f64 {
    (a / b).floor()
}

/// A room's cost before the route search reaches it (Python's `[1e9] * cells`).
const FAR: f64 = 1e9;
/// `Heap::at` of a room not in the queue.
const NOT_QUEUED: u32 = u32::MAX;
/// The route cache's entries (a power of two), and the largest board that keeps one.
const SLOTS: usize = 128;
const CACHE_CELLS: usize = 1024;

// One byte a room describes a route search's input (`Scratch::key`): its risk class (an index
// into `Scratch::table`), whether it is a target, and the walls the search honours there.
const RISK: u8 = 0b11;
const TARGET: u8 = 0b100;
const WALL_SHIFT: u32 = 3;

/// The working arrays of a decision, kept from one to the next so a decision allocates nothing.
/// A clone starts empty: nothing in them carries a decision's meaning to the next.
#[derive(Debug, Default)]
struct Scratch {
    /// per room: risk class, target bit, walls (`RISK`, `TARGET`, `WALL_SHIFT`)
    key: Vec<u8>,
    /// the risk of each class: the unknown room's, 0, a monster's, a hazard's
    table: [f64; 4],
    // the uncached route search (weights that may be negative)
    enter: Vec<f64>,
    dist: Vec<f64>,
    heap: Vec<u32>,
    at: Vec<u32>,
    left: Vec<bool>,
    moves: Vec<usize>,
    rooms: Vec<usize>,
    // the wall choice's step counts
    walls: Vec<u8>,
    steps: Vec<i64>,
    frontier: Vec<usize>,
    cache: Vec<Route>,
}

impl Clone for Scratch {
    fn clone(&self) -> Scratch {
        Scratch::default()
    }
}

impl Scratch {
    /// Fits the per-room arrays to a board of `cells` rooms (a no-op after the first decision).
    fn size(&mut self, cells: usize) {
        if self.key.len() != cells {
            self.key.resize(cells, 0);
            self.enter.resize(cells, 0.0);
            self.dist.resize(cells, FAR);
            self.at.resize(cells, NOT_QUEUED);
            self.left.resize(cells, false);
            self.heap.reserve(cells);
            self.cache.clear();
        }
    }
}

/// A route search kept for reuse (`cached_route`): its input (`key`, `scalars`) and the state of
/// the search, which later calls with the same input read, or carry on until the rooms they need
/// are settled.
#[derive(Debug, Default)]
struct Route {
    used: bool,
    hash: u64,
    scalars: [u64; 6],
    key: Vec<u8>,
    enter: Vec<f64>,
    dist: Vec<f64>,
    /// each queued room's bucket (the integer part of its cost), DONE for the others
    bucket: Vec<u32>,
    /// the queued rooms, a bit each
    queued: Vec<u64>,
    next: u32,
}

/// `Route::bucket` of a room not queued.
const DONE: u32 = u32::MAX;

/// The route search's queue: a binary min-heap of rooms ordered by `(dist[room], room)`, with
/// each room's place in it (`at`, or `NOT_QUEUED`), so a room whose cost falls moves up in place.
///
/// Python pushes `(cost, cell)` tuples onto a heap and skips a popped tuple whose cost is above the
/// cell's current cost. Costs only fall, and a push needs a strictly lower cost, so the tuples not
/// skipped are exactly one `(dist[x], x)` for each cell pushed since it was last popped, and a
/// skipped one does nothing. This queue holds those cells and pops the least `(dist[x], x)` (ties
/// to the lower cell, as the tuples compare; no two cells tie), so the rooms are settled in
/// Python's order, with Python's costs, whatever the weights.
struct Heap<'a> {
    cells: &'a mut Vec<u32>,
    at: &'a mut [u32],
    dist: &'a mut [f64],
}

impl Heap<'_> {
    #[inline(always)]
    fn less(&self, a: u32, b: u32) -> bool {
        let (da, db) = (self.dist[a as usize], self.dist[b as usize]);
        da < db || (da == db && a < b)
    }

    /// Queues `x`, or moves it up after its cost fell.
    #[inline(always)]
    fn push_or_raise(&mut self, x: usize) {
        let mut i = match self.at[x] {
            NOT_QUEUED => {
                self.cells.push(x as u32);
                self.cells.len() - 1
            }
            i => i as usize,
        };
        let x = x as u32;
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.cells[parent];
            if !self.less(x, p) {
                break;
            }
            self.cells[i] = p;
            self.at[p as usize] = i as u32;
            i = parent;
        }
        self.cells[i] = x;
        self.at[x as usize] = i as u32;
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<usize> {
        let top = *self.cells.first()?;
        self.at[top as usize] = NOT_QUEUED;
        let last = self.cells.pop().unwrap();
        let n = self.cells.len();
        if n > 0 {
            let mut i = 0;
            loop {
                let l = 2 * i + 1;
                if l >= n {
                    break;
                }
                let r = l + 1;
                let c = if r < n && self.less(self.cells[r], self.cells[l]) { r } else { l };
                let cc = self.cells[c];
                if !self.less(cc, last) {
                    break;
                }
                self.cells[i] = cc;
                self.at[cc as usize] = i as u32;
                i = c;
            }
            self.cells[i] = last;
            self.at[last as usize] = i as u32;
        }
        Some(top as usize)
    }
}

#[inline(always)]
fn mix(h: u64, w: u64) -> u64 {
    (h.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95)
}

/// The room's entry cost as Python computes it: `1.0 + weight * risk`, plus 50 at the centre
/// when the route avoids it.
#[inline(always)]
fn fill_enter(g: &Game, enter: &mut [f64], key: &[u8], table: &[f64; 4], weight: f64, avoid_centre: bool) {
    let costs = table.map(|r| 1.0 + weight * r);
    for (e, &k) in enter.iter_mut().zip(key) {
        *e = costs[(k & RISK) as usize];
    }
    if avoid_centre {
        enter[g.centre] += 50.0;
    }
}

impl Heuristic {
    pub fn new(g: &Game, seat: usize, seed: u64) -> Heuristic {
        Heuristic {
            seat,
            rng: Rng::new(seed),
            strength: g.h_strength,
            caution: g.h_caution,
            patience: g.h_patience,
            scratch: Scratch::default(),
        }
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
            Action::Wall(_) => {
                let mut sc = std::mem::take(&mut self.scratch);
                let a = self.wall(g, st, legal, &mut sc);
                self.scratch = sc;
                a
            }
            _ => {
                let mut sc = std::mem::take(&mut self.scratch);
                sc.size(g.cells);
                let a = self.turn(g, st, legal, &mut sc);
                self.scratch = sc;
                a
            }
        }
    }

    /// Python's `_fail_chance`: each room's risk, as a class per room in `sc.key` (`RISK` bits,
    /// the rest cleared) and the classes' risks in `sc.table`.
    fn fail_chance(&self, g: &Game, st: &State, sc: &mut Scratch) {
        let me = self.seat;
        let die = g.die as f64;
        let p_hazard = ((g.hazard - 1) as f64 / die).max(0.0).min(1.0);
        let p_monster = ((g.monster - 1 - st.power[me]) as f64 / die).max(0.0).min(1.0);
        let unknown = p_hazard * 0.8 + p_monster * 0.2;
        sc.table = [unknown, 0.0, p_monster, p_hazard];
        let key = &mut sc.key;
        key.fill(0);
        let mine = &st.items[me];
        for (c, &k) in st.tokens[..g.cells].iter().enumerate() {
            if k == NO_TOKEN || !st.face_known(c, Some(me)) {
                continue;
            }
            let t = g.token_type[k as usize];
            let cured = match g.cure[k as usize] {
                Some(item) => mine.contains(&item),
                None => false,
            };
            key[c] = if t == TType::Wall || cured {
                1
            } else if t == TType::Monster {
                2
            } else {
                3
            };
        }
        for &c in &g.starts {
            key[c] = 1;
        }
        key[g.centre] = 1;
    }

    fn turn(&mut self, g: &Game, st: &State, legal: &[Action], sc: &mut Scratch) -> Action {
        let mut moves = std::mem::take(&mut sc.moves);
        moves.clear();
        moves.extend(legal.iter().filter_map(|a| if let Action::Move(c) = a { Some(*c as usize) } else { None }));
        let a = self.turn_moves(g, st, legal, &moves, sc);
        sc.moves = moves;
        a
    }

    fn turn_moves(&mut self, g: &Game, st: &State, legal: &[Action], moves: &[usize], sc: &mut Scratch) -> Action {
        let me = self.seat;
        let jewel = st.jewel;
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
            return self.best_move(g, st, moves, &[target], self.caution, true, sc);
        }
        if jewel >= 0 {
            let weight = self.caution * if st.health[me] == 1 { 3.0 } else { 1.5 };
            return self.best_move(g, st, moves, &[g.starts[me]], weight, false, sc);
        }
        let patience = self.patience * g.players as f64;
        let bar = self.strength - floordiv(st.turn as f64, patience);
        let mut rooms = std::mem::take(&mut sc.rooms);
        rooms.clear();
        let ready = st.power[me] as f64 >= bar || st.deck.is_empty() || {
            // the new rooms are needed only here (and as the targets when not ready)
            rooms.extend((0..g.cells).filter(|&c| st.tokens[c] == NO_TOKEN && c != g.centre && !g.is_start(c)));
            rooms.is_empty()
        } || st.pile.is_empty();
        let a = if ready {
            if legal.contains(&Action::Dragon) {
                Action::Dragon
            } else {
                self.best_move(g, st, moves, &[g.centre], self.caution, false, sc)
            }
        } else {
            self.best_move(g, st, moves, &rooms, 1.0, true, sc)
        };
        sc.rooms = rooms;
        a
    }

    fn steps(&self, g: &Game, a: usize, b: usize) -> i64 {
        let s = g.size as i64;
        let (a, b) = (a as i64, b as i64);
        (a % s - b % s).abs() + (a / s - b / s).abs()
    }

    /// Python's `_best_move`: the move whose route to a target is cheapest (plus a little noise).
    #[allow(clippy::too_many_arguments)]
    fn best_move(
        &mut self,
        g: &Game,
        st: &State,
        moves: &[usize],
        targets: &[usize],
        weight: f64,
        avoid_centre: bool,
        sc: &mut Scratch,
    ) -> Action {
        self.fail_chance(g, st, sc);
        let through = match g.wall_item {
            Some(w) => st.items[self.seat].contains(&w),
            None => false,
        };
        for (k, &w) in sc.key.iter_mut().zip(&st.walls[..g.cells]) {
            if !through {
                *k |= (w & 0xf) << WALL_SHIFT;
            }
        }
        for &t in targets {
            sc.key[t] |= TARGET;
        }
        let cacheable = g.cells <= CACHE_CELLS && sc.table.iter().all(|&r| 1.0 + weight * r >= 1.0);
        let (dist, enter, key) = if cacheable {
            let r = cached_route(g, sc, targets, weight, avoid_centre, moves);
            (&r.dist, &r.enter, &r.key)
        } else {
            route(g, sc, targets, weight, avoid_centre, moves);
            (&sc.dist, &sc.enter, &sc.key)
        };
        let mut best: Option<usize> = None;
        let mut best_cost = 0.0;
        for &c in moves {
            let extra = if key[c] & TARGET != 0 { 0.0 } else { enter[c] };
            let cost = dist[c] + extra + self.rng.random() * 0.01;
            if best.is_none() || cost < best_cost {
                best = Some(c);
                best_cost = cost;
            }
        }
        Action::Move(best.unwrap_or(moves[0]) as u16)
    }

    fn wall(&mut self, g: &Game, st: &State, legal: &[Action], sc: &mut Scratch) -> Action {
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
            sc.walls.clear();
            sc.walls.extend_from_slice(&st.walls);
            sc.walls[cell] |= 1 << d;
            let j = g.sides[cell].iter().find(|&&(x, _)| x == d).map(|&(_, j)| j).unwrap();
            sc.walls[j] |= 1 << ((d + 2) % 4);
            let mut score = 0i64;
            for s in 0..g.players {
                let p = st.pos[s] as usize;
                let goal = if st.jewel == s as i8 { g.starts[s] } else { g.centre };
                let dist = steps_to(g, goal, p, &sc.walls, &mut sc.steps, &mut sc.frontier);
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

/// Python's `_route`, step for step: a reverse Dijkstra from `targets` (costs into `sc.dist`,
/// entry costs into `sc.enter`) over the input `sc.key` describes, stopping once every room of
/// `need` is settled. For any weights.
fn route(g: &Game, sc: &mut Scratch, targets: &[usize], weight: f64, avoid_centre: bool, need: &[usize]) {
    let Scratch { key, table, enter, dist, heap, at, left, .. } = sc;
    fill_enter(g, enter, key, table, weight, avoid_centre);
    dist.fill(FAR);
    at.fill(NOT_QUEUED);
    heap.clear();
    let mut heap = Heap { cells: heap, at, dist };
    for &t in targets {
        heap.dist[t] = 0.0;
        heap.push_or_raise(t);
    }
    left.fill(false);
    let mut left_count = 0;
    for &c in need {
        if !left[c] {
            left[c] = true;
            left_count += 1;
        }
    }
    let stop_early = !need.is_empty();
    while let Some(x) = heap.pop() {
        if stop_early && left[x] {
            left[x] = false;
            left_count -= 1;
            if left_count == 0 {
                break;
            }
        }
        let w = key[x] >> WALL_SHIFT;
        let nd = heap.dist[x] + enter[x];
        for &(side, y) in &g.sides[x] {
            if (w >> side) & 1 == 0 && nd < heap.dist[y] {
                heap.dist[y] = nd;
                heap.push_or_raise(y);
            }
        }
    }
    for &c in need {
        left[c] = false;
    }
}

/// `route` where every room's entry cost is at least 1 (the agent's own parameters), through the
/// cache: the entry for this input, searched on until the rooms of `need` are settled (or nothing
/// is left to reach), or a new search.
///
/// The search settles rooms a unit of cost at a time (Dial's buckets): every queued room whose cost
/// is in `[m, m + 1)`, `m` the least queued cost's integer part, already has its final cost, since
/// a room's cost is at least one more than its predecessor's (`fl(d + e) >= floor(d) + 1` for
/// `e >= 1`). Each room's cost is then the cheapest route's, summed as Python sums it, which is
/// the cost Python's search settles it at, in whatever order a search settles rooms; so a room
/// settled here has Python's cost whichever rooms each call needed.
fn cached_route<'a>(
    g: &Game,
    sc: &'a mut Scratch,
    targets: &[usize],
    weight: f64,
    avoid_centre: bool,
    need: &[usize],
) -> &'a Route {
    let scalars = [
        sc.table[0].to_bits(),
        sc.table[2].to_bits(),
        sc.table[3].to_bits(),
        weight.to_bits(),
        avoid_centre as u64,
        g as *const Game as u64,
    ];
    let mut h = 0u64;
    let mut words = sc.key.chunks_exact(8);
    for w in &mut words {
        h = mix(h, u64::from_le_bytes(w.try_into().unwrap()));
    }
    for &b in words.remainder() {
        h = mix(h, b as u64);
    }
    for &s in &scalars {
        h = mix(h, s);
    }
    if sc.cache.is_empty() {
        sc.cache.resize_with(SLOTS, Route::default);
    }
    let Scratch { key, table, cache, .. } = sc;
    let r = &mut cache[(h >> 40) as usize & (SLOTS - 1)];
    if !(r.used && r.hash == h && r.scalars == scalars && r.key == *key) {
        r.used = true;
        r.hash = h;
        r.scalars = scalars;
        std::mem::swap(&mut r.key, key);
        let cells = g.cells;
        key.resize(cells, 0);
        r.enter.resize(cells, 0.0);
        r.dist.resize(cells, FAR);
        r.bucket.resize(cells, DONE);
        fill_enter(g, &mut r.enter, &r.key, table, weight, avoid_centre);
        r.dist.fill(FAR);
        r.bucket.fill(DONE);
        r.queued.clear();
        r.queued.resize(cells.div_ceil(64), 0);
        for &t in targets {
            r.dist[t] = 0.0;
            r.bucket[t] = 0;
            r.queued[t / 64] |= 1u64 << (t % 64);
        }
        r.next = if targets.is_empty() { DONE } else { 0 };
    }
    let Route { key, enter, dist, bucket, queued, next, .. } = r;
    // `next`: the least queued room's bucket (DONE: none queued)
    while *next != DONE {
        let m = *next;
        // a needed room is settled once its bucket is reached (or it has been relaxed)
        if need.iter().all(|&c| dist[c] < FAR && (bucket[c] == DONE || bucket[c] == m)) {
            break;
        }
        let mut least = DONE;
        for wi in 0..queued.len() {
            let mut bits = queued[wi];
            while bits != 0 {
                let x = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let b = bucket[x];
                if b != m {
                    least = least.min(b);
                    continue;
                }
                bucket[x] = DONE;
                queued[wi] &= !(1u64 << (x % 64));
                let w = key[x] >> WALL_SHIFT;
                let nd = dist[x] + enter[x];
                for &(side, y) in &g.sides[x] {
                    if (w >> side) & 1 == 0 && nd < dist[y] {
                        dist[y] = nd;
                        let nb = nd as u32;
                        bucket[y] = nb;
                        queued[y / 64] |= 1u64 << (y % 64);
                        least = least.min(nb);
                    }
                }
            }
        }
        *next = least;
    }
    r
}

/// `g.distances(start, walls)[goal]`: the BFS step count from `start` to `goal` honouring
/// `walls` (-1 if unreachable), stopping once `goal` is reached (a BFS labels each room once,
/// with its final count).
fn steps_to(g: &Game, start: usize, goal: usize, walls: &[u8], dist: &mut Vec<i64>, frontier: &mut Vec<usize>) -> i64 {
    if start == goal {
        return 0;
    }
    dist.clear();
    dist.resize(g.cells, -1);
    dist[start] = 0;
    frontier.clear();
    frontier.push(start);
    let mut head = 0;
    while head < frontier.len() {
        let c = frontier[head];
        head += 1;
        let w = walls[c];
        let dc = dist[c] + 1;
        for &(d, j) in &g.sides[c] {
            if dist[j] < 0 && (w >> d) & 1 == 0 {
                if j == goal {
                    return dc;
                }
                dist[j] = dc;
                frontier.push(j);
            }
        }
    }
    -1
}

#[cfg(test)]
mod tests {
    //! The route searches against the search as it was written before them (a binary heap of
    //! `(cost, cell)` entries, Python's `heapq` loop), on random boards, risks, walls and targets.
    use super::*;
    use std::cmp::Ordering;
    use std::collections::BinaryHeap;

    #[derive(PartialEq)]
    struct Entry(f64, usize);
    impl Eq for Entry {}
    impl PartialOrd for Entry {
        fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
            Some(self.cmp(other))
        }
    }
    impl Ord for Entry {
        fn cmp(&self, other: &Self) -> Ordering {
            other.0.partial_cmp(&self.0).unwrap_or(Ordering::Equal).then_with(|| other.1.cmp(&self.1))
        }
    }

    /// The heap search as it was (Python's `_route`), with the walls it honours given.
    fn reference(g: &Game, walls: &[u8], risk: &[f64], targets: &[usize], weight: f64, avoid: bool, need: &[usize]) -> (Vec<f64>, Vec<f64>) {
        let mut enter: Vec<f64> = risk.iter().map(|r| 1.0 + weight * r).collect();
        if avoid {
            enter[g.centre] += 50.0;
        }
        let mut dist = vec![1e9f64; g.cells];
        let mut heap = BinaryHeap::new();
        for &t in targets {
            dist[t] = 0.0;
            heap.push(Entry(0.0, t));
        }
        let mut left = vec![false; g.cells];
        let mut left_count = 0;
        for &c in need {
            if !left[c] {
                left[c] = true;
                left_count += 1;
            }
        }
        while let Some(Entry(d, x)) = heap.pop() {
            if d > dist[x] {
                continue;
            }
            if !need.is_empty() && left[x] {
                left[x] = false;
                left_count -= 1;
                if left_count == 0 {
                    break;
                }
            }
            let nd = d + enter[x];
            for &(side, y) in &g.sides[x] {
                if (walls[x] >> side) & 1 == 0 && nd < dist[y] {
                    dist[y] = nd;
                    heap.push(Entry(nd, y));
                }
            }
        }
        (dist, enter)
    }

    fn game() -> Game {
        let path = format!("{}/tests/data/dungeons_jewel_revised_4.json", env!("CARGO_MANIFEST_DIR"));
        Game::from_spec(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    fn cells_of(rng: &mut Rng, g: &Game, most: u64) -> Vec<usize> {
        let n = 1 + rng.below(most);
        (0..n).map(|_| rng.below(g.cells as u64) as usize).collect()
    }

    /// A random input in `sc` (risk classes, walls, targets); returns the risks, walls, targets.
    fn input(rng: &mut Rng, g: &Game, sc: &mut Scratch, table: [f64; 4], no_adjacent_hazards: bool) -> (Vec<f64>, Vec<u8>, Vec<usize>) {
        sc.size(g.cells);
        sc.table = table;
        loop {
            let mut walls = vec![0u8; g.cells];
            for c in 0..g.cells {
                sc.key[c] = rng.below(4) as u8;
                if rng.below(3) == 0 {
                    walls[c] = rng.below(16) as u8;
                }
            }
            if no_adjacent_hazards && (0..g.cells).any(|c| sc.key[c] == 3 && g.sides[c].iter().any(|&(_, y)| sc.key[y] == 3)) {
                continue;
            }
            let targets = if rng.below(2) == 0 { cells_of(rng, g, 3) } else { cells_of(rng, g, 30) };
            let risk = (0..g.cells).map(|c| table[sc.key[c] as usize]).collect();
            for c in 0..g.cells {
                sc.key[c] |= walls[c] << WALL_SHIFT;
            }
            for &t in &targets {
                sc.key[t] |= TARGET;
            }
            return (risk, walls, targets);
        }
    }

    #[test]
    fn the_cached_search_settles_the_needed_rooms_at_the_heap_search_costs() {
        let g = game();
        let mut rng = Rng::new(43);
        let mut sc = Scratch::default();
        for round in 0..3000 {
            let table = [0.3 + 0.1 * (round % 5) as f64, 0.0, 0.1 * (round % 7) as f64, 2.0 / 3.0];
            let weight = [0.0, 1.0, 1.5, 2.25, 3.0, 7.5][round % 6];
            let avoid = round % 3 == 0;
            let (risk, walls, targets) = input(&mut rng, &g, &mut sc, table, false);
            let key = sc.key.clone();
            // the same input asked for several sets of rooms: a new search, then resumed or read
            for _ in 0..4 {
                let need = cells_of(&mut rng, &g, 5);
                let (dist, enter) = reference(&g, &walls, &risk, &targets, weight, avoid, &need);
                sc.key.clone_from(&key);
                let r = cached_route(&g, &mut sc, &targets, weight, avoid, &need);
                for &c in &need {
                    assert_eq!(r.dist[c].to_bits(), dist[c].to_bits(), "round {round} room {c}");
                    assert_eq!(r.enter[c].to_bits(), enter[c].to_bits());
                }
            }
        }
    }

    #[test]
    fn the_uncached_search_is_the_heap_search_for_any_weights() {
        let g = game();
        let mut rng = Rng::new(44);
        let mut sc = Scratch::default();
        for round in 0..3000 {
            // entry costs below 1, some negative (no negative cycle: no two hazards side by side)
            let table = [0.3, 0.0, 0.5, 1.0];
            let weight = [-1.3, -1.0, -0.5, 0.0, 0.75][round % 5];
            let avoid = round % 2 == 0;
            let (risk, walls, targets) = input(&mut rng, &g, &mut sc, table, true);
            let need = if round % 4 == 0 { vec![] } else { cells_of(&mut rng, &g, 5) };
            let (dist, enter) = reference(&g, &walls, &risk, &targets, weight, avoid, &need);
            route(&g, &mut sc, &targets, weight, avoid, &need);
            let check: Vec<usize> = if need.is_empty() { (0..g.cells).collect() } else { need.clone() };
            for &c in &check {
                assert_eq!(sc.dist[c].to_bits(), dist[c].to_bits(), "round {round} room {c}");
            }
            for c in 0..g.cells {
                assert_eq!(sc.enter[c].to_bits(), enter[c].to_bits());
            }
        }
    }
}
