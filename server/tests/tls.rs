//! Encrypted play on loopback, with certificates made here (a test root, and certificates for
//! localhost, for another name, expired, self-signed, from an unknown root): a whole game over
//! `wss://` with a spectator; each certificate problem refused with its own reason, never
//! falling back to a plain connection; a `wss://` client against a plain server and a `ws://`
//! client against an encrypted one refused, clearly; a certificate replaced while the server
//! runs is the one new connections get; the invite page links with the server and `wss://`.

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::*;
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
use takhte_online::bot::BotRole;
use takhte_online::client::{Client, ClientConfig, ClientEvent, ConnState, Fatal, TlsProblem};
use takhte_protocol::{ClientMsg, ColourChoice, GameEvent, GameSettings, ServerMsg};
use takhte_rules::GameKind;

/// A certificate authority made for a test.
struct Root {
    issuer: Issuer<'static, KeyPair>,
    der: Vec<u8>,
}

fn root(name: &str) -> Root {
    let key = KeyPair::generate().unwrap();
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CommonName, name);
    let cert = params.self_signed(&key).unwrap();
    Root {
        der: cert.der().to_vec(),
        issuer: Issuer::new(params, key),
    }
}

/// A server certificate for `names`, signed by `by` (or by itself), valid or long expired;
/// written as PEM files in `dir` under `stem`. Returns the certificate's and the key's paths.
fn server_cert(
    dir: &Path,
    stem: &str,
    names: &[&str],
    by: Option<&Root>,
    expired: bool,
) -> (PathBuf, PathBuf, Vec<u8>) {
    let key = KeyPair::generate().unwrap();
    let mut params =
        CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>()).unwrap();
    params.distinguished_name.push(DnType::CommonName, names[0]);
    if expired {
        params.not_before = rcgen::date_time_ymd(2020, 1, 1);
        params.not_after = rcgen::date_time_ymd(2021, 1, 1);
    }
    let cert = match by {
        Some(root) => params.signed_by(&key, &root.issuer).unwrap(),
        None => params.self_signed(&key).unwrap(),
    };
    let (cert_path, key_path) = (
        dir.join(format!("{stem}.crt")),
        dir.join(format!("{stem}.key")),
    );
    std::fs::write(&cert_path, cert.pem()).unwrap();
    std::fs::write(&key_path, key.serialize_pem()).unwrap();
    (cert_path, key_path, cert.der().to_vec())
}

/// A server with its own TLS.
fn tls_server(dir: &Path, cert: &Path, key: &Path) -> Server {
    let c = cert.to_str().unwrap();
    let k = key.to_str().unwrap();
    // Fast bots: more messages a second than a person sends.
    Server::start(
        &dir.join("tls.sqlite"),
        &["--tls-cert", c, "--tls-key", k, "--msgs-per-sec", "200"],
    )
}

/// `wss://localhost:PORT` of a server listening on `127.0.0.1:PORT`.
fn wss(server: &Server) -> String {
    let port = server.addr.rsplit_once(':').unwrap().1;
    format!("wss://localhost:{port}")
}

/// How a client to `address` (trusting `roots` besides the public ones) ends up: connected,
/// or given up with a reason. Never connected without TLS when the address says wss://.
fn outcome(address: &str, roots: Vec<Vec<u8>>) -> Result<(), Fatal> {
    let c = Client::start(ClientConfig {
        address: address.to_string(),
        token: takhte_protocol::token::generate(),
        name: "T".into(),
        wake: None,
        tap: None,
        extra_roots: roots,
    });
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        match c.recv_timeout(Duration::from_millis(200)) {
            Some(ClientEvent::Conn(ConnState::Connected)) => return Ok(()),
            Some(ClientEvent::Conn(ConnState::Failed(f))) => return Err(f),
            _ => {}
        }
    }
    panic!("{address}: neither connected nor refused");
}

#[test]
fn a_whole_game_over_wss_with_a_spectator() {
    let dir = tempfile::tempdir().unwrap();
    let ca = root("Takhte test root");
    let (cert, key, _) = server_cert(dir.path(), "localhost", &["localhost"], Some(&ca), false);
    let server = tls_server(dir.path(), &cert, &key);
    let address = wss(&server);
    let settings = GameSettings {
        kind: GameKind::Chess,
        clock: None,
        colour: ColourChoice::White,
        public: true,
        position: None,
        spectators: true,
        audience: false,
        rated: false,
    };
    let bot = |name: &str| {
        let mut c = bot_config(&address, name, 1, BotRole::Join(String::new()));
        c.extra_roots = vec![ca.der.clone()];
        c.movetime_ms = 5;
        c
    };
    let (code, a, b) = start_bot_game(bot("Ana"), bot("Bahram"), settings);
    // A spectator over wss:// too: it sees the moves come.
    let spectator = Client::start(ClientConfig {
        address: address.clone(),
        token: takhte_protocol::token::generate(),
        name: "Sima".into(),
        wake: None,
        tap: None,
        extra_roots: vec![ca.der.clone()],
    });
    spectator.send(ClientMsg::Watch {
        code: code.clone(),
        since: None,
    });
    let (a, b) = (a.join().unwrap(), b.join().unwrap());
    assert!(a.errors.is_empty() && b.errors.is_empty(), "{a:?} {b:?}");
    assert!(a.end.is_some() && a.moves == b.moves, "{a:?} {b:?}");
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while seen.len() < a.moves.len() && Instant::now() < deadline {
        match spectator.recv_timeout(Duration::from_millis(200)) {
            Some(ClientEvent::Msg(ServerMsg::State { state })) => {
                seen = state.plies.iter().map(|p| p.mv.clone()).collect();
            }
            Some(ClientEvent::Msg(ServerMsg::Event {
                event: GameEvent::Moved { ply, mv, .. },
                ..
            })) if ply as usize == seen.len() => seen.push(mv),
            _ => {}
        }
    }
    assert_eq!(seen, a.moves, "the spectator saw the game");
    assert!(a.moves.len() >= 2);
}

/// A certificate problem: the files' stem, the names, the signer (or itself), expired, and
/// the reason the client must give.
type Case<'a> = (&'a str, &'a [&'a str], Option<&'a Root>, bool, TlsProblem);

#[test]
fn every_certificate_problem_is_refused_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let ca = root("Takhte test root");
    let stranger = root("Some other root");
    let trust = || vec![ca.der.clone()];
    let cases: [Case; 4] = [
        (
            "other-name",
            &["example.org"],
            Some(&ca),
            false,
            TlsProblem::WrongName,
        ),
        (
            "expired",
            &["localhost"],
            Some(&ca),
            true,
            TlsProblem::Expired,
        ),
        (
            "unknown",
            &["localhost"],
            Some(&stranger),
            false,
            TlsProblem::UnknownAuthority,
        ),
        (
            "self-signed",
            &["localhost"],
            None,
            false,
            TlsProblem::SelfSigned,
        ),
    ];
    for (stem, names, by, expired, problem) in cases {
        let (cert, key, _) = server_cert(dir.path(), stem, names, by, expired);
        let server = tls_server(dir.path(), &cert, &key);
        assert_eq!(
            outcome(&wss(&server), trust()),
            Err(Fatal::Tls(problem.clone())),
            "{stem}"
        );
        // The same server, trusted: connects (only the certificate was wrong).
        if stem == "self-signed" {
            let der = std::fs::read_to_string(&cert).unwrap();
            let roots = takhte_online::tls::pem_certificates(&der).unwrap();
            assert_eq!(outcome(&wss(&server), roots), Ok(()), "{stem}, trusted");
        }
    }
    // A good certificate: connects.
    let (cert, key, _) = server_cert(dir.path(), "good", &["localhost"], Some(&ca), false);
    let server = tls_server(dir.path(), &cert, &key);
    assert_eq!(outcome(&wss(&server), trust()), Ok(()));
    // ws:// to the encrypted server: it wants TLS, said so; no game over a plain line.
    let port = server.addr.rsplit_once(':').unwrap().1;
    assert_eq!(
        outcome(&format!("ws://localhost:{port}"), trust()),
        Err(Fatal::Tls(TlsProblem::NeedsTls))
    );
    // wss:// to a plain server: it does not speak TLS, said so.
    let plain = Server::scratch(&[]);
    let port = plain.addr.rsplit_once(':').unwrap().1;
    assert_eq!(
        outcome(&format!("wss://localhost:{port}"), trust()),
        Err(Fatal::Tls(TlsProblem::NotTls))
    );
}

/// The certificate a fresh TLS connection to `addr` is shown (trusting `root`).
fn certificate_shown(addr: &str, root: &[u8]) -> Vec<u8> {
    let config = takhte_online::tls::client_config(&[root.to_vec()]).unwrap();
    let tcp = std::net::TcpStream::connect(addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    match takhte_online::tls::handshake(tcp, "localhost", config) {
        Ok(takhte_online::tls::Stream::Tls(s)) => s.conn.peer_certificates().unwrap()[0].to_vec(),
        Ok(_) => panic!("not encrypted"),
        Err(e) => panic!("{e:?}"),
    }
}

#[test]
fn a_replaced_certificate_is_shown_to_new_connections_without_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let ca = root("Takhte test root");
    let (cert, key, first) = server_cert(dir.path(), "live", &["localhost"], Some(&ca), false);
    let server = tls_server(dir.path(), &cert, &key);
    assert_eq!(certificate_shown(&server.addr, &ca.der), first);
    // A connection made before the renewal stays up through it.
    let mut before = {
        let config = takhte_online::tls::client_config(std::slice::from_ref(&ca.der)).unwrap();
        let tcp = std::net::TcpStream::connect(&server.addr).unwrap();
        tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        takhte_online::tls::handshake(tcp, "localhost", config).unwrap()
    };
    // Renewed: new files over the old ones (as certbot does), the server left running.
    let renewed = dir.path().join("renewed");
    std::fs::create_dir_all(&renewed).unwrap();
    let (new_cert, new_key, second) =
        server_cert(&renewed, "live", &["localhost"], Some(&ca), false);
    assert_ne!(first, second);
    std::fs::copy(&new_key, &key).unwrap();
    std::fs::copy(&new_cert, &cert).unwrap();
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if certificate_shown(&server.addr, &ca.der) == second {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the new certificate is not shown"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    // The old connection still talks.
    before
        .write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    let _ = before.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // A broken renewal (half a file) keeps the certificate before.
    std::fs::write(&cert, "-----BEGIN CERTIFICATE-----\nnot a certificate").unwrap();
    std::thread::sleep(Duration::from_millis(1_500));
    assert_eq!(certificate_shown(&server.addr, &ca.der), second);
}

#[test]
fn the_invite_page_of_an_encrypted_server_links_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let ca = root("Takhte test root");
    let (cert, key, _) = server_cert(dir.path(), "page", &["localhost"], Some(&ca), false);
    let server = tls_server(dir.path(), &cert, &key);
    let port = server.addr.rsplit_once(':').unwrap().1;
    let config = takhte_online::tls::client_config(std::slice::from_ref(&ca.der)).unwrap();
    let tcp = std::net::TcpStream::connect(&server.addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut s = takhte_online::tls::handshake(tcp, "localhost", config).unwrap();
    write!(
        s,
        "GET /join/K7M3QX HTTP/1.1\r\nHost: localhost:{port}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut page = String::new();
    let _ = s.read_to_string(&mut page);
    let link = format!("takhte://join/K7M3QX?server=wss%3A%2F%2Flocalhost%3A{port}");
    assert!(page.contains(&link), "{page}");
    // The app reads it back as an encrypted server.
    let server_of_link = takhte_protocol::address::link_server(&link).unwrap();
    assert!(server_of_link.secure);
    assert_eq!(server_of_link.url(), format!("wss://localhost:{port}/ws"));
}
