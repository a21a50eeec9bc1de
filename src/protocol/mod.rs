//! The UCI-like text protocol: command parsing and output formatting (being built).
