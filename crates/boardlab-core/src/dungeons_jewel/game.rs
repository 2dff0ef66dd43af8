//! The configured game: options and content tables, read from the JSON that
//! `boardlab/games/dungeons_jewel/core.py` (`core_spec`) writes from the Python `Game`.

use crate::json::J;
use serde_json::Value;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TType {
    Hazard,
    Monster,
    Trapdoor,
    Wall,
}

/// A fitted evaluation model: bias, own weights and rival weights by feature index.
#[derive(Clone, Debug)]
pub struct Model {
    pub bias: f64,
    pub own: Vec<(usize, f64)>,
    pub rival: Vec<(usize, f64)>,
}

pub const FEATURES: [&str; 9] = [
    "health", "power", "items", "has_jewel", "opponent_has_jewel", "goal_closeness", "explored",
    "dragon_chance", "dragon_reach",
];

#[derive(Clone, Debug)]
pub struct Game {
    pub config: J,
    pub variant: String,
    pub players: usize,
    pub max_turns: u32,
    pub die: u64,
    pub hazard: i64,
    pub monster: i64,
    pub dragon: i64,
    pub start_health: i64,
    pub respawn_health: i64,
    pub steal: bool,
    pub exit_any: bool,
    pub exit_next_turn: bool,
    pub token_ids: Vec<String>,
    pub token_names: Vec<String>,
    pub token_type: Vec<TType>,
    pub item_ids: Vec<String>,
    pub item_names: Vec<String>,
    pub item_attack: Vec<bool>,
    /// cure[token] = the item that survives it
    pub cure: Vec<Option<u8>>,
    pub wall_item: Option<u8>,
    pub pile0: Vec<u8>,
    pub deck0: Vec<u8>,
    pub size: usize,
    pub cells: usize,
    pub centre: usize,
    pub starts: Vec<usize>,
    pub sides: Vec<Vec<(u8, usize)>>,
    pub around: Vec<usize>,
    pub labels: Vec<String>,
    pub seat_names: Vec<String>,
    pub roles: Vec<String>,
    pub stat_keys: Vec<String>,
    pub stat_token: Vec<usize>,
    pub stat_item: Vec<usize>,
    pub st_won_att: usize,
    pub st_won_def: usize,
    pub st_tie: usize,
    pub st_dragon_fight: usize,
    pub st_dragon_won: usize,
    pub st_item_used: usize,
    pub st_respawn: usize,
    pub st_trapdoor: usize,
    pub st_jewel_dropped: usize,
    pub st_jewel_taken: usize,
    pub st_item_stolen: usize,
    pub st_no_loot: usize,
    // heuristic defaults and playout variety
    pub h_strength: f64,
    pub h_caution: f64,
    pub h_patience: f64,
    pub variety_strength: Vec<f64>,
    pub dragon_chance: Vec<f64>,
    /// fitted evaluation: models by seat (role), or None (then `evaluate`)
    pub eval_models: Option<Vec<Model>>,
    pub has_own_evaluate: bool,
}

fn err(msg: &str) -> String {
    format!("dungeons-jewel core spec: {}", msg)
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
fn strs(v: &Value, key: &str) -> Result<Vec<String>, String> {
    arr(v, key)?
        .iter()
        .map(|x| x.as_str().map(|s| s.to_string()).ok_or_else(|| err(&format!("{:?} must hold strings", key))))
        .collect()
}
fn usizes(v: &Value) -> Result<Vec<usize>, String> {
    v.as_array()
        .ok_or_else(|| err("expected a list of integers"))?
        .iter()
        .map(|x| x.as_u64().map(|u| u as usize).ok_or_else(|| err("expected a list of integers")))
        .collect()
}

impl Game {
    pub fn from_spec(text: &str) -> Result<Game, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| err(&format!("not JSON: {}", e)))?;
        if string(&v, "game")? != "dungeons-jewel" {
            return Err(err("not a dungeons-jewel spec"));
        }
        let players = int(&v, "players")? as usize;
        if !(2..=4).contains(&players) {
            return Err(err("players must be 2..4"));
        }
        let mut token_ids = vec![];
        let mut token_names = vec![];
        let mut token_type = vec![];
        for t in arr(&v, "tokens")? {
            token_ids.push(string(t, "id")?);
            token_names.push(string(t, "name")?);
            token_type.push(match string(t, "type")?.as_str() {
                "hazard" => TType::Hazard,
                "monster" => TType::Monster,
                "trapdoor" => TType::Trapdoor,
                "wall" => TType::Wall,
                other => return Err(err(&format!("unknown token type {:?}", other))),
            });
        }
        let mut item_ids = vec![];
        let mut item_names = vec![];
        for i in arr(&v, "items")? {
            item_ids.push(string(i, "id")?);
            item_names.push(string(i, "name")?);
        }
        if token_ids.len() > 250 || item_ids.len() > 250 {
            return Err(err("too many token or item kinds"));
        }
        let tok_index = |id: &str| -> Result<u8, String> {
            token_ids.iter().position(|t| t == id).map(|p| p as u8).ok_or_else(|| err(&format!("unknown token {:?}", id)))
        };
        let item_index = |id: &str| -> Result<u8, String> {
            item_ids.iter().position(|t| t == id).map(|p| p as u8).ok_or_else(|| err(&format!("unknown item {:?}", id)))
        };
        let mut cure = vec![None; token_ids.len()];
        for pair in arr(&v, "cure")? {
            let p = pair.as_array().ok_or_else(|| err("cure entries are [token, item]"))?;
            let (t, i) = (p[0].as_str().unwrap_or(""), p[1].as_str().unwrap_or(""));
            cure[tok_index(t)? as usize] = Some(item_index(i)?);
        }
        let mut item_attack = vec![false; item_ids.len()];
        for a in strs(&v, "attack_items")? {
            item_attack[item_index(&a)? as usize] = true;
        }
        let wall_item = match get(&v, "wall_item")? {
            Value::Null => None,
            Value::String(s) => Some(item_index(s)?),
            _ => return Err(err("wall_item must be an item id or null")),
        };
        let pile0 = strs(&v, "token_pile")?.iter().map(|s| tok_index(s)).collect::<Result<Vec<u8>, String>>()?;
        let deck0 = strs(&v, "treasure_deck")?.iter().map(|s| item_index(s)).collect::<Result<Vec<u8>, String>>()?;
        let b = get(&v, "board")?;
        let size = int(b, "size")? as usize;
        let cells = int(b, "cells")? as usize;
        if cells != size * size || cells > 4096 {
            return Err(err("board cells must be size*size"));
        }
        let mut sides = vec![];
        for row in arr(b, "sides")? {
            let mut r = vec![];
            for pair in row.as_array().ok_or_else(|| err("board sides"))? {
                let p = usizes(pair)?;
                if p.len() != 2 || p[0] > 3 || p[1] >= cells {
                    return Err(err("board sides entries are [side, cell]"));
                }
                r.push((p[0] as u8, p[1]));
            }
            sides.push(r);
        }
        if sides.len() != cells {
            return Err(err("board sides need one row per cell"));
        }
        let starts = usizes(get(b, "starts")?)?;
        if starts.len() != players {
            return Err(err("one start per player"));
        }
        let stat_keys = strs(&v, "stat_keys")?;
        let stat = |k: &str| -> Result<usize, String> {
            stat_keys.iter().position(|s| s == k).ok_or_else(|| err(&format!("stat key {:?} missing", k)))
        };
        let stat_token = token_ids.iter().map(|t| stat(&format!("token:{}", t))).collect::<Result<Vec<_>, _>>()?;
        let stat_item = item_ids.iter().map(|t| stat(&format!("item:{}", t))).collect::<Result<Vec<_>, _>>()?;
        let h = get(&v, "heuristic")?;
        let roles = strs(&v, "roles")?;
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
                            let f = p[0].as_str().unwrap_or("");
                            let w = p[1].as_f64().ok_or_else(|| err("weight"))?;
                            // an unknown feature reads as 0.0 (features().get(f, 0.0)): it adds nothing
                            if let Some(i) = FEATURES.iter().position(|x| *x == f) {
                                out.push((i, w));
                            } else {
                                out.push((usize::MAX, w));
                            }
                        }
                        Ok(out)
                    };
                    Ok(Model { bias: num(m, "bias")?, own: weights("own")?, rival: weights("rival")? })
                };
                let fb = parse(by_role.get(&fallback).ok_or_else(|| err("evaluation fallback"))?)?;
                let mut models = vec![];
                for r in &roles {
                    models.push(match by_role.get(r) {
                        Some(m) => parse(m)?,
                        None => fb.clone(),
                    });
                }
                Some(models)
            }
        };
        Ok(Game {
            config: J::from_serde(get(&v, "config")?),
            variant: string(&v, "variant")?,
            players,
            max_turns: int(&v, "max_turns")? as u32,
            die: int(&v, "die")? as u64,
            hazard: int(&v, "hazard_target")?,
            monster: int(&v, "monster_target")?,
            dragon: int(&v, "dragon_target")?,
            start_health: int(&v, "start_health")?,
            respawn_health: int(&v, "respawn_health")?,
            steal: boolean(&v, "fight_steal")?,
            exit_any: boolean(&v, "exit_any")?,
            exit_next_turn: boolean(&v, "exit_next_turn")?,
            token_ids,
            token_names,
            token_type,
            item_ids,
            item_names,
            item_attack,
            cure,
            wall_item,
            pile0,
            deck0,
            size,
            cells,
            centre: int(b, "centre")? as usize,
            starts,
            sides,
            around: usizes(get(b, "around")?)?,
            labels: strs(b, "labels")?,
            seat_names: strs(&v, "seat_names")?,
            roles,
            st_won_att: stat("attack:won_as_attacker")?,
            st_won_def: stat("attack:won_as_defender")?,
            st_tie: stat("attack:tie")?,
            st_dragon_fight: stat("dragon:fight")?,
            st_dragon_won: stat("dragon:won")?,
            st_item_used: stat("rule:item_used")?,
            st_respawn: stat("rule:respawn")?,
            st_trapdoor: stat("rule:trapdoor_home")?,
            st_jewel_dropped: stat("rule:jewel_dropped")?,
            st_jewel_taken: stat("rule:jewel_taken")?,
            st_item_stolen: stat("rule:item_stolen")?,
            st_no_loot: stat("rule:no_loot_left")?,
            stat_token,
            stat_item,
            stat_keys,
            h_strength: num(h, "strength")?,
            h_caution: num(h, "caution")?,
            h_patience: num(h, "patience")?,
            variety_strength: match v.get("playout_variety").and_then(|p| p.get("strength")) {
                Some(Value::Array(a)) => a.iter().map(|x| x.as_f64().unwrap_or(0.0)).collect(),
                _ => vec![],
            },
            dragon_chance: arr(&v, "dragon_chance")?.iter().map(|x| x.as_f64().unwrap_or(0.0)).collect(),
            eval_models,
            has_own_evaluate: true,
        })
    }

    pub fn die_name(&self, plural: bool) -> String {
        let words = match self.die {
            4 => "four".to_string(),
            6 => "six".to_string(),
            8 => "eight".to_string(),
            10 => "ten".to_string(),
            12 => "twelve".to_string(),
            20 => "twenty".to_string(),
            n => n.to_string(),
        };
        if plural {
            format!("{}-sided dice", words)
        } else {
            format!("a {}-sided die", words)
        }
    }

    #[inline]
    pub fn is_start(&self, c: usize) -> bool {
        self.starts.contains(&c)
    }

    /// `near[c]`: c and its orthogonal neighbours (walls do not matter for attacks)
    #[inline]
    pub fn near(&self, c: usize, t: usize) -> bool {
        t == c || self.sides[c].iter().any(|&(_, j)| j == t)
    }

    pub fn connected(&self, walls: &[u8]) -> bool {
        let mut seen = vec![false; self.cells];
        seen[0] = true;
        let mut todo = vec![0usize];
        let mut count = 1;
        while let Some(c) = todo.pop() {
            let w = walls[c];
            for &(d, j) in &self.sides[c] {
                if !seen[j] && (w >> d) & 1 == 0 {
                    seen[j] = true;
                    count += 1;
                    todo.push(j);
                }
            }
        }
        count == self.cells
    }

    /// BFS step distances from `start` honouring `walls` (-1 where unreachable): `Board.distances`.
    pub fn distances(&self, start: usize, walls: &[u8]) -> Vec<i64> {
        let mut dist = vec![-1i64; self.cells];
        dist[start] = 0;
        let mut frontier = vec![start];
        while !frontier.is_empty() {
            let mut nxt = vec![];
            for &c in &frontier {
                let w = walls[c];
                let dc = dist[c] + 1;
                for &(d, j) in &self.sides[c] {
                    if dist[j] < 0 && (w >> d) & 1 == 0 {
                        dist[j] = dc;
                        nxt.push(j);
                    }
                }
            }
            frontier = nxt;
        }
        dist
    }
}
