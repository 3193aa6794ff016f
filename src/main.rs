//! The `olm-release` binary: everything is in [`olm_release::app::main`], which parses the
//! arguments, captures the environment once, runs the command and maps its error to the exit
//! code (0 success, 1 a stage failed or a server refused, 2 the input is wrong, 70 a bug).

fn main() {
    std::process::exit(olm_release::app::main());
}
