//! The front ends' one error type: what stops a page's request, a terminal game or the server.

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
