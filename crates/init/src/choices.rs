//! What the files `init` writes are written with: what it found, overridden by what the user
//! asked (`--package`, `--channel`, `--github`, `--app-registry`…).

use std::collections::BTreeMap;

/// The detected values with the user's overrides.
pub(crate) struct Choices {
    pub package: String,
    /// The channels a release joins; the first one's head is what it replaces.
    pub channels: Vec<String>,
    /// Where the channels were read (`--channel`, the Makefile's `CHANNELS`, a bundle's
    /// annotations); None: alpha, the default.
    pub channels_from: Option<String>,
    /// The package's default channel, when it is not the first channel.
    pub default_channel: Option<String>,
    /// The app-registry namespace, and the bundle image's organisation.
    pub namespace: String,
    /// The namespace the operator runs in (for `{{.Namespace}}`-like variables).
    pub operator_namespace: String,
    /// OWNER/REPO on GitHub.
    pub github: Option<String>,
    /// The branch alpha builds come from.
    pub branch: String,
    pub templates: String,
    pub bundle: String,
    /// Include folders of the repository's templates, rendered (`render.includes`).
    pub includes: BTreeMap<String, String>,
    /// Folders of the repository's manifests the generated templates insert as they are
    /// (`render.files`).
    pub files: BTreeMap<String, String>,
    pub csv_name: Option<String>,
    /// Template variables filled from the CSV parts: (variable, part path).
    pub csv_vars: Vec<(String, String)>,
    /// Also publish to an app registry (the 2019 path), besides the bundle image and catalog.
    pub app_registry: bool,
}

impl Choices {
    /// The first channel.
    pub fn channel(&self) -> &str {
        self.channels.first().map_or("alpha", String::as_str)
    }

    /// The bundle image's repository: `quay.io/<namespace>/<package>-bundle`.
    pub fn bundle_image(&self) -> String {
        format!("quay.io/{}/{}-bundle", self.namespace, self.package).to_ascii_lowercase()
    }
}
