//! Integration tests: github (filled in by its issue).
