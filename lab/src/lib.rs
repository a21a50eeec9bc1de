//! Library code shared by the lab's harnesses and their tests.
//!
//! Layout: [`alphabeta`] is the classic alpha-beta sparring partner, [`ending`] the exact
//! solver that labels the ending suite, [`pdn`] reads the games of a match's PDN file.

pub mod alphabeta;
pub mod ending;
pub mod pdn;
