//! Content digests: the hex sha256 that names a blob in the app registry, a layer or manifest
//! in an OCI registry, and a release asset.

use sha2::{Digest as _, Sha256};

/// Hex sha256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// A sink that hashes what is written to it (`std::io::copy` a file into it to digest the file
/// without holding it).
#[derive(Default)]
pub struct Sha256Writer(Sha256);

impl Sha256Writer {
    /// The hex sha256 of everything written.
    pub fn hex(self) -> String {
        hex::encode(self.0.finalize())
    }
}

impl std::io::Write for Sha256Writer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn hashes_as_sha256sum_does() {
        assert_eq!(
            super::sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
