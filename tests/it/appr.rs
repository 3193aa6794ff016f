//! Integration tests: appr (filled in by its issue).
