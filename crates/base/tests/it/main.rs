//! The base crate's integration tests, through its public API only: the YAML it writes read
//! back by PyYAML (the `COURIER_PYTHON` peer `scripts/test.sh` starts; skipped without it) and
//! by its own parser, for arbitrary values.
//! Shared helpers come from `olm_release_testsupport`, reached as `support` like the
//! application's tests do.

use olm_release_testsupport as support;

mod fuzz;
mod yaml_compat;
