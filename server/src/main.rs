//! `takhte-server`: the game server. See `takhte-server --help`.

use std::path::PathBuf;
use std::sync::Arc;

use takhte_server::hub::cluster::Bus;
use takhte_server::hub::{Config, Hub};
use takhte_server::store::postgres::Postgres;
use takhte_server::store::sqlite::Sqlite;
use takhte_server::store::Storage;
use takhte_server::{http, log};

const HELP: &str = "takhte-server: Takhte's game server (online games over WebSocket)

usage: takhte-server [OPTIONS]

  --listen ADDR            address and port to listen on (default 127.0.0.1:7878;
                           0.0.0.0:7878 for every network; port 0 picks a free one)
  --db FILE|URL            where the games are kept: a SQLite file (default
                           takhte-server.sqlite; created when missing) or a PostgreSQL URL
                           postgres://USER:PASSWORD@HOST:PORT/DATABASE
  --redis URL              join a cluster of instances through this Redis (redis://HOST:PORT);
                           every instance of a cluster uses the same PostgreSQL and Redis
  --cluster NAME           the cluster's name (default takhte), so that several clusters can
                           share one Redis
  --max-conns-per-ip N     connections one address may hold (default 20)
  --max-open-games N       games not ended one player may sit at (default 10)
  --msgs-per-sec N         messages a connection may send per second on average (default 10)
  --claim-after-ms N       how long an opponent must be gone before the win can be claimed
                           (default 60000)
  --max-spectators N       spectators one game may have (default 5000)
  --max-suggestions N      suggestions one spectator may make for one move (default 10)
  --feed-frames N          frames a game's spectators' feed keeps for a spectator that reads
                           slowly; one further behind is sent the game as it stands (default 64)
  --silence-ms N           a connection that answers nothing (not even the server's pings,
                           every 5 s) for this long is closed, and so is a spectator whose
                           app sends nothing for this long (default 15000)
  --tls-cert FILE          serve TLS (wss://, https://) with this certificate chain (PEM);
  --tls-key FILE           and its private key (PEM). Both files are read again when they
                           change: a renewed certificate needs no restart
  --behind-proxy           the server is reached only through a reverse proxy that sets
                           X-Forwarded-For (as server/nginx.conf does): the limits per
                           address use that header's last address
  --web DIR                serve the browser version built into DIR (scripts/build-web.sh):
                           / is the app, /join/CODE and /watch/CODE open it on that game;
                           without it those pages only point to the app
  --help                   this text

The line 'takhte-server: listening on ADDR' on standard output says the server is ready.";

struct Args {
    listen: String,
    db: String,
    redis: Option<String>,
    cluster: String,
    config: Config,
    tls_cert: Option<PathBuf>,
    tls_key: Option<PathBuf>,
}

fn parse(args: &[String]) -> Result<Option<Args>, String> {
    let mut out = Args {
        listen: "127.0.0.1:7878".into(),
        db: "takhte-server.sqlite".into(),
        redis: None,
        cluster: "takhte".into(),
        config: Config::default(),
        tls_cert: None,
        tls_key: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        let number = |name: &str, v: String| -> Result<usize, String> {
            v.parse::<usize>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("{name}: '{v}' is not a positive number"))
        };
        match a.as_str() {
            "--help" | "-h" => return Ok(None),
            "--listen" => out.listen = value("--listen")?,
            "--db" => out.db = value("--db")?,
            "--redis" => out.redis = Some(value("--redis")?),
            "--cluster" => out.cluster = value("--cluster")?,
            "--max-conns-per-ip" => {
                out.config.max_conns_per_ip = number(a, value(a)?)?;
            }
            "--max-open-games" => out.config.max_open_games = number(a, value(a)?)?,
            "--msgs-per-sec" => {
                let n = number(a, value(a)?)?;
                out.config.msgs_per_sec = n as f64;
                out.config.msg_burst = (3 * n) as f64;
            }
            "--claim-after-ms" => out.config.claim_after_ms = number(a, value(a)?)? as u64,
            "--max-spectators" => out.config.max_spectators = number(a, value(a)?)?,
            "--max-suggestions" => out.config.max_suggestions = number(a, value(a)?)? as u32,
            "--silence-ms" => out.config.silence_ms = number(a, value(a)?)? as u64,
            "--feed-frames" => out.config.feed_frames = number(a, value(a)?)?,
            "--behind-proxy" => out.config.behind_proxy = true,
            "--web" => out.config.web_dir = Some(PathBuf::from(value(a)?)),
            "--tls-cert" => out.tls_cert = Some(PathBuf::from(value(a)?)),
            "--tls-key" => out.tls_key = Some(PathBuf::from(value(a)?)),
            other => return Err(format!("unknown option '{other}' (see --help)")),
        }
    }
    if out.tls_cert.is_some() != out.tls_key.is_some() {
        return Err("--tls-cert and --tls-key go together".into());
    }
    out.config.tls = out.tls_cert.is_some();
    if let Some(dir) = &out.config.web_dir {
        if !dir.join("index.html").is_file() {
            return Err(format!(
                "--web {}: no index.html there (build it with scripts/build-web.sh)",
                dir.display()
            ));
        }
    }
    Ok(Some(out))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse(&args) {
        Ok(Some(a)) => a,
        Ok(None) => {
            println!("{HELP}");
            return;
        }
        Err(e) => {
            eprintln!("takhte-server: {e}");
            std::process::exit(2);
        }
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("takhte-server: cannot start: {e}");
            std::process::exit(1);
        }
    };
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => {
            match takhte_server::tls::Certificate::open(cert, key).and_then(|c| c.server_config()) {
                Ok(config) => Some(config),
                Err(e) => {
                    eprintln!("takhte-server: TLS: {e}");
                    std::process::exit(2);
                }
            }
        }
        _ => None,
    };
    let code = runtime.block_on(async move {
        let store: Arc<dyn Storage> =
            if args.db.starts_with("postgres://") || args.db.starts_with("postgresql://") {
                match Postgres::open(&args.db).await {
                    Ok(s) => Arc::new(s),
                    Err(e) => {
                        eprintln!("takhte-server: cannot use the PostgreSQL database: {e}");
                        return 1;
                    }
                }
            } else {
                match Sqlite::open(&PathBuf::from(&args.db)) {
                    Ok(s) => Arc::new(s),
                    Err(e) => {
                        eprintln!("takhte-server: cannot open {}: {e}", args.db);
                        return 1;
                    }
                }
            };
        let hub = Hub::new(args.config, store);
        if let Some(url) = &args.redis {
            match Bus::new(url, &args.cluster) {
                Ok(bus) => {
                    log!("joining the cluster through {}", bus.describe());
                    hub.attach_bus(Arc::new(bus));
                }
                Err(e) => {
                    eprintln!("takhte-server: cannot use Redis at {url}: {e}");
                    return 1;
                }
            }
        }
        match hub.load_running().await {
            Ok(n) if n > 0 => log!("{n} games in play taken up again"),
            Ok(_) => {}
            Err(e) => {
                eprintln!("takhte-server: cannot read the games: {e}");
                return 1;
            }
        }
        let listener = match tokio::net::TcpListener::bind(&args.listen).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("takhte-server: cannot listen on {}: {e}", args.listen);
                return 1;
            }
        };
        let addr = listener
            .local_addr()
            .map(|a| a.to_string())
            .unwrap_or(args.listen.clone());
        println!("takhte-server: listening on {addr}");
        use std::io::Write;
        let _ = std::io::stdout().flush();
        tokio::select! {
            r = http::serve(listener, hub, tls) => match r {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("takhte-server: {e}");
                    1
                }
            },
            _ = tokio::signal::ctrl_c() => {
                log!("stopping");
                0
            }
        }
    });
    std::process::exit(code);
}
