//! How the OCI client's events read: its retries as the app-registry client's do, the token
//! it got, and each blob and manifest it wrote or read back, as details; its warnings as
//! warnings.

use olm_release_oci::Event;

use super::Reporter;

impl Reporter {
    /// Shows an OCI client's event.
    pub(crate) fn oci_event(&self, e: Event) {
        match e {
            // The error already names the call; the line reads as the app-registry client's
            // retries do (`attempt` is the attempt that comes next).
            Event::Retry {
                at,
                attempt,
                of,
                wait,
                why,
            } => {
                let why = why
                    .strip_prefix(&format!("{at}: "))
                    .map_or(why.clone(), str::to_string);
                let note = olm_release_http::events::RetryNote {
                    call: at,
                    why,
                    next_attempt: attempt,
                    max_attempts: of,
                    wait,
                };
                olm_release_http::events::Events::retrying(self, &note);
            }
            Event::Token { service, scope } => {
                self.detail(&format!("token from {service} for {scope}"))
            }
            Event::BlobPresent { digest } => self.detail(&format!("blob {digest} already there")),
            Event::BlobUploaded { digest, size } => {
                self.detail(&format!("uploaded blob {digest} ({size} bytes)"))
            }
            Event::ManifestPushed { tag, digest } => {
                self.detail(&format!("manifest {digest} stored as {tag}"))
            }
            Event::ReadBack { digest } => {
                self.detail(&format!("read back {digest} by digest: identical"))
            }
            Event::Warning(text) => self.warn(&text),
        }
    }
}
