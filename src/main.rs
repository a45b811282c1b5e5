//! The `takhte` command: with no arguments the app, otherwise the developer and tester CLI.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        std::process::exit(run_app(None));
    }
    // An invite link opens the app and joins its game.
    if args.len() == 1 && args[0].starts_with(takhte::net::code::LINK_PREFIX) {
        std::process::exit(run_app(Some(&args[0])));
    }
    let code = takhte::cli::run(&args, &mut std::io::stdout(), &mut std::io::stderr());
    std::process::exit(code);
}

fn run_app(link: Option<&str>) -> i32 {
    #[cfg(all(unix, not(target_os = "macos"), not(target_os = "android")))]
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        eprintln!("takhte: no display found; 'takhte screenshot' draws the app without one (see 'takhte help')");
        return 1;
    }
    let app = match takhte::ui::TakhteApp::new(None) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("takhte: cannot open a window ({e}); 'takhte screenshot' draws the app without a display");
            return 1;
        }
    };
    if let Some(link) = link {
        app.open_link(link);
    }
    match app.run() {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("takhte: {e}");
            1
        }
    }
}
