//! The command line: tools for developers, testers and curious users.
//!
//! Every command writes its result to `out`; a problem with the input is one line on `err` and
//! exit status 2. Nothing here panics on input.

use std::io::Write;

use crate::rules::{AnyGame, GameKind};

/// The help text printed by `takhte help` (and by `takhte` with no subcommand, until the app
/// exists).
pub const HELP: &str = "\
takhte — chess, dice chess, Turkish draughts and minesweeper chess

usage:
  takhte perft GAME DEPTH [--position TEXT]
      count the leaves of the legal-move tree DEPTH plies deep
  takhte moves GAME [--position TEXT] [--die N]
      list the legal moves, sorted (dice chess: king moves, or with --die N that face's pawn moves)
  takhte play GAME [--position TEXT] [--seed N] MOVE...
      play the moves; print the resulting position text and the outcome
  takhte help
      this text

GAME is chess, dice-chess, draughts or mine-chess. Positions are written as in RULES.md (FEN for
chess). Moves: chess e2e4 e7e8q; dice chess d1e2 (king), 3:b2c4 (pawn with its die face),
4:- (a roll with no legal pawn move); draughts c3-c4, c3xc5xe5; minesweeper chess e2e4, e9e10q,
e2^ (sapper action). --seed lays the mines of a new minesweeper game (default 0).
The outcome is `ongoing`, or `draw REASON`, `white-wins REASON`, `black-wins REASON`.
";

/// A problem with the command line or its input: the one-line message for stderr.
struct Usage(String);

fn usage<T>(message: impl Into<String>) -> Result<T, Usage> {
    Err(Usage(message.into()))
}

/// Runs the CLI with `args` (without the program name) and returns the exit status.
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let result = match args.first().map(String::as_str) {
        None | Some("help") | Some("--help") | Some("-h") => {
            let _ = out.write_all(HELP.as_bytes());
            Ok(())
        }
        Some("perft") => perft(&args[1..], out),
        Some("moves") => moves(&args[1..], out),
        Some("play") => play(&args[1..], out),
        Some(other) => usage(format!("unknown command '{other}' (try 'takhte help')")),
    };
    match result {
        Ok(()) => 0,
        Err(Usage(message)) => {
            let _ = writeln!(err, "takhte: {message}");
            2
        }
    }
}

/// Parsed options common to the commands.
struct Options {
    kind: GameKind,
    position: Option<String>,
    seed: u64,
    die: Option<u8>,
    rest: Vec<String>,
}

fn parse_options(args: &[String], command: &str, allowed: &[&str]) -> Result<Options, Usage> {
    let Some(game) = args.first() else {
        return usage(format!(
            "{command}: missing GAME (chess, dice-chess, draughts or mine-chess)"
        ));
    };
    let Some(kind) = GameKind::parse(game) else {
        return usage(format!(
            "{command}: unknown game '{game}' (chess, dice-chess, draughts or mine-chess)"
        ));
    };
    let mut opts = Options {
        kind,
        position: None,
        seed: 0,
        die: None,
        rest: Vec::new(),
    };
    let mut i = 1;
    while i < args.len() {
        let a = args[i].as_str();
        if a.starts_with("--") && a.len() > 2 {
            if !allowed.contains(&a) {
                return usage(format!("{command}: unknown option '{a}'"));
            }
            let Some(value) = args.get(i + 1) else {
                return usage(format!("{command}: {a} needs a value"));
            };
            match a {
                "--position" => opts.position = Some(value.clone()),
                "--seed" => {
                    opts.seed = value.parse().map_err(|_| {
                        Usage(format!("{command}: --seed '{value}' is not a whole number"))
                    })?
                }
                "--die" => match value.parse::<u8>() {
                    Ok(n @ 1..=6) => opts.die = Some(n),
                    _ => {
                        return usage(format!(
                            "{command}: --die '{value}' is not a face from 1 to 6"
                        ))
                    }
                },
                _ => {}
            }
            i += 2;
        } else {
            opts.rest.push(args[i].clone());
            i += 1;
        }
    }
    Ok(opts)
}

fn game_from(opts: &Options) -> Result<AnyGame, Usage> {
    match &opts.position {
        None => Ok(AnyGame::start(opts.kind, opts.seed)),
        Some(text) => AnyGame::from_text(opts.kind, text).map_err(|e| Usage(e.to_string())),
    }
}

fn perft(args: &[String], out: &mut dyn Write) -> Result<(), Usage> {
    let opts = parse_options(args, "perft", &["--position"])?;
    let [depth] = opts.rest.as_slice() else {
        return usage("perft: expected GAME DEPTH [--position TEXT]");
    };
    let depth: u32 = match depth.parse() {
        Ok(d) if d <= 20 => d,
        _ => {
            return usage(format!(
                "perft: depth '{depth}' is not a number from 0 to 20"
            ))
        }
    };
    let game = game_from(&opts)?;
    let _ = writeln!(out, "{}", game.perft(depth));
    Ok(())
}

fn moves(args: &[String], out: &mut dyn Write) -> Result<(), Usage> {
    let opts = parse_options(args, "moves", &["--position", "--die", "--seed"])?;
    if !opts.rest.is_empty() {
        return usage(format!("moves: unexpected argument '{}'", opts.rest[0]));
    }
    if opts.die.is_some() && opts.kind != GameKind::DiceChess {
        return usage("moves: --die is only for dice-chess");
    }
    let game = game_from(&opts)?;
    for m in game.moves_text(opts.die) {
        let _ = writeln!(out, "{m}");
    }
    Ok(())
}

fn play(args: &[String], out: &mut dyn Write) -> Result<(), Usage> {
    let opts = parse_options(args, "play", &["--position", "--seed"])?;
    let mut game = game_from(&opts)?;
    for (i, text) in opts.rest.iter().enumerate() {
        if let Err(e) = game.play_text(text) {
            return usage(format!("play: move {} '{text}': {e}", i + 1));
        }
    }
    let outcome = game
        .outcome()
        .map(|o| o.to_string())
        .unwrap_or_else(|| "ongoing".to_string());
    let _ = writeln!(out, "{}\n{}", game.to_text(), outcome);
    Ok(())
}
