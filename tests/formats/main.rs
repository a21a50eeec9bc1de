//! The text formats: PDN FEN (`fen`) and 1-32 move notation (`notation`). One test binary for
//! both keeps the release build's link steps few.

use buffgreen_testkit::reference as common;
mod fen;
mod notation;
