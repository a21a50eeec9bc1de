//! The front ends of buffgreen: `buffgreen gui`, a page in the browser served on loopback and
//! bridged over a WebSocket to an engine child process, and `buffgreen play`, a game in the
//! terminal. Both are protocol clients (protocol.md): they start the engine as a program and
//! learn moves, positions and results from its replies, never from the engine library, which
//! this crate does not depend on. docs/gui.md describes the page's messages and its security.

pub mod engine;
pub mod game;
pub mod page;
pub mod pdn;
pub mod play;
pub mod server;

pub use engine::EngineCommand;
pub use game::{Level, Rules, Side};
pub use play::{fallback_path, play, PlayOptions, Saved};
pub use server::{page_bytes, serve, ServeOptions};

/// What can go wrong in a front end.
#[derive(Debug, thiserror::Error)]
pub enum GuiError {
    /// The engine program could not be started.
    #[error("cannot start engine '{program}': {source}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        source: std::io::Error,
    },
    /// The engine exited or closed its pipes.
    #[error("engine died: {0}")]
    EngineDied(String),
    /// The engine answered something a protocol client cannot use.
    #[error("engine: {0}")]
    Engine(String),
    /// The engine did not answer in time: it is treated as dead (ended, and a restart offered).
    #[error("engine hung: {0}")]
    Hung(String),
    /// A line for the engine held a line break or another control character: never sent.
    #[error("refused: a line for the engine held a control character")]
    ControlCharacter,
    /// The engine (or the game) refused what was asked; nothing changed.
    #[error("{0}")]
    Refused(String),
    /// A message from the page that is not one of docs/gui.md's.
    #[error("bad message: {0}")]
    BadMessage(String),
    /// The server's address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: String,
        /// Why.
        source: std::io::Error,
    },
    /// Reading the terminal or writing the PDN file failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}
