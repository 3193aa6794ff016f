//! A release pulled from a registry: unpacked, checked against the digest the registry
//! reported, and read as a bundle.

use super::error::ReadError;
use super::model::Limits;
use super::read::read_bundle;
use super::unpack::unpack_as;
use crate::Bundle;

/// Unpacks a blob pulled from a registry within `limits`, checks it is the one the registry
/// named (`expected_digest`, the sha256 of its tar) and reads the bundle in it. The error's
/// class is the bundle's (input); callers that pulled the blob re-class it as the server's
/// failure, except [`ReadError::DigestMismatch`], which already is one.
pub fn unpack_release(
    gz: &[u8],
    expected_digest: &str,
    limits: &Limits,
) -> Result<Bundle, ReadError> {
    let (files, digest) = unpack_as("the blob", gz, limits)?;
    if digest != expected_digest {
        return Err(ReadError::DigestMismatch {
            expected: expected_digest.to_string(),
            actual: digest,
        });
    }
    read_bundle(&files, limits)
}
