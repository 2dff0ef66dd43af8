//! boardlab_core: the compiled core of boardlab (issue 43).  The Python rules stay the
//! reference; this crate reproduces them move for move for the built-in games it knows
//! (`GAMES`), with the `random` and `heuristic` agents and ISMCTS.

pub mod agents;
pub mod blackfire;
pub mod docread;
pub mod dungeons_jewel;
pub mod json;
pub mod mcts;
pub mod rng;

#[cfg(feature = "extension-module")]
mod py;
