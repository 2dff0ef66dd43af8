//! `state_from_json`: a core state built from the Python state's document (`State.to_json()`), so
//! that a core agent can decide on a position the Python engine holds (`boardlab/agents/core_agent.py`).
//! The Dungeon's Jewel's documents are read here; Blackfire's by `blackfire/from_json.rs` (no Python
//! needed, so `cargo test --no-default-features` checks it), dispatched on the game id below.
//!
//! The document's fields are read as they are: the rng, turn, decisions, turn-cap flag, prompt
//! stack and the rules' `data`.  The event log and the history are not read (the core's agents do
//! not use them): the state built is a simulation state (no log, no history, events not recorded),
//! which plays on exactly as the Python state would.  The digest is not checked here (the Python
//! side made the document from a live state); the fields are range-checked so that a bad document
//! is a `ValueError`, never a panic.

use super::{bf_game_for, game_for, CoreState, BF_ID};
use crate::blackfire::from_json as bf_from_json;
use crate::dungeons_jewel::game::Game;
use crate::dungeons_jewel::state::{Prompt, State, NONE, NO_TOKEN};
use crate::rng::Rng;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::Value;
use crate::docread::{bad, check_header, field, list, uint};




fn int(v: &Value, what: &str) -> Result<i64, String> {
    v.as_i64().ok_or_else(|| bad(&format!("{} must be an integer, got {}", what, v)))
}


/// A seat or `null` (as -1).
fn opt_seat(v: &Value, what: &str, players: usize) -> Result<i8, String> {
    if v.is_null() {
        Ok(NONE)
    } else {
        Ok(uint(v, what, players as u64)? as i8)
    }
}

fn index_of(ids: &[String], v: &Value, what: &str) -> Result<u8, String> {
    let s = v.as_str().ok_or_else(|| bad(&format!("{} must be a name, got {}", what, v)))?;
    ids.iter().position(|x| x == s).map(|p| p as u8).ok_or_else(|| bad(&format!("unknown {} {:?}", what, s)))
}

/// A Python tuple encoded by the engine's codec (`{"$t": [...]}`), or a plain list.
fn tuple_items<'a>(v: &'a Value, what: &str) -> Result<&'a Vec<Value>, String> {
    match v.get("$t") {
        Some(t) => list(t, what, None),
        None => list(v, what, None),
    }
}

fn flag(v: &Value, what: &str) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(*b),
        _ => Ok(uint(v, what, 2)? == 1),
    }
}

fn prompt(g: &Game, v: &Value) -> Result<Prompt, String> {
    let inner = v.get("v").unwrap_or(v);
    let parts = list(inner, "a prompt", Some(3))?;
    let seat = uint(&parts[0], "a prompt's seat", g.players as u64)? as u8;
    let kind = parts[1].as_str().ok_or_else(|| bad("a prompt's kind must be a name"))?;
    let cells = g.cells as u64;
    Ok(match kind {
        "survive" => {
            let d = tuple_items(&parts[2], "a survive prompt's data")?;
            if d.len() != 2 {
                return Err(bad("a survive prompt's data is (cell, loot)"));
            }
            Prompt::Survive { seat, cell: uint(&d[0], "a prompt's cell", cells)? as u16, loot: flag(&d[1], "loot")? }
        }
        "place" => Prompt::Place { seat, cell: uint(&parts[2], "a prompt's cell", cells)? as u16 },
        "wall" => Prompt::Wall { seat, cell: uint(&parts[2], "a prompt's cell", cells)? as u16 },
        "take" => Prompt::Take { seat, from: uint(&parts[2], "a take prompt's seat", g.players as u64)? as u8 },
        other => return Err(bad(&format!("unknown prompt kind {:?}", other))),
    })
}

/// The core state of `g` the document `doc` (`State.to_json()` of the same configuration) describes.
pub(crate) fn state_from_doc(g: &Game, doc: &Value) -> Result<State, String> {
    check_header(&g.config, doc)?;
    let n = g.players;
    let cells = g.cells;
    let mut st = State::new(g, 0, 0, false); // every field below is overwritten
    st.rng = Rng::new(field(doc, "rng")?.as_u64().ok_or_else(|| bad("rng must be an integer 0..2**64-1"))?);
    st.turn = uint(field(doc, "turn")?, "turn", u32::MAX as u64)? as u32;
    st.decisions = uint(field(doc, "decisions")?, "decisions", u32::MAX as u64)? as u32;
    st.truncated = field(doc, "truncated")?.as_bool().ok_or_else(|| bad("truncated must be true or false"))?;
    st.stack = list(field(doc, "stack")?, "stack", None)?.iter().map(|p| prompt(g, p)).collect::<Result<_, _>>()?;
    let d = field(doc, "data")?;
    st.seat = uint(field(d, "seat")?, "seat", n as u64)? as usize;
    st.first = uint(field(d, "first")?, "first", n as u64)? as usize;
    let pos = list(field(d, "pos")?, "pos", Some(n))?;
    let health = list(field(d, "health")?, "health", Some(n))?;
    let power = list(field(d, "power")?, "power", Some(n))?;
    let items = list(field(d, "items")?, "items", Some(n))?;
    for s in 0..n {
        st.pos[s] = uint(&pos[s], "a position", cells as u64)? as u16;
        st.health[s] = int(&health[s], "health")?;
        st.power[s] = int(&power[s], "power")?;
        st.items[s] = list(&items[s], "a seat's items", None)?
            .iter()
            .map(|x| index_of(&g.item_ids, x, "item"))
            .collect::<Result<_, _>>()?;
    }
    st.tokens = list(field(d, "tokens")?, "tokens", Some(cells))?
        .iter()
        .map(|x| if x.is_null() { Ok(NO_TOKEN) } else { index_of(&g.token_ids, x, "token") })
        .collect::<Result<_, _>>()?;
    st.known = list(field(d, "known")?, "known", Some(cells))?
        .iter()
        .map(|x| uint(x, "a known mask", 1 << 16).map(|k| k as u16))
        .collect::<Result<_, _>>()?;
    st.walls = list(field(d, "walls")?, "walls", Some(cells))?
        .iter()
        .map(|x| uint(x, "a wall mask", 16).map(|k| k as u8))
        .collect::<Result<_, _>>()?;
    let facing = field(d, "facing")?;
    st.facing = match facing.get("$d") {
        None if facing.as_object().is_some_and(|m| m.is_empty()) => vec![],
        None => return Err(bad("facing must be the codec's dict ({} or {\"$d\": [[cell, side], ...]})")),
        Some(pairs) => list(pairs, "facing", None)?
            .iter()
            .map(|p| {
                let p = list(p, "a facing entry", Some(2))?;
                Ok((uint(&p[0], "a wall's room", cells as u64)? as u16, uint(&p[1], "a wall's side", 4)? as u8))
            })
            .collect::<Result<_, String>>()?,
    };
    st.pile = list(field(d, "pile")?, "pile", None)?.iter().map(|x| index_of(&g.token_ids, x, "token")).collect::<Result<_, _>>()?;
    st.deck = list(field(d, "deck")?, "deck", None)?.iter().map(|x| index_of(&g.item_ids, x, "item")).collect::<Result<_, _>>()?;
    st.jewel = opt_seat(field(d, "jewel")?, "jewel", n)?;
    st.exit = opt_seat(field(d, "exit")?, "exit", n)?;
    st.winner = opt_seat(field(d, "winner")?, "winner", n)?;
    st.stats = list(field(d, "stats")?, "stats", Some(g.stat_keys.len() * n))?
        .iter()
        .map(|x| uint(x, "a counter", u32::MAX as u64 + 1).map(|k| k as u32))
        .collect::<Result<_, _>>()?;
    // the prompts the rules would read must point at what they need (else legal_actions would fail)
    for p in &st.stack {
        match *p {
            Prompt::Survive { cell, .. } | Prompt::Place { cell, .. } if st.tokens[cell as usize] == NO_TOKEN => {
                return Err(bad(&format!("a {} prompt in room {} without a token", p.kind(), cell)));
            }
            _ => {}
        }
    }
    if st.stack.is_empty() && !st.is_over() && st.legal_actions(g).is_empty() {
        return Err(bad("no legal action in a game that is not over"));
    }
    Ok(st)
}

/// `state_from_json(game_id, spec_json, doc_json)`: the `CoreState` of a Python state's document
/// (`json.dumps(state.to_json())`, with or without its log and history) in the configured game
/// `spec_json` (`Game.core_spec()`).  The state is a simulation state: no event log, no history.
/// Blackfire's documents are read by `blackfire::from_json` (the same rules for what is read).
#[pyfunction]
pub(crate) fn state_from_json(game_id: &str, spec_json: &str, doc_json: &str) -> PyResult<CoreState> {
    if game_id == BF_ID {
        let game = bf_game_for(spec_json)?;
        let state = bf_from_json::state_from_json(&game, doc_json).map_err(PyValueError::new_err)?;
        return Ok(CoreState::bf(game, state));
    }
    let game = game_for(game_id, spec_json)?;
    let doc: Value = serde_json::from_str(doc_json).map_err(|e| PyValueError::new_err(bad(&format!("not JSON: {}", e))))?;
    let state = state_from_doc(&game, &doc).map_err(PyValueError::new_err)?;
    Ok(CoreState::dj(game, state))
}
