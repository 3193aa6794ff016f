//! `olm-release verify PATH`: validate a bundle folder, a flattened bundle.yaml or a .tar.gz with
//! the same code the verify stage runs.

use crate::cli::VerifyArgs;
use crate::error::{Error, Result};
use crate::olm::{Level, archive, validate};

/// `verify PATH`: findings on stdout (text or JSON); an error finding fails.
pub fn run(args: &VerifyArgs, json: bool) -> Result<()> {
    let bundle = archive::read_path(&args.path).map_err(Error::input)?;
    let findings = validate::validate(&bundle, args.profile);
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&findings).expect("findings serialise")
        );
    } else {
        for f in &findings {
            println!("{f}");
        }
    }
    let errors = findings.iter().filter(|f| f.level == Level::Error).count();
    if errors > 0 {
        return Err(Error::stage(format!(
            "{}: {errors} error(s)",
            args.path.display()
        )));
    }
    if !json {
        println!(
            "{}: valid ({} warning(s))",
            args.path.display(),
            findings.len()
        );
    }
    Ok(())
}
