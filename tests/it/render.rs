//! Integration tests: render (filled in by its issue).
