//! Secrets never leak: every command, at every verbosity and output format, in success and in
//! failure, runs with known token and password values, and none of them may appear in stdout,
//! stderr, the JSON summary, the plan, or any file the run wrote. That includes HTTP errors
//! whose bodies echo the request (its `Authorization` header, a login's password), from the
//! app registry and from GitHub, behind [`crate::fault_proxy`]. And plain `http://` URLs are
//! refused unless the host is loopback or `--insecure` is given; URLs never hold credentials.

use std::process::Output;

use crate::support::{Work, list_files, stderr, stdout};

mod echo;

pub const SECRETS: [(&str, &str); 5] = [
    ("QUAY_TOKEN", "basic c2VrcmV0LXF1YXktdG9rZW4="),
    ("QUAY_USERNAME", "robot+olm"),
    ("QUAY_PASSWORD", "SEKRET-quay-password-4711"),
    ("GITHUB_TOKEN", "ghp_SEKRETgithubtoken0000000000000000"),
    ("GH_TOKEN", "gho_SEKRETghtoken1111111111111111111"),
];

/// Fails if any secret value (other than the user name, which is not secret) appears in `text`.
#[track_caller]
pub fn assert_no_secret(what: &str, text: &str) {
    for (name, value) in SECRETS.iter().filter(|(n, _)| *n != "QUAY_USERNAME") {
        assert!(
            !text.contains(value),
            "{name}'s value leaked into {what}:\n{text}"
        );
        // Also the base64 payload of a Basic token and the bare password inside it.
        if let Some(b64) = value.strip_prefix("basic ") {
            assert!(!text.contains(b64), "{name}'s payload leaked into {what}");
        }
        // And the encodings a server may echo: JSON-escaped, URL-encoded, base64.
        use base64::Engine as _;
        let b64 = base64::engine::general_purpose::STANDARD;
        let json = serde_json::to_string(value).unwrap();
        for form in [
            json.trim_matches('"').to_string(),
            value
                .replace('+', "%2B")
                .replace(':', "%3A")
                .replace(' ', "%20"),
            b64.encode(value),
        ] {
            assert!(!text.contains(&form), "{name} leaked into {what} as {form}");
        }
    }
    // The login as Basic auth carries it: base64 of `user:password`.
    use base64::Engine as _;
    let basic = base64::engine::general_purpose::STANDARD
        .encode(format!("{}:{}", SECRETS[1].1, SECRETS[2].1));
    assert!(
        !text.contains(&basic),
        "the login leaked into {what} as Basic auth"
    );
}

/// Checks the outputs and every file under the work folder's `_out`.
#[track_caller]
pub fn check_run(work: &Work, label: &str, out: &std::process::Output) {
    assert_no_secret(&format!("{label} stdout"), &stdout(out));
    assert_no_secret(&format!("{label} stderr"), &stderr(out));
    for file in list_files(&work.path().join("_out")) {
        let bytes = std::fs::read(work.path().join("_out").join(&file)).unwrap();
        assert_no_secret(
            &format!("{label}: _out/{file}"),
            &String::from_utf8_lossy(&bytes),
        );
    }
}

const VERBOSITY: [&[&str]; 5] = [&["-q"], &[], &["-v"], &["-vv"], &["--format", "json", "-v"]];

#[test]
fn no_command_prints_a_secret_in_success_or_failure() {
    let work = Work::sample();
    let env: Vec<(&str, &str)> = SECRETS.to_vec();
    for v in VERBOSITY {
        let with = |args: &[&str]| -> Vec<String> {
            v.iter().chain(args).map(|s| s.to_string()).collect()
        };
        let cases: Vec<(&str, Vec<String>)> = vec![
            ("plan", with(&["plan", "pipelines/sample.yaml"])),
            (
                "dry-run",
                with(&["run", "pipelines/sample.yaml", "--dry-run"]),
            ),
            ("run", with(&["run", "pipelines/sample.yaml"])),
            ("rerun", with(&["run", "pipelines/sample.yaml"])),
            ("render", with(&["render", "pipelines/sample.yaml"])),
            ("verify", with(&["verify", "_out/sample-release/bundle"])),
            (
                "bad var",
                with(&["run", "pipelines/sample.yaml", "--var", "VERSION=bad"]),
            ),
            ("missing file", with(&["run", "pipelines/missing.yaml"])),
            ("verify missing", with(&["verify", "nowhere"])),
        ];
        for (label, args) in cases {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = work.run(&args, &env);
            check_run(&work, &format!("{label} {v:?}"), &out);
        }
    }
    // A failing stage: the release conflicts with what is published.
    let p = work.path().join("pipelines/sample.yaml");
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, text.replace("Namespace: sample", "Namespace: changed")).unwrap();
    for v in VERBOSITY {
        let mut args: Vec<&str> = v.to_vec();
        args.extend(["run", "pipelines/sample.yaml"]);
        let out = work.run(&args, &env);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        check_run(&work, &format!("conflict {v:?}"), &out);
    }
}

// ---------------------------------------------------------------------------------------------
// Plain http:// only to loopback, unless --insecure; never credentials in a URL.

/// Runs `plan` on the sample pipeline with its registry URL and release target replaced.
fn plan_at(work: &Work, registry: &str, github_api: Option<&str>, insecure: bool) -> Output {
    let text = std::fs::read_to_string(work.path().join("pipelines/sample.yaml")).unwrap();
    let mut text = text.replace("url: dir:_out/registry", &format!("url: {registry}"));
    if let Some(api) = github_api {
        text = text.replace(
            "target: dir:_out/release",
            &format!("target: github:acme/sample-operator\n  api_url: {api}"),
        );
    }
    std::fs::write(work.path().join("pipelines/t.yaml"), text).unwrap();
    let mut args = vec!["plan", "pipelines/t.yaml"];
    if insecure {
        args.push("--insecure");
    }
    work.run(&args, &SECRETS)
}

#[test]
fn plain_http_is_refused_unless_loopback_or_insecure_and_urls_never_hold_credentials() {
    let work = Work::sample();
    let https = "https://quay.io/cnr";
    for (url, loopback) in [
        ("http://registry.example.com/cnr", false),
        ("http://127.0.0.1.example.com/cnr", false),
        ("http://localhost.example.com/cnr", false),
        ("http://127.0.0.1:5000/cnr", true),
        ("http://127.1:5000/cnr", true),
        ("http://LOCALHOST:5000/cnr", true),
        ("http://[::1]:5000/cnr", true),
    ] {
        for (registry, api) in [(url, None), (https, Some(url))] {
            let o = plan_at(&work, registry, api, false);
            let err = stderr(&o);
            if loopback {
                assert_eq!(o.status.code(), Some(0), "{url}: {err}");
            } else {
                assert_eq!(o.status.code(), Some(2), "{url}: {err}");
                let field = if api.is_some() {
                    "api_url"
                } else {
                    "registry.url"
                };
                assert!(
                    err.contains(field) && err.contains("plain http:// on a non-loopback host"),
                    "{url}: {err}"
                );
                let o = plan_at(&work, registry, api, true);
                assert_eq!(o.status.code(), Some(0), "{url} --insecure: {}", stderr(&o));
            }
        }
    }
    // The host is what a client would connect to: userinfo that looks like loopback is not,
    // and credentials in a URL are refused even with --insecure, without printing them.
    for url in [
        "http://localhost:80@registry.example.com/cnr",
        "https://robot:SEKRET-url-password@quay.io/cnr",
    ] {
        for (registry, api) in [(url, None), (https, Some(url))] {
            for insecure in [false, true] {
                let o = plan_at(&work, registry, api, insecure);
                let err = stderr(&o);
                assert_eq!(o.status.code(), Some(2), "{url}: {err}");
                assert!(err.contains("holds credentials"), "{url}: {err}");
                assert!(!err.contains("SEKRET-url-password"), "{err}");
                check_run(&work, url, &o);
            }
        }
    }
    // The registry subcommands apply the same rule, before any request.
    let o = work.run(
        &[
            "registry",
            "list",
            "--registry",
            "http://registry.example.com/cnr",
            "ns",
        ],
        &SECRETS,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--insecure"), "{}", stderr(&o));
    let o = work.run(
        &[
            "registry",
            "list",
            "--registry",
            "https://robot:SEKRET-url-password@quay.io/cnr",
            "ns",
        ],
        &SECRETS,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        !stderr(&o).contains("SEKRET-url-password"),
        "{}",
        stderr(&o)
    );
}
