//! The text formats: PDN FEN (`fen`), 1-32 move notation (`notation`) and the readers of
//! outside files (`readers`: PDN, openings, suites, books, Hub lines; `tables`: endgame table files). One test binary for all
//! keeps the release build's link steps few.

use buffgreen_testkit::reference as common;
mod fen;
mod notation;
mod readers;
mod tables;
