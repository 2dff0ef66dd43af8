//! The Python module (PyO3): names and shapes documented in the crate's README section of
//! `boardlab/games/dungeons_jewel/core.py` and issue 43.

use crate::agents::{self, AgentSpec};
use crate::dungeons_jewel::game::Game;
use crate::dungeons_jewel::state::{Action, State};
use crate::dungeons_jewel::{play_game, Agent as DjAgent};
use crate::rng::{derive_seed as derive, Rng};
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyTuple};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

const GAME_ID: &str = "dungeons-jewel";

fn mask(seed: i128) -> u64 {
    seed.rem_euclid(1i128 << 64) as u64
}

fn big_int(obj: &Bound<'_, PyAny>) -> PyResult<i128> {
    // any Python int, reduced modulo 2**128 range check: seeds beyond i128 are refused
    obj.extract::<i128>().map_err(|_| PyOverflowError::new_err("seed out of range"))
}

#[pyclass(name = "SplitMix64", module = "boardlab_core")]
struct PyRng {
    inner: Rng,
}

#[pymethods]
impl PyRng {
    #[new]
    #[pyo3(signature = (seed=None))]
    fn new(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let s = match seed {
            Some(x) => mask(big_int(x)?),
            None => 0,
        };
        Ok(PyRng { inner: Rng::new(s) })
    }
    fn next64(&mut self) -> u64 {
        self.inner.next64()
    }
    fn below(&mut self, n: i64) -> PyResult<u64> {
        if n <= 0 {
            return Err(PyValueError::new_err(format!("below() needs n >= 1, got {}", n)));
        }
        Ok(self.inner.below(n as u64))
    }
    #[pyo3(signature = (sides=6))]
    fn roll(&mut self, sides: i64) -> PyResult<u64> {
        if sides <= 0 {
            return Err(PyValueError::new_err(format!("below() needs n >= 1, got {}", sides)));
        }
        Ok(self.inner.roll(sides as u64))
    }
    fn random(&mut self) -> f64 {
        self.inner.random()
    }
    fn choice(&mut self, seq: Vec<PyObject>) -> PyResult<PyObject> {
        if seq.is_empty() {
            return Err(PyValueError::new_err("below() needs n >= 1, got 0"));
        }
        let i = self.inner.below(seq.len() as u64) as usize;
        Ok(seq.into_iter().nth(i).unwrap())
    }
    /// A shuffled copy of the list (Fisher-Yates in Rng.shuffle's order).
    fn shuffle(&mut self, seq: Vec<PyObject>) -> Vec<PyObject> {
        let mut v = seq;
        self.inner.shuffle(&mut v);
        v
    }
    #[getter]
    fn state(&self) -> u64 {
        self.inner.state
    }
    #[setter]
    fn set_state(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.state = mask(big_int(value)?);
        Ok(())
    }
}

#[pyfunction]
#[pyo3(signature = (seed, *salt))]
fn derive_seed(seed: &Bound<'_, PyAny>, salt: &Bound<'_, PyTuple>) -> PyResult<u64> {
    let s = mask(big_int(seed)?);
    let salts: Vec<i128> = salt.iter().map(|x| big_int(&x)).collect::<PyResult<_>>()?;
    Ok(derive(s, &salts))
}

fn games() -> &'static Mutex<HashMap<String, Arc<Game>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Game>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

fn game_for(game_id: &str, spec_json: &str) -> PyResult<Arc<Game>> {
    if game_id != GAME_ID {
        return Err(PyValueError::new_err(format!("the core has no game {:?} (it has {})", game_id, GAME_ID)));
    }
    let mut cache = games().lock().unwrap();
    if let Some(g) = cache.get(spec_json) {
        return Ok(g.clone());
    }
    let g = Arc::new(Game::from_spec(spec_json).map_err(PyValueError::new_err)?);
    if cache.len() > 64 {
        cache.clear();
    }
    cache.insert(spec_json.to_string(), g.clone());
    Ok(g)
}

fn spec_of(game_id: &str, spec: &str) -> PyResult<AgentSpec> {
    if game_id != GAME_ID {
        return Err(PyValueError::new_err(format!("the core has no game {:?}", game_id)));
    }
    agents::parse(spec).map_err(PyValueError::new_err)
}

#[pyfunction]
fn check_agent(game_id: &str, spec: &str) -> PyResult<()> {
    spec_of(game_id, spec).map(|_| ())
}

fn action_to_py<'py>(py: Python<'py>, g: &Game, a: Action) -> PyResult<Bound<'py, PyTuple>> {
    use crate::json::J;
    let J::Arr(items) = a.to_j(g) else { unreachable!() };
    let objs: Vec<PyObject> = items
        .into_iter()
        .map(|x| match x {
            J::Str(s) => s.into_pyobject(py).unwrap().into_any().unbind(),
            J::Int(i) => (i as i64).into_pyobject(py).unwrap().into_any().unbind(),
            _ => py.None(),
        })
        .collect();
    PyTuple::new(py, objs)
}

/// The legal action equal to `obj` (a tuple or list of exactly typed items), if any.
fn action_from_py(g: &Game, legal: &[Action], obj: &Bound<'_, PyAny>) -> Option<Action> {
    use crate::json::J;
    let items: Vec<Bound<'_, PyAny>> = if let Ok(t) = obj.downcast::<PyTuple>() {
        t.iter().collect()
    } else if let Ok(l) = obj.downcast::<PyList>() {
        l.iter().collect()
    } else {
        return None;
    };
    'outer: for &a in legal {
        let J::Arr(want) = a.to_j(g) else { continue };
        if want.len() != items.len() {
            continue;
        }
        for (w, x) in want.iter().zip(&items) {
            let ok = match w {
                J::Str(s) => x.extract::<String>().map(|v| &v == s).unwrap_or(false),
                J::Int(i) => !x.is_instance_of::<PyBool>() && x.extract::<i64>().map(|v| v as i128 == *i).unwrap_or(false)
                    && x.get_type().name().map(|n| n.to_string() == "int").unwrap_or(false),
                _ => false,
            };
            if !ok {
                continue 'outer;
            }
        }
        return Some(a);
    }
    None
}

fn loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

#[pyclass(name = "CoreState", module = "boardlab_core")]
struct CoreState {
    game: Arc<Game>,
    state: State,
    legal: Vec<Action>,
}

impl CoreState {
    fn refresh(&mut self) {
        self.legal = self.state.legal_actions(&self.game);
    }
}

#[pymethods]
impl CoreState {
    #[new]
    #[pyo3(signature = (game_id, spec_json, seed, max_turns=0))]
    fn new(game_id: &str, spec_json: &str, seed: &Bound<'_, PyAny>, max_turns: u32) -> PyResult<Self> {
        let game = game_for(game_id, spec_json)?;
        let state = State::new(&game, big_int(seed)?, max_turns, true);
        let mut s = CoreState { game, state, legal: vec![] };
        s.refresh();
        Ok(s)
    }
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.legal.iter().map(|&a| action_to_py(py, &self.game, a)).collect()
    }
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        if self.state.is_over() {
            return Err(PyValueError::new_err("the game is over; no action is legal"));
        }
        let Some(a) = action_from_py(&self.game, &self.legal, action) else {
            return Err(PyValueError::new_err(format!("illegal action {}", action.repr()?)));
        };
        self.state.apply(&self.game, a);
        self.refresh();
        Ok(())
    }
    fn current_seat(&self) -> Option<usize> {
        self.state.current_seat()
    }
    fn is_over(&self) -> bool {
        self.state.is_over()
    }
    #[getter]
    fn turn(&self) -> u32 {
        self.state.turn
    }
    #[getter]
    fn decisions(&self) -> u32 {
        self.state.decisions
    }
    fn results<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if !self.state.is_over() {
            return Err(PyValueError::new_err("the game is not over yet"));
        }
        loads(py, &self.state.results_j(&self.game).dumps())
    }
    fn metrics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let n = self.game.players;
        for (i, k) in self.game.stat_keys.iter().enumerate() {
            d.set_item(k, self.state.stats[i * n..(i + 1) * n].to_vec())?;
        }
        Ok(d)
    }
    fn to_json(&self) -> String {
        self.state.to_json(&self.game).dumps()
    }
    #[pyo3(signature = (seat=None))]
    fn view(&self, seat: Option<usize>) -> PyResult<String> {
        check_seat(&self.game, seat)?;
        Ok(self.state.view(&self.game, seat).dumps())
    }
    /// `json.dumps(State.events(seat))`; with `start`, only the events from index `start` on.
    #[pyo3(signature = (seat=None, start=0))]
    fn events(&self, seat: Option<usize>, start: usize) -> PyResult<String> {
        check_seat(&self.game, seat)?;
        Ok(self.state.events(seat, start).dumps())
    }
    /// The state document's `data`, `stack`, `rng`, `turn`, `decisions` and `truncated` fields
    /// (what `to_json` holds besides the configuration, the log, the history and the digest).
    fn fields_json(&self) -> String {
        let doc = self.state.to_json_parts(&self.game, false);
        doc.dumps()
    }
    #[getter]
    fn log_len(&self) -> usize {
        self.state.log.len()
    }
    /// What a fresh agent of `agent_spec` for `seat`, seeded `agent_seed`, chooses here.
    fn act<'py>(&self, py: Python<'py>, agent_spec: &str, seat: usize, agent_seed: &Bound<'_, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
        let spec = spec_of(GAME_ID, agent_spec)?;
        check_seat(&self.game, Some(seat))?;
        if self.state.current_seat() != Some(seat) {
            return Err(PyValueError::new_err("that seat is not acting"));
        }
        let mut agent = DjAgent::new(&self.game, &spec, seat, mask(big_int(agent_seed)?));
        let a = agent.act(&self.game, &self.state, &self.legal);
        action_to_py(py, &self.game, a)
    }
    /// A determinization for `seat` (the log and history dropped), as `State.determinize(seat, seed)`.
    fn determinize(&self, seat: usize, seed: &Bound<'_, PyAny>) -> PyResult<CoreState> {
        check_seat(&self.game, Some(seat))?;
        let mut rng = Rng::new(mask(big_int(seed)?));
        let state = self.state.determinize(&self.game, seat, &mut rng);
        let mut s = CoreState { game: self.game.clone(), state, legal: vec![] };
        s.refresh();
        Ok(s)
    }
    fn clone(&self) -> CoreState {
        CoreState { game: self.game.clone(), state: self.state.clone(), legal: self.legal.clone() }
    }
    /// Every seat's value at a search cut-off (fitted evaluation, else `evaluate`).
    fn values(&self) -> Vec<f64> {
        let mut out = vec![];
        self.state.values(&self.game, &mut out);
        out
    }
}

fn check_seat(g: &Game, seat: Option<usize>) -> PyResult<()> {
    match seat {
        Some(s) if s >= g.players => Err(PyValueError::new_err(format!("seat must be 0..{} or None, got {}", g.players - 1, s))),
        _ => Ok(()),
    }
}

#[pyclass(name = "Agent", module = "boardlab_core")]
struct PyAgent {
    game: Arc<Game>,
    agent: DjAgent,
    seat: usize,
}

#[pymethods]
impl PyAgent {
    #[new]
    fn new(game_id: &str, spec_json: &str, agent_spec: &str, seat: usize, seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        let game = game_for(game_id, spec_json)?;
        let spec = spec_of(game_id, agent_spec)?;
        check_seat(&game, Some(seat))?;
        let agent = DjAgent::new(&game, &spec, seat, mask(big_int(seed)?));
        Ok(PyAgent { game, agent, seat })
    }
    fn act<'py>(&mut self, py: Python<'py>, state: &CoreState) -> PyResult<Bound<'py, PyTuple>> {
        if state.state.current_seat() != Some(self.seat) {
            return Err(PyValueError::new_err("it is not this agent's seat's turn"));
        }
        let game = self.game.clone();
        let st = &state.state;
        let legal = &state.legal;
        let agent = &mut self.agent;
        let a = py.allow_threads(|| agent.act(&game, st, legal));
        action_to_py(py, &self.game, a)
    }
    /// Search iterations of the last ISMCTS decision (0 for other agents).
    #[getter]
    fn last_iterations(&self) -> u64 {
        match &self.agent {
            DjAgent::Ismcts(m) => m.last_iterations,
            _ => 0,
        }
    }
}

#[pyfunction]
#[pyo3(signature = (game_id, spec_json, agent_specs, seeds, max_turns=0, keep_actions=false))]
fn play_games<'py>(
    py: Python<'py>,
    game_id: &str,
    spec_json: &str,
    agent_specs: Vec<String>,
    seeds: Vec<Bound<'py, PyAny>>,
    max_turns: u32,
    keep_actions: bool,
) -> PyResult<Bound<'py, PyList>> {
    let game = game_for(game_id, spec_json)?;
    if agent_specs.len() != game.players {
        return Err(PyValueError::new_err(format!("need {} agents, got {}", game.players, agent_specs.len())));
    }
    let specs: Vec<AgentSpec> = agent_specs.iter().map(|s| spec_of(game_id, s)).collect::<PyResult<_>>()?;
    let seeds: Vec<i128> = seeds.iter().map(big_int).collect::<PyResult<_>>()?;
    let records = py.allow_threads(|| {
        seeds.iter().map(|&s| play_game(&game, &specs, s, max_turns, keep_actions)).collect::<Vec<_>>()
    });
    let out = PyList::empty(py);
    let roles: Vec<String> = game.roles.clone();
    let n = game.players;
    for r in records {
        let d = PyDict::new(py);
        d.set_item("seed", r.seed)?;
        d.set_item("scores", r.scores)?;
        d.set_item("winners", r.winners)?;
        d.set_item("truncated", r.truncated)?;
        d.set_item("reason", r.reason)?;
        d.set_item("turns", r.turns)?;
        d.set_item("decisions", r.decisions)?;
        d.set_item("roles", roles.clone())?;
        let actions = PyList::empty(py);
        for a in r.actions {
            actions.append(action_to_py(py, &game, a)?.to_list())?;
        }
        d.set_item("actions", actions)?;
        let stats = PyDict::new(py);
        for (i, k) in game.stat_keys.iter().enumerate() {
            stats.set_item(k, r.stats[i * n..(i + 1) * n].to_vec())?;
        }
        d.set_item("stats", stats)?;
        out.append(d)?;
    }
    Ok(out)
}

#[pymodule]
fn boardlab_core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("GAMES", PyTuple::new(m.py(), [GAME_ID])?)?;
    m.add_class::<PyRng>()?;
    m.add_class::<CoreState>()?;
    m.add_class::<PyAgent>()?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)?;
    m.add_function(wrap_pyfunction!(check_agent, m)?)?;
    m.add_function(wrap_pyfunction!(play_games, m)?)?;
    Ok(())
}
