//! The match runner (`buffgreen match`) and the suite driver (`buffgreen suite`), through the
//! built binary and the crate: adjudication, engine faults, output files (and that no output
//! destroys an input), robustness, reading PDN,
//! the scripts, self-play, shards, suites, and PDN read back by other libraries.

mod adjudication;
mod faults;
mod files;
mod match_support;
mod output;
mod pdn_interop;
mod pdn_reading;
mod robust;
mod scripts;
mod selfplay;
mod shards;
mod suite;
mod suite_cli;
