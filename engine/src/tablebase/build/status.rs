//! How far a build of the tables is, without building (`tb status`): a build spans sessions
//! and machines, and whoever runs it needs to know what is done, what a stopped build saved,
//! and what is left, before starting the next share.

use std::path::Path;

use crate::board::Rules;
use crate::tablebase::build::plan::{levels, positions};
use crate::tablebase::build::resume;
use crate::tablebase::format::{header_fits, Unfit};
use crate::tablebase::Material;

/// Where one slice of a build stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum State {
    /// Its file is there with a header for these rules (its blocks are checked when a build
    /// or `tb verify` reads it).
    Built,
    /// Not written yet; a stopped build saved its work on it after this many levels.
    Saved(u32),
    /// A file or a save is there but cannot be used (the build starts the slice over): why.
    Unusable(String),
    /// Nothing yet.
    Missing,
}

/// One slice of the plan and its state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SliceStatus {
    /// Its level in `tb plan`.
    pub level: u32,
    /// The slice.
    pub material: Material,
    /// Its positions (both sides to move).
    pub positions: u64,
    /// Where it stands.
    pub state: State,
}

/// Every slice of the plan of `pieces` pieces in `dir` under `rules`, in plan order.
pub fn status(dir: &Path, pieces: u32, rules: &Rules) -> Vec<SliceStatus> {
    levels(pieces)
        .into_iter()
        .map(|(level, material)| {
            let state = match header_fits(dir, material, rules) {
                Ok(()) => State::Built,
                Err(Unfit::Bad(why)) => State::Unusable(why),
                Err(Unfit::Missing) => match resume::levels_saved(dir, material, rules) {
                    Ok(Some(done)) => State::Saved(done),
                    Ok(None) => State::Missing,
                    Err(e) => State::Unusable(e.to_string()),
                },
            };
            SliceStatus {
                level,
                material,
                positions: positions(material),
                state,
            }
        })
        .collect()
}
