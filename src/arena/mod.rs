//! Match runner: plays engine-vs-engine games between processes that speak the protocol.
//! (Being built; the entry points below are the contract the binary uses.)

/// Command-line arguments of `buffgreen match`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {}

/// Runs a match; returns the process exit code.
pub fn run(args: &MatchArgs) -> i32 {
    let _ = args;
    eprintln!("match: not built yet");
    2
}
