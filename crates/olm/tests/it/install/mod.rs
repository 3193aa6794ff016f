//! The install rendering ([`olm_release_olm::cluster`]) against its oracles: operator-controller's
//! own regression goldens (`oracle`, read from a snapshot of operator-framework/operator-controller
//! when one is at hand) and this repository's fixtures in the goldens' shapes (`fixtures`), which
//! run everywhere.

mod common;
mod extension;
mod fixtures;
mod oracle;
mod refusals;
mod shapes;
mod upgrade;
mod verdict;
mod verify;
