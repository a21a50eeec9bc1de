//! `buffgreen play` through a pipe.
