//! The `ferry` command line: see `ferry --help` and `crate::cli`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    ferry::console::terminal::reads_standard_input();
    let code = ferry::cli::run(&args, &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}
