//! Agent specs (`name:key=value:...`) as `boardlab.agents.parse_spec` reads them, limited to
//! what the core plays: `random`, `heuristic` and `ismcts`.

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
}

pub fn typed(raw: &str) -> Value {
    let low = raw.to_lowercase();
    if low == "true" || low == "false" {
        return Value::Bool(low == "true");
    }
    if let Ok(i) = raw.trim().replace('_', "").parse::<i64>() {
        if !raw.trim().starts_with('_') && !raw.trim().ends_with('_') && !raw.contains("__") {
            return Value::Int(i);
        }
    }
    if let Ok(f) = raw.trim().parse::<f64>() {
        return Value::Float(f);
    }
    Value::Str(raw.to_string())
}

#[derive(Clone, Debug)]
pub struct SearchSpec {
    pub iterations: u64,
    pub time_limit: f64,
    pub c: f64,
    pub rollout: String,
    pub depth: Option<u64>,
    pub prior: String,
    pub bias: f64,
    pub worlds: String,
    pub variety: String,
    pub expand: String,
    pub stop: String,
    pub only: Vec<String>,
}

#[derive(Clone, Debug)]
pub enum AgentSpec {
    Random,
    Heuristic { strength: Option<f64>, caution: Option<f64>, patience: Option<f64> },
    Ismcts(SearchSpec),
}

pub fn number(key: &str, v: &Value) -> Result<f64, String> {
    match v {
        Value::Int(i) => Ok(*i as f64),
        Value::Float(f) if f.is_finite() => Ok(*f),
        _ => Err(format!("agent parameter {} must be a number, got {:?}", key, v)),
    }
}

fn text(key: &str, v: &Value, choices: &[&str]) -> Result<String, String> {
    let s = match v {
        Value::Str(s) => s.clone(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Bool(b) => b.to_string(),
    };
    if !choices.is_empty() && !choices.contains(&s.as_str()) {
        return Err(format!("the core has no {}={} (it plays {})", key, s, choices.join(", ")));
    }
    Ok(s)
}

/// Parse a spec the core can play; `Err` with a one-line reason otherwise.
pub fn parse(spec: &str) -> Result<AgentSpec, String> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err("an agent spec must be a non-empty string".into());
    }
    let mut parts = spec.split(':');
    let name = parts.next().unwrap_or("");
    let mut params: Vec<(String, Value)> = vec![];
    for part in parts {
        let Some((key, raw)) = part.split_once('=') else {
            return Err(format!("agent parameter {:?} in {:?} must look like key=value", part, spec));
        };
        if key.is_empty() {
            return Err(format!("agent parameter {:?} in {:?} must look like key=value", part, spec));
        }
        if params.iter().any(|(k, _)| k == key) {
            return Err(format!("agent parameter {:?} is given twice in {:?}", key, spec));
        }
        params.push((key.to_string(), typed(raw)));
    }
    match name {
        "random" => {
            if let Some((k, _)) = params.first() {
                return Err(format!("agent RandomAgent has no parameter {:?}", k));
            }
            Ok(AgentSpec::Random)
        }
        "heuristic" => {
            let (mut strength, mut caution, mut patience) = (None, None, None);
            for (k, v) in &params {
                let x = Some(number(k, v)?);
                match k.as_str() {
                    "strength" => strength = x,
                    "caution" => caution = x,
                    "patience" => {
                        if x.unwrap() <= 0.0 {
                            return Err("the core needs patience > 0".into());
                        }
                        patience = x
                    }
                    _ => return Err(format!("agent HeuristicAgent has no parameter {:?}", k)),
                }
            }
            Ok(AgentSpec::Heuristic { strength, caution, patience })
        }
        "ismcts" => {
            let has = |k: &str| params.iter().any(|(x, _)| x == k);
            let mut s = SearchSpec {
                iterations: 200,
                time_limit: 0.0,
                c: 0.7,
                rollout: "auto".into(),
                depth: None,
                prior: "auto".into(),
                bias: 1.0,
                worlds: "paired".into(),
                variety: "auto".into(),
                expand: "random".into(),
                stop: "none".into(),
                only: vec![],
            };
            let mut iterations: i64 = 200;
            let mut time = 0.0;
            for (k, v) in &params {
                match k.as_str() {
                    "iterations" => match v {
                        Value::Int(i) if (0..=1_000_000).contains(i) => iterations = *i,
                        _ => return Err(format!("agent parameter iterations must be a whole number 0..1,000,000, got {:?}", v)),
                    },
                    "depth" => match v {
                        Value::Str(x) if x == "auto" => s.depth = None,
                        Value::Int(i) if (0..=100_000).contains(i) => s.depth = Some(*i as u64),
                        _ => return Err(format!("agent parameter depth must be a whole number 0..100,000, got {:?}", v)),
                    },
                    "time" => {
                        time = number(k, v)?;
                        if !(0.0..=3600.0).contains(&time) {
                            return Err("agent parameter time must be a number 0..3,600".into());
                        }
                    }
                    "c" => {
                        s.c = number(k, v)?;
                        if !(0.0..=1e6).contains(&s.c) {
                            return Err("agent parameter c must be a number 0..1,000,000".into());
                        }
                    }
                    "bias" => s.bias = number(k, v)?,
                    "rollout" => s.rollout = text(k, v, &["auto", "random", "heuristic"])?,
                    "prior" => s.prior = text(k, v, &["auto", "heuristic", "none"])?,
                    "worlds" => s.worlds = text(k, v, &["paired", "fresh"])?,
                    "variety" => s.variety = text(k, v, &["auto", "none"])?,
                    "widen" => {
                        text(k, v, &["auto", "none"])?; // the heuristic ranks nothing: no effect
                    }
                    "expand" => s.expand = text(k, v, &["random", "heuristic"])?,
                    "stop" => s.stop = text(k, v, &["none", "sure"])?,
                    "eval" => {
                        text(k, v, &["auto", "fitted"])?;
                    }
                    "only" => {
                        let o = text(k, v, &[])?;
                        if o.split('+').any(|x| x.is_empty()) {
                            return Err("only must name decision kinds joined by '+'".into());
                        }
                        s.only = o.split('+').map(|x| x.to_string()).collect();
                    }
                    _ => return Err(format!("the core's ismcts has no parameter {:?}", k)),
                }
            }
            if iterations == 0 && time == 0.0 {
                return Err("a search agent needs iterations >= 1 or time > 0".into());
            }
            s.iterations = if has("iterations") || time == 0.0 { iterations as u64 } else { 0 };
            s.time_limit = time;
            if !has("iterations") && !has("time") {
                s.time_limit = 2.0;
            }
            Ok(AgentSpec::Ismcts(s))
        }
        other => Err(format!("the core plays random, heuristic and ismcts, not {:?}", other)),
    }
}
