//! Library code shared by the lab's harnesses and their tests.

pub mod ending;
