//! Reading a Python state document (JSON) into a core state: the small checked accessors every
//! game's reader shares (`dungeons_jewel` in `py_from_json.rs`, `blackfire::from_json`). Each error
//! names what is wrong, prefixed with "state document:".

use crate::json::J;
use serde_json::Value;

pub fn bad(what: &str) -> String {
    format!("state document: {}", what)
}

pub fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key).ok_or_else(|| bad(&format!("missing {:?}", key)))
}

pub fn uint(v: &Value, what: &str, below: u64) -> Result<u64, String> {
    match v.as_u64() {
        Some(x) if x < below => Ok(x),
        _ => Err(bad(&format!("{} must be an integer 0..{}, got {}", what, below - 1, v))),
    }
}

pub fn list<'a>(v: &'a Value, what: &str, len: Option<usize>) -> Result<&'a Vec<Value>, String> {
    let a = v.as_array().ok_or_else(|| bad(&format!("{} must be a list", what)))?;
    match len {
        Some(n) if a.len() != n => Err(bad(&format!("{} must hold {} entries, got {}", what, n, a.len()))),
        _ => Ok(a),
    }
}

/// A `boardlab.state/1` document of the configured game: its game, players, variant and options are
/// `config`'s (the keys `config` holds).
pub fn check_header(config: &J, doc: &Value) -> Result<(), String> {
    if doc.get("format").and_then(Value::as_str) != Some("boardlab.state/1") {
        return Err(bad("not a boardlab.state/1 document"));
    }
    for key in ["game", "players", "variant", "options"] {
        let want = config.get(key);
        let got = doc.get(key).map(J::from_serde);
        if want.is_some() && got.as_ref() != want {
            return Err(bad(&format!("its {} is not the configured game's", key)));
        }
    }
    Ok(())
}
