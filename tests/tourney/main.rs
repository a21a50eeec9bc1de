//! The match runner (`buffgreen match`) and the suite driver (`buffgreen suite`), through the
//! built binary and the crate: adjudication, engine faults, output files, robustness,
//! the scripts, self-play, shards, suites, and PDN read back by other libraries.

mod adjudication;
mod faults;
mod match_support;
mod output;
mod pdn_interop;
mod robust;
mod scripts;
mod selfplay;
mod shards;
mod suite;
mod suite_cli;
