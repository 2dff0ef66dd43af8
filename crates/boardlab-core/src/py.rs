//! The Python module (PyO3): names and shapes documented in the crate's README section of
//! `boardlab/games/dungeons_jewel/core.py` and issue 43.

use crate::agents::{self, AgentSpec};
use crate::blackfire as bf;
use crate::dungeons_jewel::game::Game;
use crate::dungeons_jewel::state::{Action, State};
use crate::dungeons_jewel::{play_game, Agent as DjAgent};
use crate::json::J;
use crate::rng::{derive_seed as derive, Rng};
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyTuple};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

#[path = "py_from_json.rs"]
mod py_from_json;

const GAME_ID: &str = "dungeons-jewel";
const BF_ID: &str = "blackfire";
/// Every game the core plays (`GAMES`).
const ALL_GAMES: [&str; 2] = [GAME_ID, BF_ID];

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

fn bf_games() -> &'static Mutex<HashMap<String, Arc<bf::game::Game>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<bf::game::Game>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

fn no_game(game_id: &str) -> PyErr {
    PyValueError::new_err(format!("the core has no game {:?} (it has {})", game_id, ALL_GAMES.join(", ")))
}

/// The configured Dungeon's Jewel of `spec_json` (cached by spec).
fn game_for(game_id: &str, spec_json: &str) -> PyResult<Arc<Game>> {
    if game_id != GAME_ID {
        return Err(no_game(game_id));
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

/// The configured Blackfire of `spec_json` (cached by spec).
fn bf_game_for(spec_json: &str) -> PyResult<Arc<bf::game::Game>> {
    let mut cache = bf_games().lock().unwrap();
    if let Some(g) = cache.get(spec_json) {
        return Ok(g.clone());
    }
    let g = Arc::new(bf::game::Game::from_spec(spec_json).map_err(PyValueError::new_err)?);
    if cache.len() > 64 {
        cache.clear();
    }
    cache.insert(spec_json.to_string(), g.clone());
    Ok(g)
}

fn spec_of(game_id: &str, spec: &str) -> PyResult<AgentSpec> {
    if game_id != GAME_ID {
        return Err(no_game(game_id));
    }
    agents::parse(spec).map_err(PyValueError::new_err)
}

/// The heuristic's defaults where no configured game is at hand (check_agent only validates).
fn bf_defaults() -> bf::game::HParams {
    bf::game::HParams {
        noise: 1.0,
        persona: String::new(),
        progress: 1.0,
        danger: 1.0,
        kill: 1.0,
        hunt: 1.0,
        token: 1.0,
        stay: 0.0,
    }
}

fn bf_spec_of(g: &bf::game::Game, spec: &str) -> PyResult<bf::Spec> {
    bf::parse(spec, &g.heuristic).map_err(PyValueError::new_err)
}

#[pyfunction]
fn check_agent(game_id: &str, spec: &str) -> PyResult<()> {
    if game_id == BF_ID {
        return bf::parse(spec, &bf_defaults()).map(|_| ()).map_err(PyValueError::new_err);
    }
    spec_of(game_id, spec).map(|_| ())
}

fn j_to_py<'py>(py: Python<'py>, j: J) -> PyResult<Bound<'py, PyTuple>> {
    let J::Arr(items) = j else { unreachable!() };
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

fn action_to_py<'py>(py: Python<'py>, g: &Game, a: Action) -> PyResult<Bound<'py, PyTuple>> {
    j_to_py(py, a.to_j(g))
}

/// Whether `obj` (a tuple or list of exactly typed items) equals the action `want` (its JSON list).
fn matches_action(want: &J, items: &[Bound<'_, PyAny>]) -> bool {
    let J::Arr(want) = want else { return false };
    if want.len() != items.len() {
        return false;
    }
    want.iter().zip(items).all(|(w, x)| match w {
        J::Str(s) => x.extract::<String>().map(|v| &v == s).unwrap_or(false),
        J::Int(i) => {
            !x.is_instance_of::<PyBool>()
                && x.extract::<i64>().map(|v| v as i128 == *i).unwrap_or(false)
                && x.get_type().name().map(|n| n.to_string() == "int").unwrap_or(false)
        }
        _ => false,
    })
}

fn py_items<'py>(obj: &Bound<'py, PyAny>) -> Option<Vec<Bound<'py, PyAny>>> {
    if let Ok(t) = obj.downcast::<PyTuple>() {
        Some(t.iter().collect())
    } else if let Ok(l) = obj.downcast::<PyList>() {
        Some(l.iter().collect())
    } else {
        None
    }
}

/// The legal action equal to `obj` (a tuple or list of exactly typed items), if any.
fn action_from_py(g: &Game, legal: &[Action], obj: &Bound<'_, PyAny>) -> Option<Action> {
    let items = py_items(obj)?;
    legal.iter().copied().find(|a| matches_action(&a.to_j(g), &items))
}

fn bf_action_from_py(legal: &[bf::state::Action], obj: &Bound<'_, PyAny>) -> Option<bf::state::Action> {
    let items = py_items(obj)?;
    legal.iter().copied().find(|a| matches_action(&a.to_j(), &items))
}

fn loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// One game's state in the core.
enum Inner {
    Dj { game: Arc<Game>, state: State, legal: Vec<Action> },
    Bf { game: Arc<bf::game::Game>, state: bf::state::State, legal: Vec<bf::state::Action> },
}

#[pyclass(name = "CoreState", module = "boardlab_core")]
struct CoreState {
    inner: Inner,
}

impl CoreState {
    /// A Dungeon's Jewel state (its legal actions computed).
    pub(crate) fn dj(game: Arc<Game>, state: State) -> CoreState {
        let mut s = CoreState { inner: Inner::Dj { game, state, legal: vec![] } };
        s.refresh();
        s
    }
    fn bf(game: Arc<bf::game::Game>, state: bf::state::State) -> CoreState {
        let mut s = CoreState { inner: Inner::Bf { game, state, legal: vec![] } };
        s.refresh();
        s
    }
    fn refresh(&mut self) {
        match &mut self.inner {
            Inner::Dj { game, state, legal } => *legal = state.legal_actions(game),
            Inner::Bf { game, state, legal } => *legal = state.legal_actions(game),
        }
    }
    fn players(&self) -> usize {
        match &self.inner {
            Inner::Dj { game, .. } => game.players,
            Inner::Bf { .. } => 2,
        }
    }
    fn check_seat(&self, seat: Option<usize>) -> PyResult<()> {
        let n = self.players();
        match seat {
            Some(s) if s >= n => Err(PyValueError::new_err(format!("seat must be 0..{} or None, got {}", n - 1, s))),
            _ => Ok(()),
        }
    }
    fn is_over_(&self) -> bool {
        match &self.inner {
            Inner::Dj { state, .. } => state.is_over(),
            Inner::Bf { state, .. } => state.is_over(),
        }
    }
    fn seat_(&self) -> Option<usize> {
        match &self.inner {
            Inner::Dj { state, .. } => state.current_seat(),
            Inner::Bf { state, .. } => state.current_seat(),
        }
    }
}

#[pymethods]
impl CoreState {
    #[new]
    #[pyo3(signature = (game_id, spec_json, seed, max_turns=0))]
    fn new(game_id: &str, spec_json: &str, seed: &Bound<'_, PyAny>, max_turns: u32) -> PyResult<Self> {
        if game_id == BF_ID {
            let game = bf_game_for(spec_json)?;
            let state = bf::state::State::new(&game, big_int(seed)?, max_turns, true);
            return Ok(CoreState::bf(game, state));
        }
        let game = game_for(game_id, spec_json)?;
        let state = State::new(&game, big_int(seed)?, max_turns, true);
        Ok(CoreState::dj(game, state))
    }
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        match &self.inner {
            Inner::Dj { game, legal, .. } => legal.iter().map(|&a| action_to_py(py, game, a)).collect(),
            Inner::Bf { legal, .. } => legal.iter().map(|&a| j_to_py(py, a.to_j())).collect(),
        }
    }
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        if self.is_over_() {
            return Err(PyValueError::new_err("the game is over; no action is legal"));
        }
        let illegal = || -> PyResult<PyErr> { Ok(PyValueError::new_err(format!("illegal action {}", action.repr()?))) };
        match &mut self.inner {
            Inner::Dj { game, state, legal } => {
                let Some(a) = action_from_py(game, legal, action) else { return Err(illegal()?) };
                state.apply(game, a);
            }
            Inner::Bf { game, state, legal } => {
                let Some(a) = bf_action_from_py(legal, action) else { return Err(illegal()?) };
                state.apply(game, a);
            }
        }
        self.refresh();
        Ok(())
    }
    fn current_seat(&self) -> Option<usize> {
        self.seat_()
    }
    fn is_over(&self) -> bool {
        self.is_over_()
    }
    #[getter]
    fn turn(&self) -> u32 {
        match &self.inner {
            Inner::Dj { state, .. } => state.turn,
            Inner::Bf { state, .. } => state.turn,
        }
    }
    #[getter]
    fn decisions(&self) -> u32 {
        match &self.inner {
            Inner::Dj { state, .. } => state.decisions,
            Inner::Bf { state, .. } => state.decisions,
        }
    }
    fn results<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if !self.is_over_() {
            return Err(PyValueError::new_err("the game is not over yet"));
        }
        let j = match &self.inner {
            Inner::Dj { game, state, .. } => state.results_j(game),
            Inner::Bf { state, .. } => state.results_j(),
        };
        loads(py, &j.dumps())
    }
    fn metrics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        match &self.inner {
            Inner::Dj { game, state, .. } => {
                let n = game.players;
                for (i, k) in game.stat_keys.iter().enumerate() {
                    d.set_item(k, state.stats[i * n..(i + 1) * n].to_vec())?;
                }
            }
            Inner::Bf { state, .. } => {
                for (i, k) in bf::game::STAT_KEYS.iter().enumerate() {
                    d.set_item(k, state.stats[i].to_vec())?;
                }
            }
        }
        Ok(d)
    }
    fn to_json(&self) -> String {
        match &self.inner {
            Inner::Dj { game, state, .. } => state.to_json(game).dumps(),
            Inner::Bf { game, state, .. } => state.to_json(game).dumps(),
        }
    }
    #[pyo3(signature = (seat=None))]
    fn view(&self, seat: Option<usize>) -> PyResult<String> {
        self.check_seat(seat)?;
        Ok(match &self.inner {
            Inner::Dj { game, state, .. } => state.view(game, seat).dumps(),
            Inner::Bf { game, state, .. } => state.view(game, seat).dumps(),
        })
    }
    /// `json.dumps(State.events(seat))`; with `start`, only the events from index `start` on.
    #[pyo3(signature = (seat=None, start=0))]
    fn events(&self, seat: Option<usize>, start: usize) -> PyResult<String> {
        self.check_seat(seat)?;
        Ok(match &self.inner {
            Inner::Dj { state, .. } => state.events(seat, start).dumps(),
            Inner::Bf { state, .. } => state.events(seat, start).dumps(),
        })
    }
    /// The state document's `data`, `stack`, `rng`, `turn`, `decisions` and `truncated` fields
    /// (what `to_json` holds besides the configuration, the log, the history and the digest).
    fn fields_json(&self) -> String {
        match &self.inner {
            Inner::Dj { game, state, .. } => state.to_json_parts(game, false).dumps(),
            Inner::Bf { game, state, .. } => state.to_json_parts(game, false).dumps(),
        }
    }
    #[getter]
    fn log_len(&self) -> usize {
        match &self.inner {
            Inner::Dj { state, .. } => state.log.len(),
            Inner::Bf { state, .. } => state.log.len(),
        }
    }
    /// What a fresh agent of `agent_spec` for `seat`, seeded `agent_seed`, chooses here.
    fn act<'py>(&self, py: Python<'py>, agent_spec: &str, seat: usize, agent_seed: &Bound<'_, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
        self.check_seat(Some(seat))?;
        let seed = mask(big_int(agent_seed)?);
        match &self.inner {
            Inner::Dj { game, state, legal } => {
                let spec = spec_of(GAME_ID, agent_spec)?;
                if state.current_seat() != Some(seat) {
                    return Err(PyValueError::new_err("that seat is not acting"));
                }
                let mut agent = DjAgent::new(game, &spec, seat, seed);
                let a = agent.act(game, state, legal);
                action_to_py(py, game, a)
            }
            Inner::Bf { game, state, legal } => {
                let spec = bf_spec_of(game, agent_spec)?;
                if state.current_seat() != Some(seat) {
                    return Err(PyValueError::new_err("that seat is not acting"));
                }
                let mut agent = bf::Agent::new(game, &spec, seat, seed);
                let a = agent.act(game, state, legal);
                j_to_py(py, a.to_j())
            }
        }
    }
    /// A determinization for `seat` (the log and history dropped), as `State.determinize(seat, seed)`.
    fn determinize(&self, seat: usize, seed: &Bound<'_, PyAny>) -> PyResult<CoreState> {
        self.check_seat(Some(seat))?;
        let mut rng = Rng::new(mask(big_int(seed)?));
        Ok(match &self.inner {
            Inner::Dj { game, state, .. } => CoreState::dj(game.clone(), state.determinize(game, seat, &mut rng)),
            Inner::Bf { game, state, .. } => CoreState::bf(game.clone(), state.determinize(game, seat, &mut rng)),
        })
    }
    fn clone(&self) -> CoreState {
        CoreState {
            inner: match &self.inner {
                Inner::Dj { game, state, legal } => Inner::Dj { game: game.clone(), state: state.clone(), legal: legal.clone() },
                Inner::Bf { game, state, legal } => Inner::Bf { game: game.clone(), state: state.clone(), legal: legal.clone() },
            },
        }
    }
    /// Every seat's value at a search cut-off (fitted evaluation, else `evaluate`).
    fn values(&self) -> Vec<f64> {
        let mut out = vec![];
        match &self.inner {
            Inner::Dj { game, state, .. } => state.values(game, &mut out),
            Inner::Bf { game, state, .. } => state.values(game, &mut out),
        }
        out
    }
}

enum AgentInner {
    Dj { game: Arc<Game>, agent: DjAgent },
    Bf { game: Arc<bf::game::Game>, agent: bf::Agent },
}

#[pyclass(name = "Agent", module = "boardlab_core")]
struct PyAgent {
    inner: AgentInner,
    seat: usize,
}

#[pymethods]
impl PyAgent {
    #[new]
    fn new(game_id: &str, spec_json: &str, agent_spec: &str, seat: usize, seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        let seed = mask(big_int(seed)?);
        if game_id == BF_ID {
            let game = bf_game_for(spec_json)?;
            let spec = bf_spec_of(&game, agent_spec)?;
            if seat >= 2 {
                return Err(PyValueError::new_err(format!("seat must be 0..1 or None, got {}", seat)));
            }
            let agent = bf::Agent::new(&game, &spec, seat, seed);
            return Ok(PyAgent { inner: AgentInner::Bf { game, agent }, seat });
        }
        let game = game_for(game_id, spec_json)?;
        let spec = spec_of(game_id, agent_spec)?;
        if seat >= game.players {
            return Err(PyValueError::new_err(format!("seat must be 0..{} or None, got {}", game.players - 1, seat)));
        }
        let agent = DjAgent::new(&game, &spec, seat, seed);
        Ok(PyAgent { inner: AgentInner::Dj { game, agent }, seat })
    }
    fn act<'py>(&mut self, py: Python<'py>, state: &CoreState) -> PyResult<Bound<'py, PyTuple>> {
        if state.seat_() != Some(self.seat) {
            return Err(PyValueError::new_err("it is not this agent's seat's turn"));
        }
        match (&mut self.inner, &state.inner) {
            (AgentInner::Dj { game, agent }, Inner::Dj { state: st, legal, .. }) => {
                let game = game.clone();
                let a = py.allow_threads(|| agent.act(&game, st, legal));
                action_to_py(py, &game, a)
            }
            (AgentInner::Bf { game, agent }, Inner::Bf { state: st, legal, .. }) => {
                let game = game.clone();
                let a = py.allow_threads(|| agent.act(&game, st, legal));
                j_to_py(py, a.to_j())
            }
            _ => Err(PyValueError::new_err("the agent and the state are of different games")),
        }
    }
    /// Search iterations of the last ISMCTS decision (0 for other agents).
    #[getter]
    fn last_iterations(&self) -> u64 {
        match &self.inner {
            AgentInner::Dj { agent: DjAgent::Ismcts(m), .. } => m.last_iterations,
            AgentInner::Bf { agent: bf::Agent::Ismcts(m), .. } => m.last_iterations,
            _ => 0,
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn record_dict<'py>(
    py: Python<'py>,
    seed: i128,
    scores: Vec<f64>,
    winners: Vec<usize>,
    truncated: bool,
    reason: String,
    turns: u32,
    decisions: u32,
    roles: Vec<String>,
    actions: Vec<J>,
    stats: Vec<(String, Vec<u32>)>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("seed", seed)?;
    d.set_item("scores", scores)?;
    d.set_item("winners", winners)?;
    d.set_item("truncated", truncated)?;
    d.set_item("reason", reason)?;
    d.set_item("turns", turns)?;
    d.set_item("decisions", decisions)?;
    d.set_item("roles", roles)?;
    let list = PyList::empty(py);
    for a in actions {
        list.append(j_to_py(py, a)?.to_list())?;
    }
    d.set_item("actions", list)?;
    let st = PyDict::new(py);
    for (k, v) in stats {
        st.set_item(k, v)?;
    }
    d.set_item("stats", st)?;
    Ok(d)
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
    let out = PyList::empty(py);
    if game_id == BF_ID {
        let game = bf_game_for(spec_json)?;
        if agent_specs.len() != 2 {
            return Err(PyValueError::new_err(format!("need 2 agents, got {}", agent_specs.len())));
        }
        let specs: Vec<bf::Spec> = agent_specs.iter().map(|s| bf_spec_of(&game, s)).collect::<PyResult<_>>()?;
        let seeds: Vec<i128> = seeds.iter().map(big_int).collect::<PyResult<_>>()?;
        let records = py.allow_threads(|| {
            seeds.iter().map(|&s| bf::play_game(&game, &specs, s, max_turns, keep_actions)).collect::<Vec<_>>()
        });
        for r in records {
            let stats = bf::game::STAT_KEYS.iter().enumerate().map(|(i, k)| (k.to_string(), r.stats[i].to_vec())).collect();
            out.append(record_dict(
                py,
                r.seed,
                r.scores,
                r.winners,
                r.truncated,
                r.reason,
                r.turns,
                r.decisions,
                r.roles.iter().map(|x| x.to_string()).collect(),
                r.actions.iter().map(|a| a.to_j()).collect(),
                stats,
            )?)?;
        }
        return Ok(out);
    }
    let game = game_for(game_id, spec_json)?;
    if agent_specs.len() != game.players {
        return Err(PyValueError::new_err(format!("need {} agents, got {}", game.players, agent_specs.len())));
    }
    let specs: Vec<AgentSpec> = agent_specs.iter().map(|s| spec_of(game_id, s)).collect::<PyResult<_>>()?;
    let seeds: Vec<i128> = seeds.iter().map(big_int).collect::<PyResult<_>>()?;
    let records = py.allow_threads(|| {
        seeds.iter().map(|&s| play_game(&game, &specs, s, max_turns, keep_actions)).collect::<Vec<_>>()
    });
    let n = game.players;
    for r in records {
        let stats = game.stat_keys.iter().enumerate().map(|(i, k)| (k.clone(), r.stats[i * n..(i + 1) * n].to_vec())).collect();
        out.append(record_dict(
            py,
            r.seed,
            r.scores,
            r.winners,
            r.truncated,
            r.reason,
            r.turns,
            r.decisions,
            game.roles.clone(),
            r.actions.iter().map(|a| a.to_j(&game)).collect(),
            stats,
        )?)?;
    }
    Ok(out)
}

#[pymodule]
fn boardlab_core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("GAMES", PyTuple::new(m.py(), ALL_GAMES)?)?;
    m.add_class::<PyRng>()?;
    m.add_class::<CoreState>()?;
    m.add_class::<PyAgent>()?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)?;
    m.add_function(wrap_pyfunction!(check_agent, m)?)?;
    m.add_function(wrap_pyfunction!(play_games, m)?)?;
    m.add_function(wrap_pyfunction!(py_from_json::state_from_json, m)?)?;
    Ok(())
}
