//! The search through the library: its basic contract (`basics`), threads (`threads`) and
//! the strength limit (`strength_limit`).

mod basics;
mod search_support;
mod strength_limit;
mod threads;
