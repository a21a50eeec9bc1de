//! The engine facade the protocol drives (being built).
