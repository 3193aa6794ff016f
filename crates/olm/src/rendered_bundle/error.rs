//! What can be wrong with the bundle among rendered files: each an input error (exit 2) naming
//! the template or folder to fix.

/// A bundle that cannot be read out of the rendered files.
#[derive(Debug, thiserror::Error)]
pub enum RenderedBundleError {
    /// A package file that does not parse.
    #[error("{file}: package file: {message}")]
    PackageFile {
        /// The template or file it came from.
        file: String,
        /// What is wrong with it.
        message: String,
    },
    /// A second package file in the bundle folder.
    #[error("{file}: a second package file in the bundle")]
    SecondPackage {
        /// The template of the second one.
        file: String,
    },
    /// A second dependencies or properties file.
    #[error("{file}: a second {kind} file in the bundle (a bundle has one metadata/{kind}.yaml)")]
    SecondMetadata {
        /// The template of the second one.
        file: String,
        /// `dependencies` or `properties`.
        kind: &'static str,
    },
    /// An annotations file whose annotations cannot be image labels.
    #[error("{file}: annotations: {why} (the image's labels repeat the annotations as text)")]
    Annotations {
        /// The template of the annotations file.
        file: String,
        /// Why its annotations are not usable.
        why: String,
    },
    /// A kind OLM does not install from a bundle.
    #[error(
        "{file}: {kind} does not belong in a bundle (OLM installs only the CSV, the package file and {allowed}); move it out of the bundle folder"
    )]
    Unexpected {
        /// The template it came from.
        file: String,
        /// Its kind (or "document without kind").
        kind: String,
        /// The kinds OLM would install, for the message.
        allowed: String,
    },
    /// Not exactly one CSV in the bundle folder.
    #[error(
        "the bundle folder '{dir}' must render exactly one CSV, found {found} (render.bundle names the folder; '.' is the templates folder itself)"
    )]
    CsvCount {
        /// The bundle folder (`render.bundle`).
        dir: String,
        /// How many CSVs it rendered.
        found: usize,
    },
    /// No package file in the bundle folder, and none named elsewhere.
    #[error(
        "the bundle folder '{dir}' has no package file (packageName); name one elsewhere with render.package"
    )]
    NoPackage {
        /// The bundle folder (`render.bundle`).
        dir: String,
    },
    /// CRDs of one name rendered from several files, every such name with its files.
    #[error("{}", same_crds(.0))]
    SameCrds(Vec<(String, Vec<String>)>),
}

fn same_crds(all: &[(String, Vec<String>)]) -> String {
    let one = |(name, files): &(String, Vec<String>)| {
        format!("CRD {name} is rendered from {}", files.join(" and "))
    };
    match all {
        [single] => format!(
            "{}; a bundle holds each CRD once: keep one of them",
            one(single)
        ),
        _ => {
            let mut out = format!(
                "{} are rendered more than once; a bundle holds each CRD once: keep one copy of each:",
                olm_release_base::words::count(all.len(), "CRD")
            );
            for c in all {
                out.push_str(&format!("\n  - {}", one(c)));
            }
            out
        }
    }
}

impl olm_release_base::Classified for RenderedBundleError {
    fn class(&self) -> olm_release_base::Class {
        olm_release_base::Class::Input
    }
}
