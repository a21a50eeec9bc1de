//! The Hub dialect (`buffgreen hub`): its commands and replies (`dialect`), and pydraughts
//! itself as the client (`pydraughts`), and pydraughts as the referee of the 8x8 family's
//! moves (`variants`).

mod dialect;
mod pydraughts;
mod variants;
