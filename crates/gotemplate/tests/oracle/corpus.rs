//! The differential corpus in `tests/corpus`: reading it (the same format the Go
//! oracle reads, see the corpus README) and rendering each case with this engine.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use olm_release_gotemplate::{self as template, Data, Functions, Value};
use serde_yaml_ng::{Mapping, Value as Yaml};

pub struct Case {
    pub file: String,
    pub name: String,
    pub sprig: bool,
    pub data: Mapping,
    pub dot: Option<Yaml>,
    pub includes: BTreeMap<String, BTreeMap<String, String>>,
    /// Why this case differs from Go on purpose.
    pub deviation: Option<String>,
    pub text: String,
}

pub fn dir() -> PathBuf {
    crate::root().join("tests/corpus")
}

fn yaml(text: &str, what: &str) -> Yaml {
    serde_yaml_ng::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// Every case of every `*.txt` file, in file order.
pub fn load() -> Vec<Case> {
    let base = match yaml(
        &std::fs::read_to_string(dir().join("data.yaml")).unwrap(),
        "data.yaml",
    ) {
        Yaml::Mapping(m) => m,
        other => panic!("data.yaml is not a mapping: {other:?}"),
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files.iter().flat_map(|f| parse_file(f, &base)).collect()
}

fn parse_file(path: &Path, base: &Mapping) -> Vec<Case> {
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).unwrap();
    let mut cases: Vec<Case> = Vec::new();
    let mut lines: Vec<&str> = Vec::new();
    let mut in_header = false;
    let finish = |cases: &mut Vec<Case>, lines: &mut Vec<&str>| {
        if let Some(c) = cases.last_mut() {
            c.text = lines.join("\n");
        }
        lines.clear();
    };
    for line in text.split('\n') {
        if let Some(name) = line.strip_prefix("=== ") {
            finish(&mut cases, &mut lines);
            cases.push(Case {
                file: file.clone(),
                name: name.trim().to_string(),
                sprig: file.starts_with("sprig"),
                data: base.clone(),
                dot: None,
                includes: BTreeMap::new(),
                deviation: None,
                text: String::new(),
            });
            in_header = true;
            continue;
        }
        let Some(case) = cases.last_mut() else {
            continue;
        };
        if in_header && let Some(directive) = line.strip_prefix("--- ") {
            let (key, value) = directive.split_once(':').unwrap_or((directive, ""));
            let value = value.trim();
            match key.trim() {
                "sprig" => case.sprig = true,
                "data" => {
                    let Yaml::Mapping(m) = yaml(value, &case.name) else {
                        panic!("{}: data must be a mapping", case.name)
                    };
                    for (k, v) in m {
                        case.data.insert(k, v);
                    }
                }
                "dot" => case.dot = Some(yaml(value, &case.name)),
                "include" => case.includes = serde_yaml_ng::from_str(value).unwrap(),
                "deviation" => case.deviation = Some(value.to_string()),
                other => panic!("{file}: {}: unknown directive {other:?}", case.name),
            }
            continue;
        }
        in_header = false;
        lines.push(line);
    }
    // The file's final newline ends the last template's last line, as Go's scanner reads it.
    if lines.last() == Some(&"") {
        lines.pop();
    }
    finish(&mut cases, &mut lines);
    cases
}

/// Renders a case with this engine: the output, or the error message.
pub fn render(case: &Case) -> Result<String, String> {
    let mut data = Data {
        functions: if case.sprig {
            Functions::Sprig
        } else {
            Functions::Go
        },
        ..Data::default()
    };
    for (k, v) in &case.data {
        data.vars
            .insert(k.as_str().unwrap().to_string(), Value::from_yaml(v));
    }
    let tmp = tempfile::tempdir().unwrap();
    for (var, files) in &case.includes {
        let d = tmp.path().join(var);
        std::fs::create_dir_all(&d).unwrap();
        for (name, content) in files {
            std::fs::write(d.join(name), content).unwrap();
        }
        data.vars.insert(var.clone(), Value::Files(d));
    }
    let result = match &case.dot {
        Some(dot) => template::render_dot(&case.name, &case.text, &data, &Value::from_yaml(dot)),
        None => template::render(&case.name, &case.text, &data),
    };
    result.map_err(|e| e.to_string())
}
