//! The protocol client the match runner (`tourney/`) and the front ends (`gui/`) share, as
//! cutechess shares one library between its command line and its GUI: everything a program
//! needs to drive engines that speak protocol.md, and nothing of the engine library, which
//! this crate does not depend on.
//!
//! Layout: [`spec`] says how to start an engine (`cmd=... name=... option.X=...`), [`process`]
//! runs it (a process group of its own, a reader thread that stamps each line, killed whole
//! when dropped) and [`lines`] is its capped line reader; [`info`] reads the replies (info
//! lines, the best move, options, errors); [`rules`] holds a rule set as plain data with its
//! names (the rules crate's table: PDN `GameType`, `Variant`, `Rules` tag) and the lines that
//! set it in an engine; [`pdn`] writes and reads games.
//!
//! What a session does with an engine (the runner's referee, the page's session) stays with
//! each program.

pub mod info;
pub mod lines;
pub mod pdn;
pub mod process;
pub mod rules;
pub mod spec;

pub use info::Info;
pub use process::{EngineProcess, Event, Spawn, Stderr};
pub use rules::Rules;
pub use spec::{EngineSpec, SpecError};

/// The canonical FEN of the start position (protocol.md, FEN): Black to move.
pub const START_FEN: &str = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

/// `text` with control characters escaped (`\n`, `\u{0}`), so that an error quoting what an
/// engine or a file said stays one printable line (the rules crate's, which the engine
/// library shares).
pub use buffgreen_rules::printable;
