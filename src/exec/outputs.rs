//! What each step hands to the next, as types: render's [`Rendered`], fetch-previous's
//! [`Assembled`], package's [`Packaged`], verify's [`Verified`]. A step function takes the one
//! it needs by value or reference, so a step can never run on output that does not exist.

use std::path::PathBuf;

use olm_release_olm::archive::{Contents, Packed};
use olm_release_olm::bundle_image::BundleMetadata;
use olm_release_olm::decision::Decision;
use olm_release_olm::{Bundle, Finding, Manifest, PackageManifest};

/// What the render step produced.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The folder the files were written to.
    pub dir: PathBuf,
    /// Every rendered file, relative to `dir`.
    pub files: Vec<RenderedFile>,
    /// The bundle as rendered: the new CSV (first), its CRDs and the package file.
    pub bundle: Bundle,
    /// `metadata.name` of the new CSV.
    pub csv_name: String,
    /// The bundle folder's other objects OLM installs from a bundle (RBAC, ConfigMaps, …), as
    /// rendered and in the order read, each named by the file it came from. The verify step
    /// checks them with the bundle and the bundle image carries them; the app registry's
    /// bundle cannot.
    pub objects: Vec<Manifest>,
    /// The bundle folder's dependencies and properties files: the bundle image carries them and
    /// the catalog entry lists what they say.
    pub metadata: BundleMetadata,
    /// Problems in the inputs that rendering noticed.
    pub findings: Vec<Finding>,
}

/// One rendered file.
#[derive(Debug, Clone)]
pub struct RenderedFile {
    /// Path relative to the render folder, e.g. `bundle/sample-operator.v0.1.0.clusterserviceversion.yaml`.
    pub path: String,
    /// Whether the file is part of the bundle.
    pub in_bundle: bool,
}

/// Rendered files, without the bundle parsed from them (which later steps own).
#[derive(Debug, Clone)]
pub(crate) struct RenderedFiles {
    pub(crate) dir: PathBuf,
    pub(crate) files: Vec<RenderedFile>,
    pub(crate) csv_name: String,
    pub(crate) metadata: BundleMetadata,
    pub(crate) findings: Vec<Finding>,
}

impl Rendered {
    /// The other objects as `Kind name` (`ClusterRole widget-viewer`), for messages.
    pub(crate) fn object_names(&self) -> Vec<String> {
        self.objects.iter().map(Manifest::kind_and_name).collect()
    }

    /// The files, and the bundle with the objects released beside it on their own.
    pub(crate) fn split(self) -> (RenderedFiles, Contents) {
        (
            RenderedFiles {
                dir: self.dir,
                files: self.files,
                csv_name: self.csv_name,
                metadata: self.metadata,
                findings: self.findings,
            },
            Contents {
                bundle: self.bundle,
                objects: self.objects,
            },
        )
    }
}

/// The rendered bundle combined with what the registry already serves.
#[derive(Debug)]
pub(crate) struct Assembled {
    pub(crate) files: RenderedFiles,
    /// The new CSV first, then every CSV and CRD the previous release carried.
    pub(crate) bundle: Bundle,
    /// The bundle folder's other objects, as render read them ([`Rendered::objects`]).
    pub(crate) objects: Vec<Manifest>,
    pub(crate) decision: Decision,
    pub(crate) basis: Basis,
}

/// What fetch-previous assembled from, carried to the push so that a release that lands
/// concurrently can be taken in (`exec::converge`).
#[derive(Debug, Clone)]
pub(crate) struct Basis {
    /// The bundle as rendered, before it was combined with the previous one.
    pub(crate) rendered: Bundle,
    /// The releases the registry listed when fetch-previous read it.
    pub(crate) seen: Vec<olm_release_appregistry::ReleaseInfo>,
    /// The SemVer versions of the CSVs the assembled bundle carries (set by verify).
    pub(crate) carried: Vec<semver::Version>,
    /// What the release changes, for release notes (`release.notes: summary`): the one-screen
    /// semantic summary against the channel's published head, or the first-release text.
    pub(crate) summary: Option<String>,
}

impl Basis {
    /// Records which CSV versions `bundle` carries.
    pub(crate) fn carrying(mut self, bundle: &Bundle) -> Self {
        self.carried = bundle.csvs.iter().filter_map(|c| c.semver()).collect();
        self
    }
}

/// The packaged bundle.
#[derive(Debug)]
pub(crate) struct Packaged {
    /// What render wrote (`None` for `publish`).
    pub(crate) files: Option<RenderedFiles>,
    pub(crate) decision: Option<Decision>,
    /// What fetch-previous assembled from (`None` without fetch-previous).
    pub(crate) basis: Option<Basis>,
    /// The bundle and the other objects released with it (render's, or those beside the
    /// CSVs of the folder `publish` read): what the verify step checks, as one unit. For a
    /// folder read one CSV at a time, the CSVs are skeletons.
    pub(crate) contents: Contents,
    /// The per-CSV findings of a folder read one CSV at a time.
    pub(crate) per_csv: Option<Vec<Finding>>,
    /// The flat bundle folder written, if any.
    pub(crate) folder: Option<PathBuf>,
    /// The tarball as messages name it.
    pub(crate) shown: String,
    pub(crate) packed: Packed,
    /// A release of `publish --history`: verified as `verify TREE` checks its version folder.
    pub(crate) history: Option<HistoryRelease>,
}

/// Where a release of `publish --history` comes from, for its verification.
#[derive(Debug)]
pub(crate) struct HistoryRelease {
    pub(crate) tree: PathBuf,
    /// The version folder, relative to the tree.
    pub(crate) folder: String,
    /// The tree's first release (which answers for the package file too).
    pub(crate) first: bool,
    /// The channels whose head is in no version folder.
    pub(crate) headless: Vec<String>,
    pub(crate) limits: olm_release_olm::archive::Limits,
    /// A community package folder: the release is checked as `verify` checks its version
    /// folder, a registry+v1 bundle.
    pub(crate) community: bool,
}

/// The verified bundle: what push sends and release attaches. The CSVs are dropped: push needs
/// only the package file and the packed bytes.
#[derive(Debug)]
pub(crate) struct Verified {
    pub(crate) files: Option<RenderedFiles>,
    pub(crate) decision: Option<Decision>,
    /// What fetch-previous assembled from, with the CSV versions the bundle carries.
    pub(crate) basis: Option<Basis>,
    pub(crate) package: PackageManifest,
    pub(crate) folder: Option<PathBuf>,
    pub(crate) packed: Packed,
    /// The new CSV and the CRDs it owns, as verified (`None` for `publish`): what a bundle
    /// image holds.
    pub(crate) newest: Option<(Manifest, Vec<Manifest>)>,
    /// The other objects, as verified: the bundle image carries them beside the CSV.
    pub(crate) objects: Vec<Manifest>,
    /// The ClusterCatalog and ClusterExtension of the catalog image, as YAML (set by the
    /// catalog step when it publishes one).
    pub(crate) olm_v1_install: Option<String>,
}

/// The pushed bundle image: what the catalog lists (none when fetch-previous decided to skip).
#[derive(Debug, Clone)]
pub(crate) struct Imaged {
    /// `NAME@sha256:…`.
    pub(crate) pinned: String,
    pub(crate) csv: Manifest,
    /// Every manifest of the image besides the CSV: its CRDs and the bundle folder's other objects.
    pub(crate) objects: Vec<Manifest>,
    /// The image's dependencies and properties files.
    pub(crate) metadata: BundleMetadata,
}

/// Where the release step finds files by name: what render wrote, and the bundle folder.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct AssetSources<'a> {
    pub(crate) rendered: Option<RenderedRef<'a>>,
    pub(crate) bundle_folder: Option<&'a std::path::Path>,
    /// Fetch-previous's summary of the release ([`Basis::summary`]), for the release notes.
    pub(crate) summary: Option<&'a str>,
    /// The ClusterCatalog and ClusterExtension of the catalog image the catalog step
    /// published, as YAML (`{olm-v1}`).
    pub(crate) olm_v1: Option<&'a str>,
}

/// What render wrote, borrowed from whichever output holds it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RenderedRef<'a> {
    pub(crate) dir: &'a std::path::Path,
    pub(crate) files: &'a [RenderedFile],
    pub(crate) csv_name: &'a str,
}

impl Rendered {
    pub(crate) fn borrowed(&self) -> RenderedRef<'_> {
        RenderedRef {
            dir: &self.dir,
            files: &self.files,
            csv_name: &self.csv_name,
        }
    }
}

impl RenderedFiles {
    pub(crate) fn borrowed(&self) -> RenderedRef<'_> {
        RenderedRef {
            dir: &self.dir,
            files: &self.files,
            csv_name: &self.csv_name,
        }
    }
}
