//! The `takhte` command: the app once it exists; for now the developer and tester CLI.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = takhte::cli::run(&args, &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}
