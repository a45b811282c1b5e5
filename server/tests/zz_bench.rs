use std::time::Instant;
use takhte_core::rules::{AnyGame, GameKind};
use rand::{Rng, SeedableRng};

fn text(board: &[char; 64]) -> String {
    let mut s = String::new();
    for r in (0..8).rev() {
        let mut empty = 0;
        for f in 0..8 {
            let c = board[r * 8 + f];
            if c == '.' { empty += 1; } else { if empty > 0 { s.push_str(&empty.to_string()); empty = 0; } s.push(c); }
        }
        if empty > 0 { s.push_str(&empty.to_string()); }
        if r > 0 { s.push('/'); }
    }
    s.push_str(" w");
    s
}

fn cost(board: &[char; 64]) -> Option<(f64, usize)> {
    let t = text(board);
    let g = AnyGame::from_text(GameKind::Draughts, &t).ok()?;
    if g.outcome().is_some() { return None; }
    let s = Instant::now();
    let n = g.legal_moves().len();
    Some((s.elapsed().as_secs_f64(), n))
}

#[test]
fn bench() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(std::env::var("SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1));
    let mut best = ['.'; 64];
    // start: a grid
    for r in 1..8 { for f in 0..8 { if r % 2 == 1 && f % 2 == 1 { best[r*8+f] = 'b'; } } }
    best[0] = 'W';
    if let Ok(st) = std::env::var("START") {
        let g = st.split(' ').next().unwrap();
        let mut i = 0; let ranks: Vec<&str> = g.split('/').collect();
        best = ['.'; 64];
        for (ri, rk) in ranks.iter().enumerate() { let r = 7 - ri; let mut f = 0; for c in rk.chars() { if let Some(d) = c.to_digit(10) { f += d as usize; } else { best[r*8+f] = c; f += 1; } } i += 1; }
        let _ = i;
    }
    let mut bc = cost(&best).unwrap();
    println!("start {} {:?}", text(&best), bc);
    let end = Instant::now() + std::time::Duration::from_secs(std::env::var("SECS").ok().and_then(|s| s.parse().ok()).unwrap_or(60));
    while Instant::now() < end {
        let mut b = best;
        for _ in 0..rng.gen_range(1..4) {
            let i = rng.gen_range(0..64);
            let c = ['.', 'b', 'B', 'W', '.', 'b'][rng.gen_range(0..6)];
            if c == 'b' && i < 8 { continue; }
            b[i] = c;
        }
        if let Some(c) = cost(&b) {
            if c.0 > bc.0 { bc = c; best = b; println!("{} {:?}", text(&best), bc); }
        }
    }
}
