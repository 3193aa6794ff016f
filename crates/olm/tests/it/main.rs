//! The OLM domain's integration tests, through its public API only: file-based catalogs, the
//! bundle image, untrusted archives and property tests of their reader, and validation against
//! the corpus, operator-courier and operator-framework's suites. Fixtures are the repository's (`fixtures/`), found through
//! `olm_release_testsupport`, which the tests reach as `support` like the application's do.

use olm_release_testsupport as support;

mod bundle_image;
mod catalog_links;
mod fbc;
mod fuzz;
mod hostile;
mod install;
mod verify;
