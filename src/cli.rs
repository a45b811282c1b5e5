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
  takhte
      open the app (needs a display)
  takhte screenshot --scene NAME --lang fa|en --size WxH --out FILE.png
      draw a scene of the app into a PNG without a display; scenes: home, new-game, chess,
      dice-chess, draughts, mine-chess, game-over, settings, rules, saved-games
  takhte bench-ui
      measure the first frame, the board update after a move and the memory (headless)
  takhte perft GAME DEPTH [--position TEXT]
      count the leaves of the legal-move tree DEPTH plies deep
  takhte moves GAME [--position TEXT] [--die N]
      list the legal moves, sorted (dice chess: king moves, or with --die N that face's pawn moves)
  takhte play GAME [--position TEXT] [--seed N] MOVE...
      play the moves; print the resulting position text and the outcome
  takhte saves [--dir D]
      list the saved games: file, game, moves, status (ok, or damaged: REASON)
  takhte autoplay GAME --plies N --seed S [--dir D]
      play N random plies through the game controller, saving after each one
  takhte uci
      the chess AI as a UCI engine on standard input and output (setoption name Level value 1-6)
  takhte match GAME --white A --black B --games N --seed S [--movetime MS] [--fixed-colours]
               [--max-plies N] [--idle-plies N] [--start FILE] [--uci-option NAME=VALUE]...
               [--moves]
      play N games between A and B: a level 1-6, 6ref (level 6 as it was before the engine
      work: the reference search, hand-written evaluation), 6hand (hand-written evaluation),
      6+NAMES (level 6 with only the search refinements named: lmr,lmp,malus,null,contempt,
      iir,improving,asp,tteval,see,sing; sq for chess's piece-square corrections;
      hand),
      search:DEPTH:NODES:NOISE (a search of that setting, for calibrating the levels),
      greedy, random, or for chess uci:PROGRAM
      (another UCI engine, e.g. uci:stockfish); colours alternate unless --fixed-colours;
      prints each game, the thinking time of each player (turns, mean, longest), then wins,
      draws and losses counted for A (--white); --moves adds each game's moves and last position;
      --start FILE plays each pair of games from the next position text of FILE (one a line);
      --idle-plies N scores a game as a draw once no piece has left the board for N plies
  takhte online-bot --server ADDR (--create GAME | --join CODE | --seek GAME:M+S) [--clock M+S]
                    [--colour white|black|random] [--public] [--spectators] [--audience]
                    [--level N] [--movetime MS] [--delay MS] [--name NAME]
      play one online game through a game server with a computer level (1-6, default 3);
      --seek waits in quick pairing (e.g. chess:3+2) and plays the game it is paired into;
      --spectators lets others watch it, --audience also shows their suggestions to the players;
      prints the game's code as soon as it is known, then the moves and how the game ended
  takhte takhte://join/CODE
      open the app and join the online game of an invite link
  takhte help
      this text

GAME is chess, dice-chess, draughts or mine-chess. Positions are written as in RULES.md (FEN for
chess). Moves: chess e2e4 e7e8q; dice chess d1e2 (king), 3:b2c4 (pawn with its die face),
4:- (a roll with no legal pawn move); draughts c3-c4, c3xc5xe5; minesweeper chess e2e4, e9e10q,
e2^ (sapper action). --seed lays the mines of a new minesweeper game (default 0).
--dir is the data folder (default: TAKHTE_DATA_DIR, else the platform's per-user data folder).
The outcome is `ongoing`, or `draw REASON`, `white-wins REASON`, `black-wins REASON`.
";

/// `takhte online-bot`: one online game played by a computer level through the protocol.
fn online_bot(args: &[String], out: &mut dyn Write) -> Result<(), Usage> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        let _ = out.write_all(online_bot_help().as_bytes());
        return Ok(());
    }
    let config = online_bot_config(args)?;
    let address = config.address.clone();
    let report = crate::net::bot::play(config)
        .map_err(|e| Usage(format!("online-bot: {}", bot_error_text(&e, &address))))?;
    let _ = writeln!(out, "moves {}", report.moves.join(" "));
    match report.end {
        Some(e) => {
            let who = match e.winner {
                Some(crate::rules::Side::White) => "white-wins",
                Some(crate::rules::Side::Black) => "black-wins",
                None => "draw",
            };
            let _ = writeln!(out, "{who} {}", e.reason);
        }
        None => {
            let _ = writeln!(out, "unfinished");
        }
    }
    Ok(())
}

/// The help's part about `takhte online-bot`, with what GAME means.
fn online_bot_help() -> String {
    let start = HELP.find("  takhte online-bot").unwrap_or(0);
    let end = HELP[start..]
        .find("  takhte takhte://")
        .map_or(HELP.len(), |e| start + e);
    format!(
        "{}\nGAME is chess, dice-chess, draughts or mine-chess. The server's address is also read from\nTAKHTE_SERVER; TAKHTE_TLS_ROOTS names a PEM file of authorities trusted besides the public ones.\n",
        &HELP[start..end]
    )
}

/// Why the bot stopped, in the words the app uses (English).
fn bot_error_text(e: &crate::net::bot::BotError, address: &str) -> String {
    use crate::net::bot::BotError;
    let en = crate::i18n::I18n::new(crate::i18n::Lang::En);
    let plain = |t: String| {
        t.chars()
            .filter(|c| !('\u{2066}'..='\u{2069}').contains(c))
            .collect()
    };
    match e {
        BotError::Failed(fatal) => plain(crate::ui::online::fatal_text(&en, fatal, address)),
        BotError::Refused(refusal) => plain(en.tr(crate::ui::online::online_error_key(refusal))),
        BotError::Timeout { .. } => e.to_string(),
    }
}

/// The online bot's options as read so far.
struct BotArgs {
    server: String,
    create: Option<GameKind>,
    join: Option<String>,
    seek: Option<takhte_protocol::rating::PoolChoice>,
    settings: crate::net::protocol::GameSettings,
    level: u8,
    movetime: u64,
    delay: u64,
    name: String,
}

impl BotArgs {
    fn new() -> BotArgs {
        BotArgs {
            server: std::env::var(crate::net::SERVER_ENV).unwrap_or_default(),
            create: None,
            join: None,
            seek: None,
            settings: crate::net::protocol::GameSettings {
                kind: GameKind::Chess,
                clock: None,
                colour: crate::net::protocol::ColourChoice::Random,
                public: false,
                position: None,
                spectators: false,
                audience: false,
                rated: false,
            },
            level: 3,
            movetime: 300,
            delay: 0,
            name: String::from("Bot"),
        }
    }

    /// Takes the option `flag` (its value from `value` when it has one).
    fn take(
        &mut self,
        flag: &str,
        value: &mut dyn FnMut() -> Result<String, Usage>,
    ) -> Result<(), Usage> {
        use crate::net::protocol::ColourChoice;
        let bad = |what: &str| Usage(format!("online-bot: {what}"));
        match flag {
            "--server" => self.server = value()?,
            "--create" => {
                let v = value()?;
                self.create = Some(GameKind::parse(&v).ok_or_else(|| {
                    bad(&format!(
                        "unknown game '{v}' (chess, dice-chess, draughts, mine-chess)"
                    ))
                })?);
            }
            "--join" => {
                let v = value()?;
                let code =
                    crate::net::code::normalize(&v).map_err(|e| bad(&format!("'{v}': {e}")))?;
                self.join = Some(code);
            }
            "--seek" => {
                let v = value()?;
                self.seek = Some(seek_pool(&v).ok_or_else(|| {
                    bad(&format!(
                        "--seek '{v}' is not GAME:MINUTES+SECONDS (e.g. chess:3+2)"
                    ))
                })?);
            }
            "--clock" => {
                let v = value()?;
                let clock = clock_spec(&v)
                    .ok_or_else(|| bad(&format!("--clock '{v}' is not MINUTES+SECONDS")))?;
                self.settings.clock = Some(clock);
            }
            "--colour" => {
                self.settings.colour = match value()?.as_str() {
                    "white" => ColourChoice::White,
                    "black" => ColourChoice::Black,
                    "random" => ColourChoice::Random,
                    v => return Err(bad(&format!("--colour '{v}' (white, black, random)"))),
                }
            }
            "--public" => self.settings.public = true,
            "--spectators" => self.settings.spectators = true,
            "--audience" => {
                self.settings.spectators = true;
                self.settings.audience = true;
            }
            "--level" => {
                let v = value()?;
                self.level = v
                    .parse()
                    .ok()
                    .filter(|l| (1..=6).contains(l))
                    .ok_or_else(|| bad(&format!("--level '{v}' is not 1-6")))?;
            }
            "--movetime" | "--delay" => {
                let v = value()?;
                let n = v
                    .parse()
                    .map_err(|_| bad(&format!("{flag} '{v}' is not a number")))?;
                if flag == "--delay" {
                    self.delay = n;
                } else {
                    self.movetime = n;
                }
            }
            "--name" => self.name = value()?,
            other => return Err(bad(&format!("unknown option '{other}'"))),
        }
        Ok(())
    }
}

/// A clock written MINUTES+SECONDS.
fn clock_spec(text: &str) -> Option<crate::net::protocol::ClockSpec> {
    let (m, s) = text.split_once('+')?;
    let (m, s) = (m.parse::<u64>().ok()?, s.parse::<u64>().ok()?);
    Some(crate::net::protocol::ClockSpec {
        base_ms: m.checked_mul(60_000)?,
        increment_ms: s.checked_mul(1000)?,
    })
}

/// The online bot's options: the server, create, join or seek, the game's settings, the level.
fn online_bot_config(args: &[String]) -> Result<crate::net::bot::BotConfig, Usage> {
    use crate::net::bot::{BotConfig, BotRole};
    let mut o = BotArgs::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| Usage(format!("online-bot: {a} needs a value")))
        };
        o.take(a, &mut value)?;
    }
    if o.server.trim().is_empty() {
        return usage("online-bot: no server (--server ADDR or TAKHTE_SERVER)");
    }
    let role = match (o.create, o.join, o.seek) {
        (Some(kind), None, None) => {
            BotRole::Create(crate::net::protocol::GameSettings { kind, ..o.settings })
        }
        (None, Some(code), None) => BotRole::Join(code),
        (None, None, Some(pool)) => BotRole::Seek(pool),
        _ => {
            return usage(
                "online-bot: give --create GAME, --join CODE or --seek GAME:M+S (one of them)",
            )
        }
    };
    Ok(BotConfig {
        address: o.server,
        token: crate::net::token::generate(),
        name: o.name,
        level: o.level,
        movetime_ms: o.movetime,
        delay_ms: o.delay,
        role,
        timeout: std::time::Duration::from_secs(6 * 3600),
        on_code: Some(std::sync::Arc::new(|code: &str| {
            let mut o = std::io::stdout();
            let _ = writeln!(o, "code {code}");
            let _ = o.flush();
        })),
        max_own_moves: None,
        extra_roots: takhte_online::client::extra_roots_from_env(),
    })
}

/// A quick pairing pool as the command line writes it: `chess:3+2` (minutes and seconds, as
/// `--clock`).
fn seek_pool(text: &str) -> Option<takhte_protocol::rating::PoolChoice> {
    let (kind, clock) = text.split_once(':')?;
    let (m, s) = clock.split_once('+')?;
    let (m, s) = (m.trim().parse::<u64>().ok()?, s.trim().parse::<u64>().ok()?);
    takhte_protocol::rating::PoolChoice::parse(&format!(
        "{}:{}+{}",
        kind.trim(),
        m.checked_mul(60)?,
        s
    ))
}

/// A problem with the command line or its input: the one-line message for stderr.
struct Usage(String);

fn usage<T>(message: impl Into<String>) -> Result<T, Usage> {
    Err(Usage(message.into()))
}

/// Runs the CLI with `args` (without the program name) and returns the exit status.
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let result = match args.first().map(String::as_str) {
        Some("screenshot") => screenshot(&args[1..]),
        Some("bench-ui") => {
            crate::ui::screenshot::bench_ui(out).map_err(|e| Usage(format!("bench-ui: {e}")))
        }
        None | Some("help") | Some("--help") | Some("-h") => {
            let _ = out.write_all(HELP.as_bytes());
            Ok(())
        }
        Some("perft") => perft(&args[1..], out),
        Some("moves") => moves(&args[1..], out),
        Some("play") => play(&args[1..], out),
        Some("saves") => saves(&args[1..], out),
        Some("autoplay") => autoplay(&args[1..], out),
        Some("uci") => uci(&args[1..]),
        Some("match") => play_match(&args[1..], out),
        Some("online-bot") => online_bot(&args[1..], out),
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
                "--plies" => {}
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

fn data_dir(
    args: &[String],
    command: &str,
) -> Result<(Option<std::path::PathBuf>, Vec<String>), Usage> {
    let mut dir = None;
    let mut rest = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--dir" {
            let Some(v) = args.get(i + 1) else {
                return usage(format!("{command}: --dir needs a value"));
            };
            dir = Some(std::path::PathBuf::from(v));
            i += 2;
        } else {
            rest.push(args[i].clone());
            i += 1;
        }
    }
    Ok((dir, rest))
}

fn open_store(dir: Option<std::path::PathBuf>) -> Result<crate::store::Store, Usage> {
    let dir = dir.unwrap_or_else(|| crate::store::Store::default_dir(None));
    crate::store::Store::open(dir).map_err(|e| Usage(e.to_string()))
}

fn saves(args: &[String], out: &mut dyn Write) -> Result<(), Usage> {
    let (dir, rest) = data_dir(args, "saves")?;
    if let Some(extra) = rest.first() {
        return usage(format!("saves: unexpected argument '{extra}'"));
    }
    let store = open_store(dir)?;
    let listed = store.try_list_games().map_err(|e| Usage(e.to_string()))?;
    for g in listed {
        let line = match &g.entry {
            Ok(rec) => {
                let status = match crate::game::from_record(
                    rec,
                    std::sync::Arc::new(crate::ai::Standard),
                    Box::new(crate::game::ScriptedRandomness::new(vec![1], vec![0])),
                ) {
                    Ok(_) => "ok".to_string(),
                    Err(e) => format!("damaged: {e}"),
                };
                format!("{} {} {} {}", g.file, rec.kind, rec.moves.len(), status)
            }
            Err(d) => format!("{} ? 0 damaged: {}", g.file, d.reason),
        };
        let _ = writeln!(out, "{line}");
    }
    Ok(())
}

fn autoplay(args: &[String], out: &mut dyn Write) -> Result<(), Usage> {
    let (dir, rest) = data_dir(args, "autoplay")?;
    let opts = parse_options(&rest, "autoplay", &["--plies", "--seed"])?;
    if let Some(extra) = opts.rest.first() {
        return usage(format!("autoplay: unexpected argument '{extra}'"));
    }
    let plies =
        value_of(&rest, "--plies").ok_or(Usage("autoplay: --plies N is required".into()))?;
    let plies: usize = plies
        .parse()
        .map_err(|_| Usage(format!("autoplay: --plies '{plies}' is not a whole number")))?;
    if value_of(&rest, "--seed").is_none() {
        return usage("autoplay: --seed S is required");
    }
    let store = open_store(dir)?;
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(opts.seed);
    let random = crate::game::ScriptedRandomness::from_seed(opts.seed);
    let mut c = crate::game::Controller::new(
        crate::game::NewGame::pass_and_play(opts.kind),
        std::sync::Arc::new(crate::ai::Standard),
        Box::new(random),
    )
    .map_err(|e| Usage(e.to_string()))?;
    let now = crate::store::now_unix();
    let id = store.new_id(now);
    let mut played = 0;
    while played < plies {
        if !crate::game::autoplay::random_ply(&mut c, &mut rng) {
            break;
        }
        played += 1;
        let rec = crate::game::to_record(
            &c,
            &id,
            now,
            crate::store::now_unix(),
            web_time::Instant::now(),
        );
        store
            .save_game_with_retry(&rec, 3)
            .map_err(|e| Usage(e.to_string()))?;
    }
    let outcome = c.session().end().map(|e| {
        let head = match e.result() {
            Some(crate::rules::GameResult::Win(crate::rules::Side::White)) => "white-wins",
            Some(crate::rules::GameResult::Win(crate::rules::Side::Black)) => "black-wins",
            Some(crate::rules::GameResult::Draw) => "draw",
            None => "no-result",
        };
        format!("{head} {}", e.reason())
    });
    let _ = writeln!(
        out,
        "{id}.json {} plies, {} moves, {}",
        played,
        c.session().moves().len(),
        outcome.unwrap_or_else(|| "ongoing".into())
    );
    Ok(())
}

fn value_of<'a>(args: &'a [String], name: &str) -> Option<&'a String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
}

fn screenshot(args: &[String]) -> Result<(), Usage> {
    let get = |name: &str| value_of(args, name).cloned();
    let scene = get("--scene").ok_or(Usage("screenshot: --scene NAME is required".into()))?;
    let lang = match get("--lang").as_deref() {
        None | Some("en") => crate::i18n::Lang::En,
        Some("fa") => crate::i18n::Lang::Fa,
        Some(other) => return usage(format!("screenshot: --lang '{other}' is not fa or en")),
    };
    let size = get("--size").unwrap_or_else(|| "360x640".into());
    let (w, h) = size
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?)))
        .filter(|&(w, h)| (100..=4000).contains(&w) && (100..=4000).contains(&h))
        .ok_or(Usage(format!(
            "screenshot: --size '{size}' is not WIDTHxHEIGHT (100-4000 each)"
        )))?;
    let out = get("--out").ok_or(Usage("screenshot: --out FILE.png is required".into()))?;
    crate::ui::screenshot::screenshot(&scene, lang, w, h, std::path::Path::new(&out))
        .map_err(|e| Usage(format!("screenshot: {e}")))
}

fn uci(args: &[String]) -> Result<(), Usage> {
    if let Some(extra) = args.first() {
        return usage(format!("uci: unexpected argument '{extra}'"));
    }
    let stdin = std::io::stdin();
    crate::ai::uci::run(stdin.lock(), Box::new(std::io::stdout()));
    Ok(())
}

fn play_match(args: &[String], out: &mut dyn Write) -> Result<(), Usage> {
    use crate::ai::arena::{MatchConfig, PlayerSpec};
    let Some(game) = args.first() else {
        return usage("match: missing GAME (chess, dice-chess, draughts or mine-chess)");
    };
    let Some(kind) = GameKind::parse(game) else {
        return usage(format!(
            "match: unknown game '{game}' (chess, dice-chess, draughts or mine-chess)"
        ));
    };
    let mut cfg = MatchConfig {
        kind,
        a: PlayerSpec::Level(6),
        b: PlayerSpec::Level(6),
        games: 0,
        seed: 0,
        movetime_ms: 1000,
        alternate: true,
        uci_options: Vec::new(),
        max_plies: 400,
        show_moves: false,
        starts: Vec::new(),
        idle_plies: None,
    };
    let (mut white, mut black, mut games, mut seed) = (false, false, false, false);
    let mut i = 1;
    while i < args.len() {
        let a = args[i].as_str();
        if a == "--fixed-colours" || a == "--moves" {
            if a == "--moves" {
                cfg.show_moves = true;
            } else {
                cfg.alternate = false;
            }
            i += 1;
            continue;
        }
        let Some(value) = args.get(i + 1) else {
            return usage(format!("match: {a} needs a value"));
        };
        let number = |what: &str| -> Result<u64, Usage> {
            value
                .parse::<u64>()
                .map_err(|_| Usage(format!("match: {what} '{value}' is not a whole number")))
        };
        let player = || {
            PlayerSpec::parse(value).ok_or_else(|| {
                Usage(format!(
                    "match: {a} '{value}' is not a level 1-6, 6ref, 6hand, 6+NAMES, search:D:N:Z, greedy, random or uci:PROGRAM"
                ))
            })
        };
        match a {
            "--white" => {
                cfg.a = player()?;
                white = true;
            }
            "--black" => {
                cfg.b = player()?;
                black = true;
            }
            "--games" => {
                cfg.games = number("--games")?.min(100_000) as u32;
                games = true;
            }
            "--seed" => {
                cfg.seed = number("--seed")?;
                seed = true;
            }
            "--movetime" => cfg.movetime_ms = number("--movetime")?.max(1),
            "--max-plies" => cfg.max_plies = number("--max-plies")?.max(1) as usize,
            "--idle-plies" => cfg.idle_plies = Some(number("--idle-plies")?.max(1) as usize),
            "--start" => {
                let text = std::fs::read_to_string(value)
                    .map_err(|e| Usage(format!("match: --start '{value}': {e}")))?;
                cfg.starts = text
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                    .map(str::to_string)
                    .collect();
                if cfg.starts.is_empty() {
                    return usage(format!("match: --start '{value}' holds no position"));
                }
            }
            "--uci-option" => match value.split_once('=') {
                Some((n, v)) if !n.is_empty() => {
                    cfg.uci_options.push((n.to_string(), v.to_string()))
                }
                _ => return usage(format!("match: --uci-option '{value}' is not NAME=VALUE")),
            },
            _ => return usage(format!("match: unknown option '{a}'")),
        }
        i += 2;
    }
    for (given, name) in [
        (white, "--white"),
        (black, "--black"),
        (games, "--games"),
        (seed, "--seed"),
    ] {
        if !given {
            return usage(format!("match: {name} is required"));
        }
    }
    crate::ai::arena::play_match(&cfg, out)
        .map(|_| ())
        .map_err(|e| Usage(format!("match: {e}")))
}
