//! A Blackfire core state built from the Python state's document (`State.to_json()`), so that a
//! core agent can decide on a position the Python engine holds (`boardlab/agents/core_agent.py`,
//! `boardlab_core.state_from_json` in `src/py_from_json.rs`).
//!
//! Every field the core keeps is read from the document: the rng, turn, decisions, turn-cap flag,
//! prompt stack and the rules' `data` (phase, bag, tokens in their insertion order, secret
//! placements, colours, red start, exit, units, the Orb, the side to move and its turn's progress,
//! winner and reason, counters, revealed tokens in their insertion order).  The event log and the
//! history are not read (the core's agents do not use them): the state built is a simulation state
//! (no log, no history, events not recorded), which plays on exactly as the Python state would.
//! The digest is not checked (the Python side made the document from a live state); the fields are
//! range- and consistency-checked so that a bad document is an `Err` naming why, never a panic
//! later in the rules or the agents.

use super::game::{Game, STAT_KEYS, TOKEN_KINDS};
use super::state::{PKind, Prompt, State, Unit, ARCHER, SORCERER};
use crate::rng::Rng;
use serde_json::Value;
use crate::docread::{bad, check_header, field, list, uint};

const PROMPT_RECORD: &str = "boardlab.engine.state.Prompt";
const UNIT_RECORD: &str = "boardlab.games.blackfire.pieces.Unit";




fn opt_uint(v: &Value, what: &str, below: u64) -> Result<Option<u64>, String> {
    if v.is_null() {
        Ok(None)
    } else {
        uint(v, &format!("{} (or null)", what), below).map(Some)
    }
}

fn boolean(v: &Value, what: &str) -> Result<bool, String> {
    v.as_bool().ok_or_else(|| bad(&format!("{} must be true or false, got {}", what, v)))
}


fn object<'a>(v: &'a Value, what: &str) -> Result<&'a serde_json::Map<String, Value>, String> {
    v.as_object().ok_or_else(|| bad(&format!("{} must be an object", what)))
}

/// A Python tuple encoded by the engine's codec (`{"$t": [...]}`), or a plain list.
fn items<'a>(v: &'a Value, what: &str, len: Option<usize>) -> Result<&'a Vec<Value>, String> {
    match v.get("$t") {
        Some(t) => list(t, what, len),
        None => list(v, what, len),
    }
}

/// The field values of a record encoded by the codec (`{"$r": name, "v": [...]}`).
fn record<'a>(v: &'a Value, name: &str, what: &str, len: usize) -> Result<&'a Vec<Value>, String> {
    match v.get("$r").map(|r| r.as_str()) {
        None => {}
        Some(Some(r)) if r == name => {}
        Some(_) => return Err(bad(&format!("{} must be a {} record", what, name))),
    }
    list(v.get("v").unwrap_or(v), what, Some(len))
}

fn kind_of(v: &Value, what: &str) -> Result<u8, String> {
    let s = v.as_str().ok_or_else(|| bad(&format!("{} must be a token kind, got {}", what, v)))?;
    TOKEN_KINDS.iter().position(|k| *k == s).map(|k| k as u8).ok_or_else(|| bad(&format!("unknown token kind {:?}", s)))
}

/// A square of the castle a piece or token may stand on.
fn square(g: &Game, accessible: &[bool], v: &Value, what: &str) -> Result<u16, String> {
    let c = uint(v, what, g.n as u64)? as usize;
    if !accessible[c] {
        return Err(bad(&format!("{} {} is not an accessible square of the castle", what, c)));
    }
    Ok(c as u16)
}

fn prompt(v: &Value) -> Result<Prompt, String> {
    let parts = record(v, PROMPT_RECORD, "a prompt", 3)?;
    let seat = uint(&parts[0], "a prompt's seat", 2)? as u8;
    let kind = parts[1].as_str().ok_or_else(|| bad("a prompt's kind must be a name"))?;
    let data = object(&parts[2], "a prompt's data")?;
    let want: &[&str] = match kind {
        "shoot" => &["targets", "unit"],
        "speed" => &["points", "unit"],
        "teleport" | "displace" | "revive-token" => &["unit"],
        other => return Err(bad(&format!("unknown prompt kind {:?}", other))),
    };
    if data.len() != want.len() || want.iter().any(|k| !data.contains_key(*k)) {
        return Err(bad(&format!("a {} prompt's data holds {}", kind, want.join(" and "))));
    }
    let unit = uint(&data["unit"], "a prompt's unit", 6)? as u8;
    let kind = match kind {
        "shoot" => {
            let t = items(&data["targets"], "a shoot prompt's targets", None)?;
            if t.is_empty() || t.len() > 3 {
                return Err(bad("a shoot prompt names 1 to 3 targets"));
            }
            let mut targets = [0u8; 3];
            for (i, x) in t.iter().enumerate() {
                targets[i] = uint(x, "a target", 6)? as u8;
            }
            PKind::Shoot { targets, len: t.len() as u8 }
        }
        "speed" => PKind::Speed {
            points: data["points"].as_i64().ok_or_else(|| bad("a speed prompt's points must be an integer"))?,
        },
        "teleport" => PKind::Teleport,
        "displace" => PKind::Displace,
        _ => PKind::ReviveToken,
    };
    Ok(Prompt { seat, unit, kind })
}

fn unit(g: &Game, accessible: &[bool], i: usize, v: &Value) -> Result<Unit, String> {
    let f = record(v, UNIT_RECORD, "a unit", 7)?;
    let side = uint(&f[0], "a unit's side", 2)? as u8;
    let kind = uint(&f[1], "a unit's kind", 3)? as u8;
    if (side as usize, kind as usize) != (i / 3, i % 3) {
        return Err(bad(&format!("unit {} must be side {} kind {}", i, i / 3, i % 3)));
    }
    let cell = if f[2].is_null() { None } else { Some(square(g, accessible, &f[2], "a unit's square")?) };
    let defensive = match f[3].as_str() {
        Some("offensive") => false,
        Some("defensive") => true,
        _ => return Err(bad(&format!("a unit's stance must be \"offensive\" or \"defensive\", got {}", f[3]))),
    };
    let turn = |x: &Value, what: &str| opt_uint(x, what, u32::MAX as u64).map(|t| t.map(|t| t as u32));
    let respawn = if f[6].is_null() {
        None
    } else {
        Some(f[6].as_i64().ok_or_else(|| bad(&format!("a unit's respawn must be an integer or null, got {}", f[6])))?)
    };
    Ok(Unit { side, kind, cell, defensive, slow_at: turn(&f[4], "slow_at")?, inv_until: turn(&f[5], "inv_until")?, respawn })
}

/// The keys of the JSON object at `path` in `text`, in the text's order (serde_json's maps sort
/// their keys, and the order of a Python dict is part of the state).  `None` if there is none.
pub fn keys_in_order(text: &str, path: &[&str]) -> Option<Vec<String>> {
    let mut s = Scan { b: text.as_bytes(), text, i: 0 };
    let mut out = None;
    s.value(Some(path), &mut out)?;
    out
}

/// A structural walk over JSON text (already known to parse), keeping no values.
struct Scan<'a> {
    b: &'a [u8],
    text: &'a str,
    i: usize,
}

impl Scan<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }
    fn string(&mut self) -> Option<String> {
        self.ws();
        let start = self.i;
        if self.b.get(self.i) != Some(&b'"') {
            return None;
        }
        self.i += 1;
        while *self.b.get(self.i)? != b'"' {
            self.i += if self.b[self.i] == b'\\' { 2 } else { 1 };
        }
        self.i += 1;
        serde_json::from_str(&self.text[start..self.i]).ok()
    }
    /// Walk one value; `path` is the rest of the path while the walk is on it (`Some(&[])`: here).
    fn value(&mut self, path: Option<&[&str]>, out: &mut Option<Vec<String>>) -> Option<()> {
        self.ws();
        match *self.b.get(self.i)? {
            b'{' => {
                self.i += 1;
                let mut keys = vec![];
                if self.eat(b'}').is_none() {
                    loop {
                        let k = self.string()?;
                        self.eat(b':')?;
                        let sub = match path {
                            Some([first, rest @ ..]) if *first == k => Some(rest),
                            _ => None,
                        };
                        self.value(sub, out)?;
                        keys.push(k);
                        if self.eat(b',').is_none() {
                            self.eat(b'}')?;
                            break;
                        }
                    }
                }
                if path == Some(&[]) {
                    *out = Some(keys);
                }
            }
            b'[' => {
                self.i += 1;
                if self.eat(b']').is_none() {
                    loop {
                        self.value(None, out)?;
                        if self.eat(b',').is_none() {
                            self.eat(b']')?;
                            break;
                        }
                    }
                }
            }
            b'"' => {
                self.string()?;
            }
            _ => {
                while self.i < self.b.len() && !matches!(self.b[self.i], b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r') {
                    self.i += 1;
                }
            }
        }
        Some(())
    }
}

/// The core state of `g` the document `text` (`json.dumps(State.to_json())` of the same
/// configuration, with or without its log, history and digest) describes, or why there is none.
pub fn state_from_json(g: &Game, text: &str) -> Result<State, String> {
    let doc: Value = serde_json::from_str(text).map_err(|e| bad(&format!("not JSON: {}", e)))?;
    let order = keys_in_order(text, &["data", "revealed"]);
    state_from_doc(g, &doc, order.as_deref())
}

/// `state_from_json` of a parsed document; `revealed_order` is the order of `data.revealed`'s keys
/// (the order the kinds were first revealed), else they are taken in the token list's order.
pub fn state_from_doc(g: &Game, doc: &Value, revealed_order: Option<&[String]>) -> Result<State, String> {
    check_header(&g.config, doc)?;
    let mut accessible = vec![false; g.n];
    for &c in &g.cells {
        accessible[c] = true;
    }
    let tpp = g.tokens_per_player;
    let mut st = State::new(g, 0, 0, false); // every field below is overwritten
    st.rng = Rng::new(field(doc, "rng")?.as_u64().ok_or_else(|| bad("rng must be an integer 0..2**64-1"))?);
    st.turn = uint(field(doc, "turn")?, "turn", u32::MAX as u64)? as u32;
    st.decisions = uint(field(doc, "decisions")?, "decisions", u32::MAX as u64)? as u32;
    st.truncated = boolean(field(doc, "truncated")?, "truncated")?;
    st.stack = list(field(doc, "stack")?, "stack", None)?.iter().map(prompt).collect::<Result<_, _>>()?;
    let d = field(doc, "data")?;
    st.play = match field(d, "phase")?.as_str() {
        Some("place") => false,
        Some("play") => true,
        _ => return Err(bad("phase must be \"place\" or \"play\"")),
    };
    st.bag = list(field(d, "bag")?, "bag", None)?.iter().map(|x| kind_of(x, "a bag entry")).collect::<Result<_, _>>()?;
    st.tokens.clear();
    st.tok = vec![u8::MAX; g.n];
    let tokens = field(d, "tokens")?;
    let pairs: &[Value] = match tokens.get("$d") {
        Some(p) => list(p, "tokens", None)?,
        None if tokens.as_object().is_some_and(|m| m.is_empty()) => &[],
        None => return Err(bad("tokens must be the codec's dict ({} or {\"$d\": [[cell, kind], ...]})")),
    };
    for p in pairs {
        let p = list(p, "a token entry", Some(2))?;
        let cell = square(g, &accessible, &p[0], "a token's square")?;
        if st.tok[cell as usize] != u8::MAX {
            return Err(bad(&format!("two tokens on square {}", cell)));
        }
        let k = kind_of(&p[1], "a token")?;
        st.tokens.push((cell, k));
        st.tok[cell as usize] = k;
    }
    let placing = list(field(d, "placing")?, "placing", Some(2))?;
    for seat in 0..2 {
        let mut cells: Vec<u16> = vec![];
        for x in list(&placing[seat], "a seat's placements", None)? {
            let c = uint(x, "a placement", g.n as u64)? as u16;
            if !g.placeable_set[c as usize] || cells.contains(&c) {
                return Err(bad(&format!("seat {} cannot have placed a token on square {}", seat, c)));
            }
            cells.push(c);
        }
        st.placing[seat] = cells;
    }
    st.side_of_seat = match field(d, "side_of_seat")? {
        Value::Null => None,
        v => {
            let s = list(v, "side_of_seat", Some(2))?;
            let a = uint(&s[0], "a seat's side", 2)? as u8;
            let b = uint(&s[1], "a seat's side", 2)? as u8;
            if a == b {
                return Err(bad("side_of_seat must give the seats different sides"));
            }
            Some([a, b])
        }
    };
    st.red_start = opt_uint(field(d, "red_start")?, "red_start", 4)?.map(|x| x as u8);
    st.exit = opt_uint(field(d, "exit")?, "exit", 4)?.map(|x| x as u8);
    let units = list(field(d, "units")?, "units", None)?;
    st.units = units.iter().enumerate().map(|(i, v)| unit(g, &accessible, i, v)).collect::<Result<_, _>>()?;
    st.orb_cell = match field(d, "orb_cell")? {
        Value::Null => None,
        v => Some(square(g, &accessible, v, "the Orb's square")?),
    };
    st.orb_holder = opt_uint(field(d, "orb_holder")?, "orb_holder", 6)?.map(|x| x as u8);
    st.side = uint(field(d, "side")?, "side", 2)? as u8;
    st.moved = list(field(d, "moved")?, "moved", None)?
        .iter()
        .map(|x| uint(x, "a moved unit", 6).map(|u| u as u8))
        .collect::<Result<_, _>>()?;
    st.stance_done = boolean(field(d, "stance_done")?, "stance_done")?;
    st.revive_from = opt_uint(field(d, "revive_from")?, "revive_from", 6)?.map(|x| x as u8);
    st.winner = opt_uint(field(d, "winner")?, "winner", 2)?.map(|x| x as u8);
    st.reason = field(d, "reason")?.as_str().ok_or_else(|| bad("reason must be a string"))?.to_string();
    let stats = object(field(d, "stats")?, "stats")?;
    if stats.len() != STAT_KEYS.len() {
        return Err(bad(&format!("stats must hold the {} counters {}", STAT_KEYS.len(), STAT_KEYS.join(", "))));
    }
    for (i, key) in STAT_KEYS.iter().enumerate() {
        let pair = list(stats.get(*key).ok_or_else(|| bad(&format!("stats has no {:?}", key)))?, "a counter pair", Some(2))?;
        for s in 0..2 {
            st.stats[i][s] = uint(&pair[s], "a counter", u32::MAX as u64 + 1)? as u32;
        }
    }
    let revealed = object(field(d, "revealed")?, "revealed")?;
    let keys: Vec<&str> = match revealed_order {
        Some(order) if order.len() == revealed.len() && order.iter().all(|k| revealed.contains_key(k)) => {
            order.iter().map(String::as_str).collect()
        }
        _ => TOKEN_KINDS.iter().copied().filter(|k| revealed.contains_key(*k)).collect(),
    };
    if keys.len() != revealed.len() {
        let other = revealed.keys().find(|k| !TOKEN_KINDS.contains(&k.as_str())).unwrap();
        return Err(bad(&format!("unknown token kind {:?} in revealed", other)));
    }
    st.revealed = keys
        .iter()
        .map(|k| {
            let kind = kind_of(&Value::String(k.to_string()), "a revealed kind")?;
            Ok((kind, uint(&revealed[*k], "a revealed count", u32::MAX as u64 + 1)? as u32))
        })
        .collect::<Result<_, String>>()?;
    check(g, &st, tpp)?;
    Ok(st)
}

/// What the rules and the agents rely on (else they would fail on the state).
fn check(g: &Game, st: &State, tpp: usize) -> Result<(), String> {
    if !st.play {
        if !st.stack.is_empty() {
            return Err(bad("a prompt during the token placement"));
        }
        if !st.units.is_empty() || st.side_of_seat.is_some() || st.red_start.is_some() || st.exit.is_some() {
            return Err(bad("units, colours, red start and exit are set when the placement ends"));
        }
        if st.orb_cell.is_some() || st.orb_holder.is_some() || st.winner.is_some() {
            return Err(bad("no Orb and no winner during the token placement"));
        }
        let (a, b) = (st.placing[0].len(), st.placing[1].len());
        if tpp == 0 || a > tpp || b >= tpp || (b > 0 && a < tpp) {
            return Err(bad(&format!("placements {} and {} do not fit {} tokens per player placed in turn", a, b, tpp)));
        }
        if st.bag.len() < 2 * tpp {
            return Err(bad(&format!("the bag holds {} tokens, fewer than the {} the players place", st.bag.len(), 2 * tpp)));
        }
        let free = g.placeable.iter().filter(|&&c| st.tok[c] == u8::MAX).count();
        if free < 2 * tpp {
            return Err(bad("too few free squares for the players' tokens"));
        }
        return Ok(());
    }
    if st.side_of_seat.is_none() || st.red_start.is_none() || st.exit.is_none() {
        return Err(bad("in play, side_of_seat, red_start and exit are set"));
    }
    if st.units.len() != 6 {
        return Err(bad(&format!("in play there are 6 units, got {}", st.units.len())));
    }
    if st.placing.iter().any(|p| !p.is_empty()) {
        return Err(bad("placements are pending in play"));
    }
    match (st.orb_holder, st.orb_cell) {
        (Some(h), None) => {
            let v = &st.units[h as usize];
            if v.kind != SORCERER || v.cell.is_none() {
                return Err(bad(&format!("the Orb is held by unit {}, not a living sorcerer", h)));
            }
        }
        (None, Some(_)) => {}
        _ => return Err(bad("in play the Orb is either held (orb_holder) or on a square (orb_cell)")),
    }
    for p in &st.stack {
        let u = &st.units[p.unit as usize];
        let needs_alive = matches!(p.kind, PKind::Speed { .. } | PKind::Teleport);
        if needs_alive && u.cell.is_none() {
            return Err(bad(&format!("a {} prompt for dead unit {}", p.kind_name(), p.unit)));
        }
        if let PKind::Shoot { targets, len } = p.kind {
            if u.kind != ARCHER || targets[..len as usize].iter().any(|&t| st.units[t as usize].cell.is_none()) {
                return Err(bad("a shoot prompt is an archer's, at living targets"));
            }
        }
    }
    if st.stack.is_empty() && !st.is_over() && st.legal_actions(g).is_empty() {
        return Err(bad("no legal action in a game that is not over"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blackfire::state::Action;

    fn game(name: &str) -> Game {
        let path = format!("{}/tests/data/{}.json", env!("CARGO_MANIFEST_DIR"), name);
        Game::from_spec(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    fn fields(g: &Game, st: &State) -> String {
        st.to_json_parts(g, false).dumps()
    }

    #[test]
    fn every_position_of_random_games_is_rebuilt_and_plays_on_alike() {
        for name in ["blackfire_final", "blackfire_prototype"] {
            let g = game(name);
            let mut prompts = 0;
            for seed in 0..6 {
                let mut st = State::new(&g, seed, 0, seed % 2 == 0);
                let mut rng = Rng::new(seed as u64 + 5);
                // 120 decisions keep the debug build quick; the Python tests take whole games
                while !st.is_over() && st.decisions < 120 {
                    let text = st.to_json(&g).dumps();
                    let back = state_from_json(&g, &text).unwrap();
                    assert_eq!(fields(&g, &back), fields(&g, &st));
                    assert_eq!(back.view(&g, Some(0)).dumps(), st.view(&g, Some(0)).dumps());
                    let legal = st.legal_actions(&g);
                    assert_eq!(back.legal_actions(&g), legal);
                    prompts += !st.stack.is_empty() as u32;
                    let a: Action = legal[rng.below(legal.len() as u64) as usize];
                    let mut next = back.clone();
                    st.apply(&g, a);
                    next.apply(&g, a);
                    assert_eq!(fields(&g, &next), fields(&g, &st));
                }
            }
            assert!(prompts > 0, "{}: no prompt seen", name);
        }
    }

    #[test]
    fn bad_documents_are_refused() {
        let g = game("blackfire_final");
        let mut st = State::new(&g, 3, 0, false);
        let mut rng = Rng::new(9);
        for _ in 0..30 {
            let legal = st.legal_actions(&g);
            st.apply(&g, legal[rng.below(legal.len() as u64) as usize]);
        }
        let doc: Value = serde_json::from_str(&st.to_json(&g).dumps()).unwrap();
        assert!(state_from_doc(&g, &doc, None).is_ok());
        let edits: Vec<(&str, fn(&mut Value))> = vec![
            ("phase", |d| d["data"]["phase"] = "dance".into()),
            ("units", |d| {
                d["data"]["units"].as_array_mut().unwrap().pop();
            }),
            ("square", |d| d["data"]["units"][0]["v"][2] = 100000.into()),
            ("kind", |d| d["data"]["bag"] = serde_json::json!(["no-such-token"])),
            ("side", |d| d["data"]["side_of_seat"] = serde_json::json!([1, 1])),
            ("Orb", |d| d["data"]["orb_holder"] = 1.into()),
            ("prompt", |d| d["stack"] = serde_json::json!([{"$r": PROMPT_RECORD, "v": [0, "dance", {"unit": 0}]}])),
            ("stats", |d| {
                d["data"]["stats"].as_object_mut().unwrap().remove("rule:kill");
            }),
            ("rng", |d| d["rng"] = (-1).into()),
            ("players", |d| d["players"] = 3.into()),
        ];
        for (what, edit) in edits {
            let mut d = doc.clone();
            edit(&mut d);
            assert!(state_from_doc(&g, &d, None).is_err(), "{} accepted", what);
        }
        assert!(state_from_json(&g, "{not json").is_err());
    }

    #[test]
    fn keys_keep_the_text_order() {
        let text = r#"{"a": [1, {"revealed": {"x": 1}}], "data": {"s": "}\"{", "revealed": {"speed": 1, "death": 2, "revive": 0}}}"#;
        assert_eq!(keys_in_order(text, &["data", "revealed"]).unwrap(), vec!["speed", "death", "revive"]);
        assert_eq!(keys_in_order(r#"{"data": {"revealed": {}}}"#, &["data", "revealed"]).unwrap(), Vec::<String>::new());
        assert_eq!(keys_in_order(r#"{"data": {}}"#, &["data", "revealed"]), None);
    }
}
