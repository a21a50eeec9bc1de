//! One page of the browser front end.
//!
//! Layout: [`session`] is the page's session (its own engine, game and clocks), [`message`]
//! the messages it reads from the page and writes to it.

pub mod message;
pub mod session;

pub use message::MAX_MESSAGE;
pub use session::Page;
