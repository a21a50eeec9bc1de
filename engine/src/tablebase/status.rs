//! How far a build of the tables is, without building (`tb status`): a build spans sessions
//! and machines, and whoever runs it needs to know what is done, what a stopped build saved,
//! and what is left, before starting the next share.

use std::path::Path;

use crate::board::Rules;
use crate::tablebase::plan::{levels, positions};
use crate::tablebase::{format, resume, Material, TbError};

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

/// Why a slice file does not count as built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unfit {
    /// There is no file.
    Missing,
    /// The file's header cannot be read or names another slice or other rules: why.
    Bad(String),
}

impl std::fmt::Display for Unfit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unfit::Missing => write!(f, "missing"),
            Unfit::Bad(why) => write!(f, "{why}"),
        }
    }
}

/// Whether the file of `material` is in `dir` with a header for `rules`; else why not.
pub fn header_fits(dir: &Path, material: Material, rules: &Rules) -> Result<(), Unfit> {
    let path = format::path_of(dir, material);
    format::read_header(&path)
        .and_then(|h| format::check_fits(&path, &h, material, rules))
        .map_err(|e| match e {
            TbError::Io { .. } if !path.exists() => Unfit::Missing,
            e => Unfit::Bad(e.to_string()),
        })
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
