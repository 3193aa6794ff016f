//! The `olm-release` binary: parse arguments, capture the environment once, run, map errors to
//! exit codes (0 success, 1 a stage failed, 2 the pipeline file, a variable or an argument is
//! wrong).

use clap::Parser;
use olm_release::{app, cli::Cli};

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            std::process::exit(code);
        }
    };
    let env = std::env::vars().collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("the async runtime starts");
    if let Err(e) = runtime.block_on(app::run(cli, env)) {
        eprintln!("error: {e}");
        std::process::exit(e.exit_code());
    }
}
