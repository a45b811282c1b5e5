//! Chess perft against the published counts in `tests/data/chess_perft.txt`.

use takhte_rules::{chess::Position, Rules};

fn cases() -> Vec<(String, String, Vec<u64>)> {
    let text = include_str!("data/chess_perft.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let parts: Vec<&str> = l.split('|').map(str::trim).collect();
            let counts = parts[2]
                .split_whitespace()
                .map(|n| n.parse().unwrap())
                .collect();
            (parts[0].to_string(), parts[1].to_string(), counts)
        })
        .collect()
}

fn check(max_depth: usize) {
    for (name, fen, counts) in cases() {
        let pos = Position::from_text(&fen).unwrap();
        for (i, &expected) in counts.iter().enumerate().take(max_depth) {
            assert_eq!(pos.perft(i as u32 + 1), expected, "{name} depth {}", i + 1);
        }
    }
}

#[test]
fn perft_to_depth_4() {
    check(4);
}

#[test]
#[ignore = "long: depth 5 of all six positions"]
fn perft_depth_5() {
    check(5);
}

#[test]
fn generic_perft_agrees_with_bulk_perft() {
    for (name, fen, counts) in cases() {
        let pos = Position::from_text(&fen).unwrap();
        assert_eq!(takhte_rules::perft::perft(&pos, 2), counts[1], "{name}");
    }
}
