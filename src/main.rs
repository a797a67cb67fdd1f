//! The `ferry` command line: see `ferry help`; `ferry console` is Ferry offline.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = if args.first().map(String::as_str) == Some("console") {
        let stdin = std::io::stdin();
        ferry::console::run(
            &args[1..],
            &mut stdin.lock(),
            &mut std::io::stdout(),
            &mut std::io::stderr(),
        )
    } else {
        ferry::cli::run(&args, &mut std::io::stdout(), &mut std::io::stderr())
    };
    std::process::exit(code);
}
