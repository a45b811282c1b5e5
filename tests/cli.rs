//! The command line as a user runs it: output, exit status and one-line errors.

use std::process::{Command, Output};

fn takhte(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_takhte"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn assert_usage_error(args: &[&str], mentions: &str) {
    let o = takhte(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err.lines().count(),
        1,
        "one line on stderr for {args:?}: {err}"
    );
    assert!(
        err.contains(mentions),
        "{args:?}: '{err}' should mention '{mentions}'"
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn help_lists_the_commands() {
    let o = takhte(&["help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("takhte perft GAME DEPTH"));
    assert!(stdout(&o).contains("takhte screenshot"));
}

#[test]
fn without_a_display_the_app_says_so_in_one_line() {
    let o = Command::new(env!("CARGO_BIN_EXE_takhte"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("no display") && err.contains("takhte screenshot"),
        "{err}"
    );
}

#[test]
fn perft_prints_the_leaf_count() {
    let o = takhte(&["perft", "chess", "3"]);
    assert_eq!(stdout(&o), "8902\n");
    let o = takhte(&[
        "perft",
        "chess",
        "2",
        "--position",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ]);
    assert_eq!(stdout(&o), "191\n");
    let o = takhte(&[
        "perft",
        "mine-chess",
        "1",
        "--position",
        "7k/8/8/8/8/8/8/8/4P3/K7 w - e4 -",
    ]);
    assert_eq!(stdout(&o), "6\n");
}

#[test]
fn moves_are_sorted_machine_notation() {
    let o = takhte(&[
        "moves",
        "chess",
        "--position",
        "4k3/8/8/8/8/8/8/r3K2R w - - 0 1",
    ]);
    assert_eq!(stdout(&o), "e1d2\ne1e2\ne1f2\n");
    let o = takhte(&[
        "moves",
        "mine-chess",
        "--position",
        "4k3/8/8/8/8/8/8/4P3/8/4K3 w - d5 -",
    ]);
    assert_eq!(stdout(&o), "e1d1\ne1d2\ne1e2\ne1f1\ne1f2\ne3^\ne3e4\n");
}

#[test]
fn play_prints_position_and_outcome() {
    let o = takhte(&["play", "chess", "f2f3", "e7e5", "g2g4", "d8h4"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\nblack-wins checkmate\n"
    );
    let o = takhte(&["play", "chess"]);
    assert_eq!(
        stdout(&o),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nongoing\n"
    );
    // The seed lays the mines: the same seed gives the same game.
    let a = stdout(&takhte(&["play", "mine-chess", "--seed", "42", "e2e4"]));
    let b = stdout(&takhte(&["play", "mine-chess", "--seed", "42", "e2e4"]));
    assert_eq!(a, b);
    assert!(a.ends_with("ongoing\n") || a.contains("wins") || a.contains("draw"));
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    assert_usage_error(&["perft", "go", "3"], "unknown game 'go'");
    assert_usage_error(&["perft", "chess"], "DEPTH");
    assert_usage_error(&["perft", "chess", "x"], "depth 'x'");
    assert_usage_error(
        &["perft", "chess", "2", "--position", "8/8 w"],
        "invalid position",
    );
    assert_usage_error(
        &["moves", "chess", "--die", "3"],
        "--die is only for dice-chess",
    );
    assert_usage_error(&["moves", "dice-chess", "--die", "7"], "--die '7'");
    assert_usage_error(&["play", "chess", "e2e4", "e2e4"], "move 2 'e2e4'");
    assert_usage_error(&["play", "chess", "--seed"], "--seed needs a value");
    assert_usage_error(
        &["play", "chess", "--bogus", "1"],
        "unknown option '--bogus'",
    );
    assert_usage_error(&["frobnicate"], "unknown command");
    assert_usage_error(
        &["screenshot", "--scene", "nowhere", "--out", "/tmp/x.png"],
        "unknown scene",
    );
    assert_usage_error(
        &[
            "screenshot",
            "--scene",
            "home",
            "--size",
            "10x10",
            "--out",
            "/tmp/x.png",
        ],
        "--size",
    );
    assert_usage_error(
        &["autoplay", "chess", "--plies", "1", "--seed", "1", "bogus"],
        "unexpected argument",
    );
    assert_usage_error(
        &[
            "play",
            "mine-chess",
            "--position",
            "8/8/8/8/8/8/8/8/8/8 w - - -",
        ],
        "kings",
    );
}

/// `takhte online-bot --help` prints its options (with quick pairing) and succeeds.
#[test]
fn online_bot_help() {
    for flag in ["--help", "-h"] {
        let o = takhte(&["online-bot", flag]);
        assert_eq!(o.status.code(), Some(0), "{flag}");
        let out = stdout(&o);
        assert!(out.contains("--seek GAME:M+S"), "{out}");
        assert!(out.contains("--server ADDR"), "{out}");
        assert!(out.contains("GAME is chess"), "{out}");
    }
    assert_usage_error(&["online-bot", "--seek", "chess"], "--seek 'chess'");
    assert_usage_error(&["online-bot", "--seek", "go:3+2"], "--seek 'go:3+2'");
}

fn spawn_server(dir: &std::path::Path) -> String {
    takhte_server::spawn_server(
        "127.0.0.1:0",
        &dir.join("server.sqlite"),
        takhte_server::hub::Config::default(),
    )
    .unwrap()
}

/// Two bots enter the same quick pairing pool, are paired and play their game to the end.
#[test]
fn online_bots_meet_in_quick_pairing() {
    let dir = tempfile::tempdir().unwrap();
    let addr = spawn_server(dir.path());
    let bot = |name: &str| {
        Command::new(env!("CARGO_BIN_EXE_takhte"))
            .args([
                "online-bot",
                "--server",
                &addr,
                "--seek",
                "draughts:5+3",
                "--level",
                "1",
                "--movetime",
                "20",
                "--name",
                name,
            ])
            .output()
            .expect("the bot runs")
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| bot("A"));
        let b = s.spawn(|| bot("B"));
        (a.join().unwrap(), b.join().unwrap())
    });
    for o in [&a, &b] {
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let (out_a, out_b) = (stdout(&a), stdout(&b));
    let code = |out: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix("code ").map(str::to_string))
            .unwrap_or_default()
    };
    assert!(!code(&out_a).is_empty(), "{out_a}");
    assert_eq!(code(&out_a), code(&out_b), "paired into one game");
    let last = |out: &str| out.lines().last().unwrap_or_default().to_string();
    assert_eq!(last(&out_a), last(&out_b), "both saw the same end");
    assert!(!last(&out_a).starts_with("unfinished"), "{out_a}");
}

/// A refused encrypted connection is said in the app's words, not as a debug name.
#[test]
fn online_bot_says_why_an_encrypted_connection_failed() {
    let dir = tempfile::tempdir().unwrap();
    let addr = spawn_server(dir.path());
    let o = takhte(&[
        "online-bot",
        "--server",
        &format!("wss://{addr}"),
        "--create",
        "chess",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("does not speak the encrypted protocol"),
        "{err}"
    );
    assert!(!err.contains("Tls("), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}
