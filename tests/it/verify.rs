//! Integration tests: verify (filled in by its issue).
