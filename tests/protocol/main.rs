//! The protocol against the built binary: sessions and protocol.md's examples (`session`), the
//! command line (`cli`), every reply form and option against protocol.md (`contract`), the corpus of malformed lines (`corpus`), hostile input (`hostile`),
//! property tests (`props`), scores and win/draw/loss (`scores`), the script contract
//! (`script`: piped files, the order of commands, the end of input), searching through the
//! protocol (`search`), and the fuzzers' regressions (`fuzz_regressions`).

mod cli;
mod contract;
mod corpus;
mod fuzz_regressions;
mod hostile;
mod props;
mod scores;
mod script;
mod search;
mod session;
