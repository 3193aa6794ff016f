//! Shell completions that complete: the bash script is sourced in bash and its completion
//! function called as bash calls it on <TAB>; the zsh and fish scripts are syntax-checked by
//! zsh and fish (scripts/peers/shells.sh installs them), and fish also completes for real.

use std::path::Path;
use std::process::Command;

use crate::support::{assert_code, olm_release, peer, stdout};

fn script(shell: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = olm_release(dir.path(), &["completions", shell], &[]);
    assert_code(&out, 0);
    stdout(&out)
}

/// What bash offers for `words` (the last one is the word under the cursor), in `cwd`.
fn bash_complete(script_file: &Path, cwd: &Path, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words
        .iter()
        .map(|w| format!("'{}'", w.replace('\'', r"'\''")))
        .collect();
    let harness = format!(
        r#"source '{script}'
spec=$(complete -p olm-release) || exit 3
func=$(printf '%s\n' "$spec" | sed -n 's/.* -F \([^ ]*\) .*/\1/p')
COMP_WORDS=({words})
COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
COMP_LINE="${{COMP_WORDS[*]}}"
COMP_POINT=${{#COMP_LINE}}
COMPREPLY=()
"$func" olm-release "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\n' "${{COMPREPLY[@]}}"
"#,
        script = script_file.display(),
        words = quoted.join(" ")
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(harness)
        .current_dir(cwd)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "bash: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completes_nested_subcommands_options_and_their_values() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("olm-release.bash");
    std::fs::write(&file, script("bash")).unwrap();
    std::fs::create_dir(dir.path().join("pipelines")).unwrap();
    std::fs::write(dir.path().join("pipelines/sample.yaml"), "").unwrap();
    let c = |words: &[&str]| bash_complete(&file, dir.path(), words);

    // olm-release registry <TAB>: the nested subcommands (clap_complete 4.6 offered nothing).
    assert_eq!(
        c(&["olm-release", "registry", ""]),
        ["list", "show", "pull", "channels", "delete", "help"]
    );
    assert_eq!(c(&["olm-release", "registry", "p"]), ["pull"]);
    // run --<TAB>: its own options and the global ones.
    let run = c(&["olm-release", "run", "--"]);
    for opt in [
        "--dry-run",
        "--var",
        "--source",
        "--force",
        "--format",
        "--quiet",
    ] {
        assert!(run.contains(&opt.to_string()), "{opt} in {run:?}");
    }
    assert!(!run.contains(&"--profile".to_string()), "{run:?}");
    // verify --profile <TAB>, also as --profile=<TAB> and after a global option.
    assert_eq!(
        c(&["olm-release", "verify", "--profile", ""]),
        ["appregistry-2019", "modern", "olm-v1"]
    );
    assert_eq!(
        c(&["olm-release", "verify", "--profile", "=", ""]),
        ["appregistry-2019", "modern", "olm-v1"]
    );
    assert_eq!(
        c(&["olm-release", "-v", "verify", "--profile", "m"]),
        ["modern"]
    );
    // Three levels down, after an option's value: the state is still found.
    let show = c(&[
        "olm-release",
        "registry",
        "show",
        "--registry",
        "dir:x",
        "--",
    ]);
    assert!(show.contains(&"--insecure".to_string()), "{show:?}");
    assert!(show.contains(&"--timeout".to_string()), "{show:?}");
    assert_eq!(
        c(&["olm-release", "--format", "j"]),
        ["json"],
        "a global option's values"
    );
    assert_eq!(
        c(&["olm-release", "completions", ""]),
        ["bash", "elvish", "fish", "powershell", "zsh"]
    );
    // Paths complete as files; free text (a build number) offers nothing.
    assert_eq!(
        c(&["olm-release", "run", "pipelines/s"]),
        ["pipelines/sample.yaml"]
    );
    assert!(c(&["olm-release", "next-version", "--build", ""]).is_empty());
    assert!(c(&["olm-release", "init", "--"]).contains(&"--force".to_string()));
}

#[test]
fn zsh_and_fish_scripts_parse_and_fish_completes_nested_subcommands() {
    let dir = tempfile::tempdir().unwrap();
    if let Some(zsh) = peer("OLM_RELEASE_ZSH") {
        let file = dir.path().join("_olm-release");
        let text = script("zsh");
        assert!(text.starts_with("#compdef olm-release"), "{text:.80}");
        std::fs::write(&file, text).unwrap();
        let out = Command::new(zsh).arg("-n").arg(&file).output().unwrap();
        assert!(
            out.status.success(),
            "zsh -n: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    if let Some(fish) = peer("OLM_RELEASE_FISH") {
        let file = dir.path().join("olm-release.fish");
        std::fs::write(&file, script("fish")).unwrap();
        let out = Command::new(&fish)
            .arg("--no-execute")
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "fish -n: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // The binary on PATH, the script sourced, then what fish offers for a command line.
        let bin = Path::new(env!("CARGO_BIN_EXE_olm-release"));
        let path = format!(
            "{}:{}",
            bin.parent().unwrap().display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let out = Command::new(&fish)
            .arg("--no-config")
            .arg("-c")
            .arg(format!(
                "source '{}'; complete -C'olm-release registry '; echo ---; complete -C'olm-release verify --profile '",
                file.display()
            ))
            .env("PATH", path)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let (registry, profile) = text.split_once("---").unwrap();
        let names: Vec<&str> = registry
            .lines()
            .filter_map(|l| l.split('\t').next())
            .filter(|l| !l.is_empty())
            .collect();
        for sub in ["list", "show", "pull", "channels", "delete"] {
            assert!(names.contains(&sub), "{sub} in {names:?}");
        }
        assert!(
            profile.contains("appregistry-2019") && profile.contains("modern"),
            "{profile}"
        );
    }
}
