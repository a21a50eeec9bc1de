//! The front ends of buffgreen: `buffgreen gui`, a page in the browser served on loopback and
//! bridged over a WebSocket to an engine child process, and `buffgreen play`, a game in the
//! terminal. Both are protocol clients (protocol.md): they start the engine as a program and
//! learn moves, positions and results from its replies, never from the engine library, which
//! this crate does not depend on. docs/gui.md describes the page's messages and its security.
//!
//! Layout: [`engine`] is the engine as a front end drives it (the handshake, the log, the
//! hung-engine watch) over the protocol client's process (the client crate, shared with the
//! match runner, which also gives the engine spec, the replies, PDN and the rules' names);
//! [`game`] the game kept by a client and checked by the engine; [`page`] one browser page (its
//! session and its messages); [`server`] the HTTP and WebSocket server; [`play`](mod@play) the terminal
//! game; [`error`] what goes wrong.

pub mod engine;
pub mod error;
pub mod game;
pub mod page;
pub mod play;
pub mod server;

pub use buffgreen_client::EngineSpec;
pub use error::GuiError;
pub use game::{Level, Rules, Side};
pub use play::{fallback_path, play, PlayOptions, Saved};
pub use server::{page_bytes, serve, ServeOptions};
