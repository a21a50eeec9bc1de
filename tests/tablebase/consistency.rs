//! `tb verify` on the 4-piece tables: every entry agrees with its successors.

use std::process::Command;

use buffgreen::board::Rules;
use buffgreen_testkit::process::succeed;

use crate::tables;

/// The line `tb verify` prints on the tables of up to `pieces` pieces under `rules`, without
/// the time taken.
pub fn verify_line(pieces: u32, rules: &Rules) -> String {
    verify_line_of(&tables(pieces, rules))
}

/// The line `tb verify` prints on `dir`, without the time taken.
pub fn verify_line_of(dir: &std::path::Path) -> String {
    let out = succeed(
        Command::new(env!("CARGO_BIN_EXE_buffgreen"))
            .args(["tb", "verify", "--threads", "2", "--dir"])
            .arg(dir),
        "tb verify",
    );
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    // The line ends with the time taken.
    text.rsplit_once(", ")
        .map_or(text.clone(), |(line, _)| line.to_string())
}

#[test]
fn four_piece_tables_pass_verify() {
    assert_eq!(
        verify_line(4, &Rules::BUFF_AND_GREEN),
        "ok: 23 slices, 6408836 positions consistent (BackwardCapture=true LongKings=true DrawHalfMoves=80)"
    );
    assert_eq!(
        verify_line(4, &Rules::ENGLISH),
        "ok: 23 slices, 6408836 positions consistent (BackwardCapture=false LongKings=false DrawHalfMoves=80)"
    );
}
