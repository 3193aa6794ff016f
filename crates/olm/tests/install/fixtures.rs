//! This repository's fixtures in the goldens' shapes (`fixtures/install/`): rendered and
//! compared object by object, everywhere (no snapshot needed).
