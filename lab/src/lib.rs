//! Library code shared by the lab's harnesses and their tests.

pub mod alphabeta;
pub mod ending;
pub mod pdn;
