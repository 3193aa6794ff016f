//! `alm-examples` (or `olm.examples`, which only operator-framework/api reads): valid JSON
//! (courier); a list of CRs whose group/version/kind the CSV provides (operator-framework/api);
//! an example for every provided API (a warning); never an empty string (courier parses it as
//! JSON).

use serde_yaml_ng::Value;

use super::rules;
use super::rules::Tool;
use super::sink::{At, Sink};
use crate::{Manifest, value_at};

/// The APIs a CSV provides: its owned CRDs and API services, as (group, version, kind).
fn provided(csv: &Manifest) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = super::crd::owned(csv)
        .iter()
        .filter_map(|o| {
            let get = |k: &str| o.get(k).and_then(Value::as_str);
            let group = get("name")?.split_once('.')?.1;
            Some((group.into(), get("version")?.into(), get("kind")?.into()))
        })
        .collect();
    if let Some(services) =
        value_at(&csv.doc, "spec.apiservicedefinitions.owned").and_then(Value::as_sequence)
    {
        for s in services {
            let get = |k: &str| s.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            out.push((get("group"), get("version"), get("kind")));
        }
    }
    out
}

/// `alm-examples`: JSON (courier); a list of CRs of APIs the CSV provides (api); an example for
/// every provided API (a warning).
pub fn check(csv: &Manifest, value: Option<&Value>, key: &str, at: &At, sink: &mut Sink) {
    let field = &format!("metadata.annotations.{key}");
    // courier parses alm-examples only.
    let except: &[Tool] = if key == "alm-examples" {
        &[]
    } else {
        &[Tool::Courier]
    };
    let provided = provided(csv);
    let coverage = |sink: &mut Sink, covered: &[bool]| {
        for (o, _) in provided.iter().zip(covered).filter(|(_, c)| !**c) {
            let msg = format!(
                "has no example of provided API {} (provided API should have an example annotation)",
                super::crd::gvk_text(&o.0, &o.1, &o.2)
            );
            sink.add(&rules::ALM_EXAMPLES_COVERAGE, at, field, msg);
        }
    };
    let Some(value) = value else {
        if !provided.is_empty() {
            let msg = "is missing; users get no example CR (example annotations not found)";
            sink.add(&rules::ALM_EXAMPLES_COVERAGE, at, field, msg);
        }
        return;
    };
    let Some(text) = value.as_str() else {
        // A YAML list or mapping: courier's json.loads fails on it, and api cannot decode the
        // annotations (a map of strings).
        let msg = format!(
            "is {}, not a string holding JSON (courier's json.loads fails on it, and the annotations are a map of strings)",
            super::csv::type_name(value)
        );
        let fix = format!("write the examples as one string: {key}: |- followed by the JSON array");
        return sink.add_except_fix(&rules::ALM_EXAMPLES, except, at, field, msg, fix);
    };
    if text.trim().is_empty() {
        let msg = "is empty; courier parses it as JSON and fails, newer tools see no example";
        sink.add_except(&rules::ALM_EXAMPLES_EMPTY, except, at, field, msg);
        return coverage(sink, &vec![false; provided.len()]);
    }
    let parsed: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let msg = format!("is not valid JSON: invalid example (JSON parse error): {e}");
            return sink.add_except(&rules::ALM_EXAMPLES, except, at, field, msg);
        }
    };
    let Some(items) = parsed.as_array() else {
        let msg = "is valid JSON but not a list of CRs (error decoding example CustomResource)";
        return sink.add(&rules::ALM_EXAMPLES_KIND, at, field, msg);
    };
    let mut covered = vec![false; provided.len()];
    for (i, ex) in items.iter().enumerate() {
        let api = ex.get("apiVersion").and_then(|v| v.as_str()).unwrap_or("");
        let kind = ex.get("kind").and_then(|v| v.as_str()).unwrap_or("");
        let (group, version) = api.split_once('/').unwrap_or(("", api));
        match provided
            .iter()
            .position(|o| (o.0.as_str(), o.1.as_str(), o.2.as_str()) == (group, version, kind))
        {
            Some(j) => covered[j] = true,
            None => {
                let msg = format!(
                    "example {i} is a {kind} of {api}, which the CSV does not provide (example must have a provided API)"
                );
                sink.add(&rules::ALM_EXAMPLES_KIND, at, field, msg);
            }
        }
    }
    coverage(sink, &covered);
}
