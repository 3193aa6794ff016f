//! The CI configurations `init` writes for an operator repository: `.travis.yml` and a GitHub
//! Actions workflow. Both install olm-release with its installer, pinned as the request's
//! [`InstallerPin`] says (a version, the installer checked against its sha256), fetch the whole history
//! and the tags (`olm-release next-version` reads the last release tag), dry-run the release
//! on every build and pull request (no secrets needed), publish alpha builds from the default
//! branch (`--variant alpha`) and release tags, and pass each job exactly the secrets its
//! targets need: the image registry's for the bundle image, GitHub's for the catalog branch and
//! the release (with `contents: write`, which GitHub Actions grants only when asked), Quay's only when the
//! pipeline also publishes to an app registry.

use super::choices::Choices;
use super::pipeline_file::PATH;
use super::request::InstallerPin;
use super::scan::MARK;

/// The secrets a publishing job needs, as environment variable names: the image registry's,
/// the app registry's when asked for, and GitHub's for the catalog branch both jobs push (and
/// the release, for a tag).
fn secrets(c: &Choices) -> Vec<&'static str> {
    let mut out = vec!["OCI_USERNAME", "OCI_PASSWORD"];
    if c.app_registry {
        out.extend(["QUAY_USERNAME", "QUAY_PASSWORD", "QUAY_TOKEN"]);
    }
    out.push("GITHUB_TOKEN");
    out
}

fn secrets_sentence(c: &Choices) -> String {
    let registry = if c.app_registry {
        ", QUAY_USERNAME and QUAY_PASSWORD (or QUAY_TOKEN) for the app registry"
    } else {
        ""
    };
    format!("OCI_USERNAME and OCI_PASSWORD for the bundle image{registry}")
}

/// `.travis.yml`.
pub(crate) fn travis(c: &Choices, installer: &InstallerPin) -> String {
    let InstallerPin {
        version,
        url,
        sha256: sha,
    } = installer;
    let branch = &c.branch;
    let secrets = secrets_sentence(c);
    format!(
        r#"{MARK}: olm-release for {pkg}.
# - every build, pull requests included: a dry-run of the release (renders, reads the channel
#   head, packages, verifies, lists every write it would make; no secrets);
# - {branch}: the alpha variant publishes X.(Y+1).0-alpha.<build number>;
# - tags vX.Y.Z: the release publishes X.Y.Z and attaches the CSV to the GitHub release.
# Set in the repository settings: {secrets}, GITHUB_TOKEN (a token that may write releases
# and push the olm-catalog branch, where the catalog is kept).
# Build and push the operator's images before the deploy steps if this file is your only one.
language: minimal
dist: jammy
git:
  depth: false          # next-version reads the last release tag: the whole history and the tags
env:
  global:
    - OLM_RELEASE_VERSION={version}
before_install:
  - curl -fsSL -o /tmp/olm-release-install.sh {url}
  - echo "{sha}  /tmp/olm-release-install.sh" | sha256sum -c -
  - sh /tmp/olm-release-install.sh --version "$OLM_RELEASE_VERSION" --to "$HOME/.local/bin"
  - export PATH="$HOME/.local/bin:$PATH"
script:
  # A tag's own version, else the alpha version this commit gets on {branch}.
  - export VERSION="${{TRAVIS_TAG#v}}"
  - '[ -n "$VERSION" ] || export VERSION="$(olm-release next-version --build "$TRAVIS_BUILD_NUMBER")"'
  - olm-release run {PATH} --dry-run
deploy:
  - provider: script
    script: olm-release run {PATH}
    skip_cleanup: true
    on:
      tags: true
  - provider: script
    script: olm-release run {PATH} --variant alpha
    skip_cleanup: true
    on:
      branch: {branch}
"#,
        pkg = c.package,
    )
}

/// `.github/workflows/olm-release.yml`.
pub(crate) fn github(c: &Choices, installer: &InstallerPin) -> String {
    let InstallerPin {
        version,
        url,
        sha256: sha,
    } = installer;
    let branch = &c.branch;
    let env = || -> String {
        secrets(c)
            .into_iter()
            .map(|s| format!("          {s}: ${{{{ secrets.{s} }}}}\n"))
            .collect()
    };
    let secrets = secrets_sentence(c);
    format!(
        r#"{MARK}: olm-release for {pkg}.
# - every push and pull request: a dry-run of the release (no secrets needed);
# - {branch}: the alpha variant publishes X.(Y+1).0-alpha.<run number>;
# - tags vX.Y.Z: the release publishes X.Y.Z and attaches the CSV to the GitHub release.
# Set the repository secrets {secrets}; GITHUB_TOKEN is GitHub's own.
name: olm-release
on:
  push:
    branches: [{branch}]
    tags: ["v*"]
  pull_request:
permissions:
  contents: write       # the catalog stage pushes the olm-catalog branch; the release stage
                        # creates the tag's release and uploads its assets
jobs:
  olm-release:
    runs-on: ubuntu-latest
    env:
      OLM_RELEASE_VERSION: "{version}"
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0  # next-version reads the last release tag: the whole history and the tags
      - name: Install olm-release
        run: |
          curl -fsSL -o "$RUNNER_TEMP/olm-release-install.sh" {url}
          echo "{sha}  $RUNNER_TEMP/olm-release-install.sh" | sha256sum -c -
          sh "$RUNNER_TEMP/olm-release-install.sh" --version "$OLM_RELEASE_VERSION" --to "$HOME/.local/bin"
          echo "$HOME/.local/bin" >> "$GITHUB_PATH"
      - name: Version
        run: |
          if [ "$GITHUB_REF_TYPE" = tag ]; then VERSION="${{GITHUB_REF_NAME#v}}"
          else VERSION="$(olm-release next-version --build "$GITHUB_RUN_NUMBER")"; fi
          echo "VERSION=$VERSION" >> "$GITHUB_ENV"
      - name: Dry-run of the release
        run: olm-release run {PATH} --dry-run
      - name: Alpha build
        if: github.event_name == 'push' && github.ref == 'refs/heads/{branch}'
        env:
{alpha_env}        run: olm-release run {PATH} --variant alpha
      - name: Release
        if: github.event_name == 'push' && startsWith(github.ref, 'refs/tags/v')
        env:
{release_env}        run: olm-release run {PATH}
"#,
        pkg = c.package,
        alpha_env = env(),
        release_env = env(),
    )
}

/// The GitLab CI/CD job file ([`super::ci_used::GITLAB_FILE`]), which the project's
/// `.gitlab-ci.yml` includes: the same jobs as GitHub's, in GitLab's terms (`rules:` on
/// `$CI_COMMIT_TAG` and `$CI_DEFAULT_BRANCH`, `GIT_DEPTH: "0"` for the whole history,
/// `$CI_PIPELINE_IID` as the build number), the secrets as masked CI/CD variables.
pub(crate) fn gitlab(c: &Choices, installer: &InstallerPin) -> String {
    let InstallerPin {
        version,
        url,
        sha256: sha,
    } = installer;
    let secrets = secrets_sentence(c);
    format!(
        r#"{MARK}: olm-release for {pkg}.
# Include it from .gitlab-ci.yml:  include: [{{local: {file}}}]
# - every pipeline, merge requests included: a dry-run of the release (no secrets needed);
# - the default branch: the alpha variant publishes X.(Y+1).0-alpha.<pipeline number>;
# - tags vX.Y.Z: the release publishes X.Y.Z and attaches the CSV to the GitHub release.
# Set masked CI/CD variables: {secrets}, GITHUB_TOKEN (a token that may write releases and
# push the olm-catalog branch, where the catalog is kept).
.olm-release:
  image: buildpack-deps:bookworm-scm   # sh, curl, git, tar, sha256sum
  variables:
    OLM_RELEASE_VERSION: "{version}"
    GIT_DEPTH: "0"        # next-version reads the last release tag: the whole history and the tags
  before_script:
    - curl -fsSL -o /tmp/olm-release-install.sh {url}
    - echo "{sha}  /tmp/olm-release-install.sh" | sha256sum -c -
    - sh /tmp/olm-release-install.sh --version "$OLM_RELEASE_VERSION" --to "$HOME/.local/bin"
    - export PATH="$HOME/.local/bin:$PATH"
    - export VERSION="${{CI_COMMIT_TAG#v}}"
    - '[ -n "$VERSION" ] || export VERSION="$(olm-release next-version --build "$CI_PIPELINE_IID")"'
olm-release-dry-run:
  extends: .olm-release
  script:
    - olm-release run {PATH} --dry-run
olm-release-alpha:
  extends: .olm-release
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && $CI_PIPELINE_SOURCE == "push"
  script:
    - olm-release run {PATH} --variant alpha
olm-release:
  extends: .olm-release
  rules:
    - if: $CI_COMMIT_TAG =~ /^v/
  script:
    - olm-release run {PATH}
"#,
        pkg = c.package,
        file = super::ci_used::GITLAB_FILE,
    )
}
