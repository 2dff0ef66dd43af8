//! The configured game: option values, castle tables and token counts, read from the JSON that
//! `boardlab/games/blackfire/core.py` (`core_spec`) writes from the Python `BlackfireGame`.

use crate::json::J;
use serde_json::Value;

/// Every token kind of the final rules, in reference order (`content.TOKEN_KINDS`).
pub const TOKEN_KINDS: [&str; 8] = ["revive", "recall", "invulnerable", "displace", "death", "slow", "speed", "teleport"];
pub const T_REVIVE: u8 = 0;
pub const T_RECALL: u8 = 1;
pub const T_INVULNERABLE: u8 = 2;
pub const T_DISPLACE: u8 = 3;
pub const T_DEATH: u8 = 4;
pub const T_SLOW: u8 = 5;
pub const T_SPEED: u8 = 6;
pub const T_TELEPORT: u8 = 7;

/// `pieces.STAT_KEYS`, in order (the state's `stats` dict keeps this order).
pub const STAT_KEYS: [&str; 24] = [
    "token:revive", "token:recall", "token:invulnerable", "token:displace", "token:death", "token:slow", "token:speed",
    "token:teleport", "attack:landing", "attack:archer", "rule:archer-contest", "rule:contest-won", "rule:blocked",
    "rule:absorbed", "rule:revive", "rule:respawn", "rule:push", "rule:orb-pickup", "rule:stance", "rule:kill",
    "rule:units-lost", "rule:teleport-orb", "rule:mass-recall", "attack:revive",
];
pub const S_LANDING: usize = 8;
pub const S_ARCHER: usize = 9;
pub const S_CONTEST: usize = 10;
pub const S_CONTEST_WON: usize = 11;
pub const S_BLOCKED: usize = 12;
pub const S_ABSORBED: usize = 13;
pub const S_REVIVE: usize = 14;
pub const S_RESPAWN: usize = 15;
pub const S_PUSH: usize = 16;
pub const S_ORB_PICKUP: usize = 17;
pub const S_STANCE: usize = 18;
pub const S_KILL: usize = 19;
pub const S_UNITS_LOST: usize = 20;
pub const S_TELEPORT_ORB: usize = 21;
pub const S_MASS_RECALL: usize = 22;
pub const S_ATTACK_REVIVE: usize = 23;

/// The features of `features.position_features`, in its order.
pub const FEATURES: [&str; 6] = ["orb", "exit_progress", "material", "safety", "enemy_carrier_pressure", "tokens"];
pub const FAR: i32 = 999;
pub const MAX_CELLS: usize = 1024;

/// A fitted evaluation model: bias, own weights and rival weights by feature index.
#[derive(Clone, Debug)]
pub struct Model {
    pub bias: f64,
    pub own: Vec<(usize, f64)>,
    pub rival: Vec<(usize, f64)>,
}

/// The heuristic's parameters (`agents.HeuristicAgent.defaults`, persona resolved).
#[derive(Clone, Debug)]
pub struct HParams {
    pub noise: f64,
    pub persona: String,
    pub progress: f64,
    pub danger: f64,
    pub kill: f64,
    pub hunt: f64,
    pub token: f64,
    pub stay: f64,
}

#[derive(Clone, Debug)]
pub struct Game {
    pub config: J,
    pub variant: String,
    pub max_turns: u32,
    // options
    pub tokens_per_player: usize,
    pub colours: u8, // 0 roll, 1 seat1-green, 2 seat1-red
    pub sorcerer_move: i64,
    pub archer_move: i64,
    pub warrior_move: i64,
    pub archer_range: i32,
    pub archer_offense: bool,
    pub archer_contest: bool,
    pub contest_target: u64,
    pub speed_bonus: i64,
    pub invulnerable_turns: u32,
    pub teleport_range: i32,
    pub teleport_table: bool,
    pub respawn: bool,
    pub respawn_turns: i64,
    pub push_radius: i32,
    pub sorcerer_kill_wins: bool,
    // castle
    pub width: usize,
    pub height: usize,
    pub n: usize,
    pub blocked: Vec<bool>,
    pub green_start: usize,
    pub red_starts: [usize; 4],
    pub exits: [usize; 4],
    pub treasure: Vec<usize>,
    pub cells: Vec<usize>,
    pub placeable: Vec<usize>,
    pub placeable_set: Vec<bool>,
    pub nbrs: Vec<Vec<usize>>,
    /// dist[a * n + b]: walking distance, FAR when unreachable
    pub dist: Vec<i32>,
    /// nearest[a]: the accessible cells by (dist from a, index)
    pub nearest: Vec<Vec<u16>>,
    pub labels: Vec<String>,
    // tokens: counts in the token file's order (kind index, count)
    pub token_counts: Vec<(u8, u32)>,
    pub seat_names: Vec<String>,
    pub heuristic: HParams,
    pub variety: Vec<(String, Vec<f64>)>,
    /// fitted evaluation by role: green, red, undecided (a missing role takes the fallback)
    pub eval_models: Option<[Model; 3]>,
}

fn err(msg: &str) -> String {
    format!("blackfire core spec: {}", msg)
}
fn get<'a>(v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key).ok_or_else(|| err(&format!("missing {:?}", key)))
}
fn int(v: &Value, key: &str) -> Result<i64, String> {
    get(v, key)?.as_i64().ok_or_else(|| err(&format!("{:?} must be an integer", key)))
}
fn num(v: &Value, key: &str) -> Result<f64, String> {
    get(v, key)?.as_f64().ok_or_else(|| err(&format!("{:?} must be a number", key)))
}
fn boolean(v: &Value, key: &str) -> Result<bool, String> {
    get(v, key)?.as_bool().ok_or_else(|| err(&format!("{:?} must be true or false", key)))
}
fn string(v: &Value, key: &str) -> Result<String, String> {
    Ok(get(v, key)?.as_str().ok_or_else(|| err(&format!("{:?} must be a string", key)))?.to_string())
}
fn arr<'a>(v: &'a Value, key: &str) -> Result<&'a Vec<Value>, String> {
    get(v, key)?.as_array().ok_or_else(|| err(&format!("{:?} must be a list", key)))
}
fn usizes(v: &Value, n: usize) -> Result<Vec<usize>, String> {
    v.as_array()
        .ok_or_else(|| err("expected a list of integers"))?
        .iter()
        .map(|x| x.as_u64().map(|u| u as usize).filter(|&u| u < n).ok_or_else(|| err("expected a list of cells")))
        .collect()
}

impl Game {
    pub fn from_spec(text: &str) -> Result<Game, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| err(&format!("not JSON: {}", e)))?;
        if string(&v, "game")? != "blackfire" {
            return Err(err("not a blackfire spec"));
        }
        if int(&v, "players")? != 2 {
            return Err(err("blackfire has 2 players"));
        }
        let o = get(&v, "options")?;
        let c = get(&v, "castle")?;
        let width = int(c, "width")? as usize;
        let height = int(c, "height")? as usize;
        let n = width * height;
        if n == 0 || n > MAX_CELLS {
            return Err(err("the castle must have 1..1024 squares"));
        }
        let chars: Vec<char> = string(c, "chars")?.chars().collect();
        if chars.len() != n {
            return Err(err("chars must have width*height squares"));
        }
        let blocked: Vec<bool> = chars.iter().map(|&ch| ch == '#').collect();
        let cells = usizes(get(c, "cells")?, n)?;
        let placeable = usizes(get(c, "placeable")?, n)?;
        let mut placeable_set = vec![false; n];
        for &p in &placeable {
            placeable_set[p] = true;
        }
        let mut nbrs = vec![];
        for row in arr(c, "nbrs")? {
            nbrs.push(usizes(row, n)?);
        }
        if nbrs.len() != n {
            return Err(err("nbrs needs one row per square"));
        }
        let mut dist = Vec::with_capacity(n * n);
        for row in arr(c, "dist")? {
            let r = row.as_array().ok_or_else(|| err("dist rows"))?;
            if r.len() != n {
                return Err(err("dist rows need one entry per square"));
            }
            for x in r {
                dist.push(x.as_i64().ok_or_else(|| err("dist entries"))? as i32);
            }
        }
        if dist.len() != n * n {
            return Err(err("dist needs one row per square"));
        }
        let four = |key: &str| -> Result<[usize; 4], String> {
            let x = usizes(get(c, key)?, n)?;
            if x.len() != 4 {
                return Err(err(&format!("{} needs 4 squares", key)));
            }
            Ok([x[0], x[1], x[2], x[3]])
        };
        let nearest = (0..n)
            .map(|a| {
                let mut v: Vec<u16> = cells.iter().map(|&c| c as u16).collect();
                v.sort_by_key(|&c| (dist[a * n + c as usize], c));
                v
            })
            .collect();
        let labels = (0..n).map(|i| format!("{}{}", (97 + (i % width) as u8) as char, i / width + 1)).collect();
        let mut token_counts = vec![];
        for pair in arr(&v, "token_counts")? {
            let p = pair.as_array().ok_or_else(|| err("token_counts entries are [kind, count]"))?;
            let kind = p.first().and_then(|x| x.as_str()).unwrap_or("");
            let k = TOKEN_KINDS.iter().position(|t| *t == kind).ok_or_else(|| err(&format!("unknown token {:?}", kind)))?;
            let count = p.get(1).and_then(|x| x.as_u64()).ok_or_else(|| err("token count"))?;
            token_counts.push((k as u8, count as u32));
        }
        let colours = match string(o, "colours")?.as_str() {
            "roll" => 0,
            "seat1-green" => 1,
            "seat1-red" => 2,
            other => return Err(err(&format!("unknown colours {:?}", other))),
        };
        let h = get(&v, "heuristic")?;
        let heuristic = HParams {
            noise: num(h, "noise")?,
            persona: string(h, "persona")?,
            progress: num(h, "progress")?,
            danger: num(h, "danger")?,
            kill: num(h, "kill")?,
            hunt: num(h, "hunt")?,
            token: num(h, "token")?,
            stay: num(h, "stay")?,
        };
        let mut variety = vec![];
        if let Some(Value::Object(m)) = v.get("playout_variety") {
            for (k, vals) in m {
                let vals = vals.as_array().ok_or_else(|| err("playout_variety"))?;
                variety.push((k.clone(), vals.iter().map(|x| x.as_f64().unwrap_or(0.0)).collect()));
            }
        }
        let eval_models = match get(&v, "evaluation")? {
            Value::Null => None,
            e => {
                let by_role = get(e, "models")?.as_object().ok_or_else(|| err("evaluation models"))?;
                let fallback = string(e, "fallback")?;
                let parse = |m: &Value| -> Result<Model, String> {
                    let weights = |key: &str| -> Result<Vec<(usize, f64)>, String> {
                        let mut out = vec![];
                        for pair in arr(m, key)? {
                            let p = pair.as_array().ok_or_else(|| err("weights are [feature, weight]"))?;
                            let f = p.first().and_then(|x| x.as_str()).unwrap_or("");
                            let w = p.get(1).and_then(|x| x.as_f64()).ok_or_else(|| err("weight"))?;
                            out.push((FEATURES.iter().position(|x| *x == f).unwrap_or(usize::MAX), w));
                        }
                        Ok(out)
                    };
                    Ok(Model { bias: num(m, "bias")?, own: weights("own")?, rival: weights("rival")? })
                };
                let fb = parse(by_role.get(&fallback).ok_or_else(|| err("evaluation fallback"))?)?;
                let pick = |r: &str| -> Result<Model, String> {
                    match by_role.get(r) {
                        Some(m) => parse(m),
                        None => Ok(fb.clone()),
                    }
                };
                Some([pick("green")?, pick("red")?, pick("undecided")?])
            }
        };
        let seat_names: Vec<String> = arr(&v, "seat_names")?.iter().map(|x| x.as_str().unwrap_or("").to_string()).collect();
        let g = Game {
            config: J::from_serde(get(&v, "config")?),
            variant: string(&v, "variant")?,
            max_turns: int(&v, "max_turns")? as u32,
            tokens_per_player: int(o, "tokens_per_player")? as usize,
            colours,
            sorcerer_move: int(o, "sorcerer_move")?,
            archer_move: int(o, "archer_move")?,
            warrior_move: int(o, "warrior_move")?,
            archer_range: int(o, "archer_range")? as i32,
            archer_offense: boolean(o, "archer_offense")?,
            archer_contest: boolean(o, "archer_contest")?,
            contest_target: int(o, "contest_target")? as u64,
            speed_bonus: int(o, "speed_bonus")?,
            invulnerable_turns: int(o, "invulnerable_turns")? as u32,
            teleport_range: int(o, "teleport_range")? as i32,
            teleport_table: boolean(o, "teleport_table")?,
            respawn: boolean(o, "respawn")?,
            respawn_turns: int(o, "respawn_turns")?,
            push_radius: int(o, "push_radius")? as i32,
            sorcerer_kill_wins: boolean(o, "sorcerer_kill_wins")?,
            width,
            height,
            n,
            blocked,
            green_start: int(c, "green_start")? as usize,
            red_starts: four("red_starts")?,
            exits: four("exits")?,
            treasure: usizes(get(c, "treasure")?, n)?,
            cells,
            placeable,
            placeable_set,
            nbrs,
            dist,
            nearest,
            labels,
            token_counts,
            seat_names,
            heuristic,
            variety,
            eval_models,
        };
        if g.green_start >= n {
            return Err(err("green start"));
        }
        Ok(g)
    }

    #[inline]
    pub fn d(&self, a: usize, b: usize) -> i32 {
        self.dist[a * self.n + b]
    }

    pub fn manhattan(&self, a: usize, b: usize) -> i32 {
        let w = self.width as i32;
        let (a, b) = (a as i32, b as i32);
        (a % w - b % w).abs() + (a / w - b / w).abs()
    }

    /// Accessible squares at Manhattan distance 1..r of `a` (walls ignored), in `within_manhattan`'s order.
    pub fn within_manhattan(&self, a: usize, r: i32, out: &mut Vec<usize>) {
        out.clear();
        let (w, h) = (self.width as i32, self.height as i32);
        let (ax, ay) = (a as i32 % w, a as i32 / w);
        for y in (ay - r).max(0)..(ay + r + 1).min(h) {
            let span = r - (y - ay).abs();
            for x in (ax - span).max(0)..(ax + span + 1).min(w) {
                let j = (y * w + x) as usize;
                if j != a && !self.blocked[j] {
                    out.push(j);
                }
            }
        }
    }

    pub fn xy(&self, i: usize) -> J {
        J::Arr(vec![J::i((i % self.width) as i64), J::i((i / self.width) as i64)])
    }
}
