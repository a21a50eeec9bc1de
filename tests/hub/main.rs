//! The Hub dialect (`buffgreen hub`): its commands and replies (`dialect`), and pydraughts
//! itself as the client (`pydraughts`).

mod dialect;
mod pydraughts;
