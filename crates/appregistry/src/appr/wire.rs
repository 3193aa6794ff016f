//! The JSON shapes of the CNR API (appr's `appr/api/` routes), as both servers send them.
//!
//! Only the fields the client reads are declared; unknown fields are ignored (Quay and appr
//! differ in extras such as `namespace`, `updated_at` or a top-level manifest `digest`). Missing
//! required fields fail deserialisation, which the transport turns into an error naming the URL.
//! Values are checked after parsing (`Manifest::check`): a digest must be 64 lowercase hex
//! characters before it is ever put into a URL or compared.

use serde::{Deserialize, Serialize};

/// A release manifest: one `(release, media type)` of a package.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
pub struct Manifest {
    /// `ns/pkg`.
    pub(crate) package: String,
    /// The release (strict SemVer).
    pub release: String,
    #[serde(rename = "mediaType", default)]
    /// The manifest's media type.
    pub(crate) media_type: Option<String>,
    /// The blob.
    pub(crate) content: Content,
    #[serde(default)]
    /// When it was pushed, as the server says.
    pub(crate) created_at: Option<String>,
    /// Show-package only: names of the app-registry channels whose head is this release.
    #[serde(default, deserialize_with = "channel_names")]
    pub channels: Vec<String>,
}

/// The blob a manifest points at.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
pub(crate) struct Content {
    /// Hex sha256 of the uncompressed tar, without a `sha256:` prefix.
    pub(crate) digest: String,
    /// Size of the compressed blob in bytes.
    pub(crate) size: u64,
    #[serde(rename = "mediaType", default)]
    /// The blob's media type.
    pub(crate) media_type: Option<String>,
}

impl Manifest {
    /// Whether this manifest is the `helm` media type (appr says `vnd.appr.…helm…`, Quay
    /// `vnd.cnr.…helm…`).
    pub(crate) fn is_helm(&self) -> bool {
        let helm = |m: &Option<String>| m.as_deref().is_some_and(|m| m.contains(".helm."));
        helm(&self.media_type) || helm(&self.content.media_type)
    }

    /// Refuses values that are not what the API promises.
    pub(crate) fn check(&self) -> Result<(), String> {
        check_digest(&self.content.digest).map_err(|e| format!("release '{}': {e}", self.release))
    }
}

/// Checks a digest is 64 lowercase hex characters.
pub(crate) fn check_digest(d: &str) -> Result<(), String> {
    if d.len() == 64 && d.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        Ok(())
    } else {
        Err(format!(
            "content.digest '{}' is not a hex sha256",
            d.chars().take(80).collect::<String>()
        ))
    }
}

/// `channels` is a list of names (appr) or of objects with a `name` (some Quay answers), or
/// null.
fn channel_names<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let v = Option::<Vec<serde_json::Value>>::deserialize(d)?;
    Ok(v.unwrap_or_default()
        .into_iter()
        .filter_map(|c| match c {
            serde_json::Value::String(s) => Some(s),
            serde_json::Value::Object(o) => o.get("name")?.as_str().map(str::to_string),
            _ => None,
        })
        .collect())
}

/// One item of `GET /api/v1/packages?namespace=`.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
pub(crate) struct ListItem {
    /// `ns/pkg`.
    pub(crate) name: String,
    #[serde(default)]
    pub(crate) default: Option<String>,
    #[serde(default)]
    pub(crate) releases: Vec<String>,
    #[serde(default)]
    pub(crate) manifests: Vec<String>,
    #[serde(default)]
    pub(crate) visibility: Option<String>,
}

/// An app-registry channel (not an OLM channel: OLM reads channels from the package file).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
pub struct Channel {
    /// The channel name.
    pub name: String,
    #[serde(default)]
    /// The release it points at.
    pub current: Option<String>,
    #[serde(default)]
    /// Every release it held.
    pub releases: Vec<String>,
}

/// The push body, as appr's `push` route reads it: `{"blob": …, "release": …, "media_type": …}`, with `blob`
/// standard base64 with padding on one line. Written straight into one buffer (the blob is
/// megabytes; a `String` for the base64 and another for the JSON would double the peak), and
/// shared, not copied, by every attempt of the request.
pub(crate) fn push_body(gz: &[u8], release: &str, media_type: &str) -> bytes::Bytes {
    use base64::Engine;
    let engine = base64::engine::general_purpose::STANDARD;
    let encoded = base64::encoded_len(gz.len(), true).unwrap_or(0);
    let mut body = Vec::with_capacity(encoded + release.len() + media_type.len() + 64);
    body.extend_from_slice(b"{\"blob\":\"");
    let start = body.len();
    body.resize(start + encoded, 0);
    let written = engine.encode_slice(gz, &mut body[start..]).unwrap_or(0);
    body.truncate(start + written);
    body.extend_from_slice(b"\",\"release\":");
    body.extend_from_slice(
        serde_json::to_string(release)
            .unwrap_or_default()
            .as_bytes(),
    );
    body.extend_from_slice(b",\"media_type\":");
    body.extend_from_slice(
        serde_json::to_string(media_type)
            .unwrap_or_default()
            .as_bytes(),
    );
    body.push(b'}');
    bytes::Bytes::from(body)
}

/// The login answer: `{"token": "basic …"}`. The token is wrapped in a `Secret` at once.
#[derive(Deserialize)]
pub(crate) struct LoginAnswer {
    pub(crate) token: String,
}

/// The login body.
#[derive(Serialize)]
pub(crate) struct LoginBody<'a> {
    pub(crate) user: LoginUser<'a>,
}

#[derive(Serialize)]
pub(crate) struct LoginUser<'a> {
    pub(crate) username: &'a str,
    pub(crate) password: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;

    #[test]
    fn reads_appr_and_quay_manifests() {
        let appr = r#"{"channels": [], "content": {"digest": "3b7a9ee9f601699c616c37f4d7d01acabf4504fd26bf79ffa679880e1fdfe95a",
          "mediaType": "application/vnd.appr.package.helm.v0.tar+gzip", "size": 161, "urls": []},
          "created_at": "2026-11-30T14:05:45.382471", "mediaType": "application/vnd.appr.package-manifest.helm.v0.json",
          "metadata": null, "package": "ns1/p1", "release": "0.1.0"}"#;
        let m: Manifest = serde_json::from_str(appr).unwrap();
        assert!(m.is_helm() && m.check().is_ok() && m.content.size == 161);
        let quay = appr.replace("vnd.appr", "vnd.cnr").replace(
            r#""channels": []"#,
            r#""channels": [{"name": "alpha"}], "digest": "x""#,
        );
        let m: Manifest = serde_json::from_str(&quay).unwrap();
        assert!(m.is_helm());
        assert_eq!(m.channels, ["alpha"]);
        let bad = appr.replace("3b7a9ee9", "../../x");
        let m: Manifest = serde_json::from_str(&bad).unwrap();
        assert!(m.check().unwrap_err().contains("not a hex sha256"));
        assert!(
            serde_json::from_str::<Manifest>(r#"{"package": "a/b", "release": "1.0.0"}"#).is_err()
        );
    }

    #[test]
    fn the_push_body_is_the_json_the_servers_parse() {
        let gz = b"\x1f\x8b some bytes \xff\x00";
        let body = super::push_body(gz, "0.1.0-rc.1", "helm");
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["release"], "0.1.0-rc.1");
        assert_eq!(v["media_type"], "helm");
        let blob = base64::engine::general_purpose::STANDARD
            .decode(v["blob"].as_str().unwrap())
            .unwrap();
        assert_eq!(blob, gz);
        assert_eq!(v.as_object().unwrap().len(), 3);
    }
}
