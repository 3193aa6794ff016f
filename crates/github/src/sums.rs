//! `SHA256SUMS` beside a release's assets, as `sha256sum` writes it ("HEX  NAME", or "HEX *NAME"
//! in binary mode): generated from the assets ([`generate`]), or, when a pipeline attaches a
//! file of that name, checked to list every other asset with its digest and nothing else
//! ([`check`]). Plain data: the assets are already read.

use crate::Asset;

/// The name of the checksum file.
pub const SUMS: &str = "SHA256SUMS";

/// The `SHA256SUMS` asset listing every asset of `assets`, in their order.
pub fn generate(assets: &[Asset]) -> Asset {
    let sums: String = assets
        .iter()
        .map(|a| format!("{}  {}\n", a.sha256, a.name))
        .collect();
    Asset::new(SUMS, sums.into_bytes())
}

/// Every way the given `SHA256SUMS` among `assets` (`sums`) fails to list every other asset with
/// its sha256 and nothing else; empty when it does.
pub fn check(sums: &Asset, assets: &[Asset]) -> Vec<String> {
    let text = String::from_utf8_lossy(&sums.bytes);
    let mut listed: std::collections::BTreeMap<&str, &str> = Default::default();
    let mut problems = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        // `sha256sum` writes "HEX  NAME" (text mode) or "HEX *NAME" (binary mode).
        match line.split_once(' ') {
            Some((hex, rest)) if hex.len() == 64 => {
                let name = rest.strip_prefix(' ').or_else(|| rest.strip_prefix('*'));
                match name {
                    Some(n) => {
                        listed.insert(n, hex);
                    }
                    None => problems.push(format!("line {}: not 'SHA256  NAME'", i + 1)),
                }
            }
            _ => problems.push(format!("line {}: not 'SHA256  NAME'", i + 1)),
        }
    }
    for a in assets.iter().filter(|a| a.name != SUMS) {
        match listed.remove(a.name.as_str()) {
            None => problems.push(format!("{} is not listed", a.name)),
            Some(hex) if !hex.eq_ignore_ascii_case(&a.sha256) => problems.push(format!(
                "{} is listed with sha256 {hex}, but its sha256 is {}",
                a.name, a.sha256
            )),
            Some(_) => {}
        }
    }
    for name in listed.keys() {
        problems.push(format!("{name} is listed, but is not among the assets"));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_sums_pass_the_check() {
        let assets = vec![
            Asset::new("a.yaml", b"a".to_vec()),
            Asset::new("b.yaml", b"b".to_vec()),
        ];
        let sums = generate(&assets);
        let text = String::from_utf8(sums.bytes.clone()).unwrap();
        assert_eq!(text.lines().count(), 2);
        assert!(text.starts_with(&format!("{}  a.yaml\n", assets[0].sha256)));
        assert!(check(&sums, &assets).is_empty());
    }

    #[test]
    fn every_problem_of_given_sums_is_named() {
        let assets = vec![
            Asset::new("a.yaml", b"a".to_vec()),
            Asset::new("b.yaml", b"b".to_vec()),
            Asset::new("c.yaml", b"c".to_vec()),
        ];
        let wrong = Asset::new("x", b"x".to_vec()).sha256;
        let text = format!(
            "{} *a.yaml\n{wrong}  b.yaml\n{wrong}  gone.yaml\nnot a line\n",
            assets[0].sha256.to_uppercase()
        );
        let problems = check(&Asset::new(SUMS, text.into_bytes()), &assets);
        assert_eq!(
            problems,
            [
                "line 4: not 'SHA256  NAME'".to_string(),
                format!(
                    "b.yaml is listed with sha256 {wrong}, but its sha256 is {}",
                    assets[1].sha256
                ),
                "c.yaml is not listed".to_string(),
                "gone.yaml is listed, but is not among the assets".to_string(),
            ]
        );
    }
}
