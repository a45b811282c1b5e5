//! The static evaluation of chess and minesweeper chess: material and piece-square tables
//! ([`super::pst`]), mobility, pawn structure (doubled, isolated, passed pawns), king safety (pawn
//! shield and attacks on the king's zone, a king on a file without own pawns), bishop pair,
//! rooks on open files, pieces attacked by pawns, rooks and queens attacked by lesser pieces,
//! pieces attacked and not defended, knight outposts, connected pawns, passed pawns free to
//! advance, the kings' race to a passed pawn, bishops of opposite colours, and a little endgame
//! knowledge (a lone king is driven to the edge; a minor piece up
//! without pawns is no win). In minesweeper chess, squares that may hold a mine count half for
//! mobility. Every number comes from an [`Evaluator`]'s [`Params`]: [`TUNED_EVAL`] (fitted by
//! `scripts/tune-eval.sh`) or [`HAND_EVAL`] (the hand-written values). Chess level 6 adds a small
//! neural correction fitted on top of the tuned evaluation ([`TUNED_NET_EVAL`], [`super::net`]).

use takhte_rules::bitboard::{
    bishop_attacks_on, bit, rook_attacks_on, squares, Bitboard, KING, KNIGHT,
};
use takhte_rules::chess::{Board, Kind};
use takhte_rules::{Side, Square};

use std::sync::LazyLock;

use super::params::{Params, HAND};
use super::pst::{progress, relative_rank, Tables, PHASE};
use super::squares::{SQUARES_EG, SQUARES_MG};
use super::tuned::TUNED;

/// An evaluation's numbers with the piece-square tables built from them, for both board
/// heights.
pub struct Evaluator {
    /// The numbers.
    pub params: Params,
    eight: Tables,
    ten: Tables,
    /// Whether the neural correction ([`super::net`]) is added (8-rank board only).
    pub net: bool,
}

impl Evaluator {
    /// The evaluator of the numbers `params`.
    pub fn new(params: Params) -> Evaluator {
        Evaluator {
            eight: Tables::new(&params, 8),
            ten: Tables::new(&params, 10),
            params,
            net: false,
        }
    }

    /// The evaluator of the numbers `params` with the fitted piece-square corrections of
    /// [`super::squares`] on the 8-rank board (chess; minesweeper chess's 10-rank board keeps
    /// the formulas alone).
    pub fn with_squares(params: Params) -> Evaluator {
        let e = Evaluator::new(params);
        Evaluator {
            eight: e.eight.corrected(&SQUARES_MG, &SQUARES_EG),
            ..e
        }
    }

    /// The tables for a board of `ranks` ranks.
    pub fn tables(&self, ranks: u8) -> &Tables {
        if ranks == 10 {
            &self.ten
        } else {
            &self.eight
        }
    }

    /// The static evaluation of `b` for the side to move, in centipawns. `risky` holds the
    /// squares that may hold a mine (empty for chess): they count half for mobility.
    pub fn evaluate(&self, b: &Board, risky: Bitboard) -> i32 {
        let v = evaluate_with(self, b, risky);
        if self.net {
            v + super::net::correction(b)
        } else {
            v
        }
    }

    /// [`Evaluator::evaluate`] with the neural correction read from `acc`, the board's
    /// hidden-layer sums kept up to date by the search, instead of summed again.
    pub fn evaluate_kept(&self, b: &Board, risky: Bitboard, acc: &super::net::Accumulator) -> i32 {
        let v = evaluate_with(self, b, risky);
        if self.net {
            v + acc.correction(b.side_to_move())
        } else {
            v
        }
    }
}

/// The evaluation the app plays with: the tuned numbers ([`TUNED`]) and the piece-square
/// corrections fitted on top of them ([`super::squares`]).
pub static TUNED_EVAL: LazyLock<Evaluator> = LazyLock::new(|| Evaluator::with_squares(TUNED));
/// The tuned numbers without the corrections (for matches against [`TUNED_EVAL`]).
pub static TUNED_PLAIN_EVAL: LazyLock<Evaluator> = LazyLock::new(|| Evaluator::new(TUNED));
/// The hand-written numbers ([`HAND`]): levels 1–5, and matches against the tuned evaluation.
pub static HAND_EVAL: LazyLock<Evaluator> = LazyLock::new(|| Evaluator::new(HAND));

/// [`TUNED_EVAL`] with the neural correction ([`super::net`]) added.
pub static TUNED_NET_EVAL: LazyLock<Evaluator> = LazyLock::new(|| Evaluator {
    net: true,
    ..Evaluator::with_squares(TUNED)
});

/// The evaluation `features` ask for: [`HAND_EVAL`] with `hand_eval`, else [`TUNED_NET_EVAL`]
/// with `squares` and `net`, [`TUNED_EVAL`] with `squares` alone, or [`TUNED_PLAIN_EVAL`].
pub fn chosen(features: &crate::search::Features) -> &'static Evaluator {
    if features.hand_eval {
        &HAND_EVAL
    } else if features.squares && features.net {
        &TUNED_NET_EVAL
    } else if features.squares {
        &TUNED_EVAL
    } else {
        &TUNED_PLAIN_EVAL
    }
}

/// Every square of the a-file on a 10-rank board.
const FILE_A: Bitboard = {
    let mut f = 0u128;
    let mut r = 0;
    while r < 10 {
        f |= 1u128 << (r * 8);
        r += 1;
    }
    f
};

const fn file_mask(file: u8) -> Bitboard {
    FILE_A << file
}

const fn adjacent_files(file: u8) -> Bitboard {
    let mut m = 0;
    if file > 0 {
        m |= file_mask(file - 1);
    }
    if file < 7 {
        m |= file_mask(file + 1);
    }
    m
}

/// `FRONT_SPAN[side][square]`: the squares in front of the square (towards the enemy) on its
/// own and neighbouring files, on a 10-rank board (an 8-rank board has nothing beyond rank 8).
static FRONT_SPAN: [[Bitboard; 80]; 2] = {
    let mut t = [[0u128; 80]; 2];
    let mut sq = 0;
    while sq < 80 {
        let (file, rank) = ((sq % 8) as u8, sq / 8);
        let files = file_mask(file) | adjacent_files(file);
        let mut r = 0;
        while r < 10 {
            let row = 0xffu128 << (8 * r);
            if r > rank {
                t[0][sq] |= files & row;
            }
            if r < rank {
                t[1][sq] |= files & row;
            }
            r += 1;
        }
        sq += 1;
    }
    t
};

/// The squares attacked by `side`'s pawns.
pub fn pawn_attacks(b: &Board, side: Side) -> Bitboard {
    let pawns = b.pieces(side, Kind::Pawn);
    let (west, east) = (pawns & !FILE_A, pawns & !file_mask(7));
    let attacked = match side {
        Side::White => (west << 7) | (east << 9),
        Side::Black => (west >> 9) | (east >> 7),
    };
    attacked & b.mask()
}

/// The evaluation terms summed per side, then blended.
struct Score {
    mg: i32,
    eg: i32,
}

impl Score {
    fn add(&mut self, sign: i32, mg: i32, eg: i32) {
        self.mg += sign * mg;
        self.eg += sign * eg;
    }
}

with_feature! {
    "popcnt",
    /// [`Evaluator::evaluate`] (with the `popcnt` instruction where the processor has it:
    /// about 10% more nodes a second in the search).
    fn evaluate_with(e: &Evaluator, b: &Board, risky: Bitboard) -> i32 = evaluate_body
}

/// The evaluation itself (inlined into both versions of [`evaluate_with`]).
#[inline(always)]
fn evaluate_body(e: &Evaluator, b: &Board, risky: Bitboard) -> i32 {
    let p = &e.params;
    let ranks = b.ranks();
    let t = e.tables(ranks);
    let occ = b.occupied();
    let mut s = Score { mg: 0, eg: 0 };
    let mut phase = 0;
    let mut non_pawn = [0i32; 2];
    let mut attack_units = [0i32; 2]; // pressure on the enemy king
    let pawn_att = [pawn_attacks(b, Side::White), pawn_attacks(b, Side::Black)];
    let kings = [b.king_square(Side::White), b.king_square(Side::Black)];
    // The squares each side attacks: with every piece, and with each kind of piece.
    let mut attacked = pawn_att;
    let mut by = [[0 as Bitboard; 6]; 2];
    let mut passers = [0 as Bitboard; 2];
    let pawns = pawn_terms(p, b, pawn_att);

    for side in [Side::White, Side::Black] {
        let si = side.index();
        let sign = if side == Side::White { 1 } else { -1 };
        let own = b.side_pieces(side);
        let them = side.opponent();
        let enemy_zone = kings[them.index()]
            .map(|k| KING[k.index()] | bit(k.index()))
            .unwrap_or(0);
        let mobility_area = !own & !pawn_att[them.index()] & b.mask();
        for kind in Kind::ALL {
            let k = kind as usize;
            for sq in squares(b.pieces(side, kind)) {
                s.add(sign, t.mg[si][k][sq] as i32, t.eg[si][k][sq] as i32);
                phase += PHASE[k];
                if kind != Kind::Pawn && kind != Kind::King {
                    non_pawn[si] += super::pst::SEE_VALUE[k];
                }
                let att = match kind {
                    Kind::Knight => KNIGHT[sq] & b.mask(),
                    Kind::Bishop => bishop_attacks_on(ranks, sq, occ),
                    Kind::Rook => rook_attacks_on(ranks, sq, occ),
                    Kind::Queen => {
                        bishop_attacks_on(ranks, sq, occ) | rook_attacks_on(ranks, sq, occ)
                    }
                    _ => continue,
                };
                attacked[si] |= att;
                by[si][k] |= att;
                if kind == Kind::Knight {
                    let rr = relative_rank(Square(sq as u8), side, ranks);
                    let file = Square(sq as u8).file();
                    if rr + 1 >= ranks / 2
                        && rr + 3 <= ranks
                        && pawn_att[si] & bit(sq) != 0
                        && FRONT_SPAN[si][sq] & adjacent_files(file) & b.pieces(them, Kind::Pawn)
                            == 0
                    {
                        s.add(sign, p.outpost_mg, p.outpost_eg);
                    }
                }
                let area = att & mobility_area;
                let safe = (area & !risky).count_ones() as i32;
                let mob = 2 * safe + (area & risky).count_ones() as i32; // half-squares
                let (mg, eg) = match kind {
                    Kind::Knight => (
                        p.knight_mobility_mg_tenths * (mob - 8),
                        p.knight_mobility_eg_tenths * (mob - 8),
                    ),
                    Kind::Bishop => (
                        p.bishop_mobility_mg_tenths * (mob - 12),
                        p.bishop_mobility_eg_tenths * (mob - 12),
                    ),
                    Kind::Rook => (
                        p.rook_mobility_mg_tenths * (mob - 12),
                        p.rook_mobility_eg_tenths * (mob - 12),
                    ),
                    _ => (
                        p.queen_mobility_mg_tenths * (mob - 24),
                        p.queen_mobility_eg_tenths * (mob - 24),
                    ),
                };
                s.add(sign, mg / 20, eg / 20);
                let hits = (att & enemy_zone).count_ones() as i32;
                if hits > 0 {
                    let w = match kind {
                        Kind::Knight | Kind::Bishop => p.attack_minor,
                        Kind::Rook => p.attack_rook,
                        _ => p.attack_queen,
                    };
                    attack_units[si] += w * hits;
                }
                if kind == Kind::Rook {
                    let file = file_mask(Square(sq as u8).file());
                    let ours = b.pieces(side, Kind::Pawn) & file != 0;
                    let theirs = b.pieces(them, Kind::Pawn) & file != 0;
                    if !ours && !theirs {
                        s.add(sign, p.rook_open_mg, p.rook_open_eg);
                    } else if !ours {
                        s.add(sign, p.rook_half_open_mg, p.rook_half_open_eg);
                    }
                }
            }
        }
        if b.pieces(side, Kind::Bishop).count_ones() >= 2 {
            s.add(sign, p.bishop_pair_mg, p.bishop_pair_eg);
        }
        // Pieces attacked by enemy pawns.
        let threatened = (own
            & !b.pieces(side, Kind::Pawn)
            & !b.pieces(side, Kind::King)
            & pawn_att[them.index()])
        .count_ones() as i32;
        s.add(
            sign,
            -p.pawn_threat_mg * threatened,
            -p.pawn_threat_eg * threatened,
        );
        let (mg, eg) = pawns.score[si];
        s.add(sign, mg, eg);
        passers[si] = pawns.passers[si];
        passer_race(p, b, side, sign, passers[si], kings, &mut s);
        // Pawn shield in front of a king on its first two ranks.
        if let Some(k) = kings[si] {
            let rr = relative_rank(k, side, ranks);
            if rr <= 1 {
                let fwd: i32 = if side == Side::White { 1 } else { -1 };
                let mut shield = 0;
                for df in -1..=1 {
                    for (dr, w) in [(1, p.shield_near), (2, p.shield_far)] {
                        if let Some(q) = k.offset(df, fwd * dr, ranks) {
                            if b.pieces(side, Kind::Pawn) & bit(q.index()) != 0 {
                                shield += w;
                            }
                        }
                    }
                }
                s.add(sign, shield, 0);
            }
            if b.pieces(side, Kind::Pawn) & file_mask(k.file()) == 0 {
                s.add(sign, -p.king_open_file_mg, 0);
            }
        }
    }
    for side in [Side::White, Side::Black] {
        if let Some(k) = kings[side.index()] {
            attacked[side.index()] |= KING[k.index()] & b.mask();
        }
    }
    // Threats: majors attacked by lesser pieces, pieces attacked and not defended, and passed
    // pawns free to advance (skipped when they all weigh nothing, as in the hand-written set).
    let threats = [
        p.threat_minor_mg,
        p.threat_minor_eg,
        p.threat_rook_mg,
        p.threat_rook_eg,
        p.hanging_mg,
        p.hanging_eg,
        p.passed_free_mg,
        p.passed_free_eg,
    ]
    .iter()
    .any(|&w| w != 0);
    for side in [Side::White, Side::Black].into_iter().filter(|_| threats) {
        let (si, ti) = (side.index(), side.opponent().index());
        let sign = if side == Side::White { 1 } else { -1 };
        let queens = b.pieces(side, Kind::Queen);
        let majors = b.pieces(side, Kind::Rook) | queens;
        let pieces = majors | b.pieces(side, Kind::Knight) | b.pieces(side, Kind::Bishop);
        let by_minor = by[ti][Kind::Knight as usize] | by[ti][Kind::Bishop as usize];
        let minor = (majors & by_minor).count_ones() as i32;
        let rook = (queens & by[ti][Kind::Rook as usize]).count_ones() as i32;
        let hanging = (pieces & attacked[ti] & !attacked[si]).count_ones() as i32;
        let mg = p.threat_minor_mg * minor + p.threat_rook_mg * rook + p.hanging_mg * hanging;
        let eg = p.threat_minor_eg * minor + p.threat_rook_eg * rook + p.hanging_eg * hanging;
        let pct = if side == b.side_to_move() {
            p.threats_to_move_pct
        } else {
            100
        };
        s.add(sign, -mg * pct / 100, -eg * pct / 100);
        let fwd: i32 = if side == Side::White { 1 } else { -1 };
        for sq in squares(passers[si]) {
            let sq = Square(sq as u8);
            if let Some(stop) = sq.offset(0, fwd, ranks) {
                if (occ | attacked[ti]) & bit(stop.index()) == 0 {
                    let t = progress(relative_rank(sq, side, ranks), ranks);
                    s.add(
                        sign,
                        (p.passed_free_mg as f64 * t * t) as i32,
                        (p.passed_free_eg as f64 * t * t) as i32,
                    );
                }
            }
        }
    }
    // Bishops on squares of opposite colours and nothing else besides pawns: drawish.
    if p.opposite_bishops_pct != 100 {
        let (white, black) = (
            b.pieces(Side::White, Kind::Bishop),
            b.pieces(Side::Black, Kind::Bishop),
        );
        let rest =
            b.kind_pieces(Kind::Bishop) | b.kind_pieces(Kind::Pawn) | b.kind_pieces(Kind::King);
        let light = |one: Bitboard| Square(one.trailing_zeros() as u8).is_light();
        if occ & !rest == 0
            && white.count_ones() == 1
            && black.count_ones() == 1
            && light(white) != light(black)
        {
            s.eg = s.eg * p.opposite_bishops_pct / 100;
        }
    }
    // Safe checks: squares from which a piece of a side could check the enemy king and that
    // the enemy does not attack, one count per kind of piece, as pressure on the king.
    let safe_checks = [
        p.safe_check_knight,
        p.safe_check_bishop,
        p.safe_check_rook,
        p.safe_check_queen,
    ]
    .iter()
    .any(|&w| w != 0);
    for side in [Side::White, Side::Black]
        .into_iter()
        .filter(|_| safe_checks)
    {
        let (si, ti) = (side.index(), side.opponent().index());
        let Some(k) = kings[ti] else { continue };
        let safe = !attacked[ti] & !b.side_pieces(side) & b.mask();
        let diagonal = bishop_attacks_on(ranks, k.index(), occ);
        let straight = rook_attacks_on(ranks, k.index(), occ);
        let checks = [
            (KNIGHT[k.index()], Kind::Knight, p.safe_check_knight),
            (diagonal, Kind::Bishop, p.safe_check_bishop),
            (straight, Kind::Rook, p.safe_check_rook),
            (diagonal | straight, Kind::Queen, p.safe_check_queen),
        ];
        for (from, kind, units) in checks {
            if from & by[si][kind as usize] & safe != 0 {
                attack_units[si] += units;
            }
        }
    }
    // King safety: the attacks each side makes on the other's king zone.
    for side in [Side::White, Side::Black] {
        let sign = if side == Side::White { 1 } else { -1 };
        let u = attack_units[side.index()];
        if u > 2 {
            s.add(
                sign,
                (u * u * p.king_danger_scale / 100).min(p.king_danger_cap),
                0,
            );
        }
    }

    let phase = phase.min(24);
    let mut score = (s.mg * phase + s.eg * (24 - phase)) / 24;
    score += endgame(b, score, non_pawn);
    let stm = if b.side_to_move() == Side::White {
        score
    } else {
        -score
    };
    stm + p.tempo
}

/// What the pawn structure is worth to each side from the pawns alone (midgame and endgame,
/// before the side's sign), and each side's passed pawns.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct PawnTerms {
    score: [(i32, i32); 2],
    passers: [Bitboard; 2],
}

/// The numbers [`PawnTerms`] depend on.
fn pawn_weights(p: &Params) -> [i32; 10] {
    [
        p.doubled_mg,
        p.doubled_eg,
        p.isolated_mg,
        p.isolated_eg,
        p.connected_mg,
        p.connected_eg,
        p.passed_mg,
        p.passed_eg,
        p.passed_advance_mg,
        p.passed_advance_eg,
    ]
}

/// A remembered [`PawnTerms`]: the pawns, board size and numbers it is of (`ranks` 0: empty).
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    pawns: [Bitboard; 2],
    ranks: u8,
    weights: [i32; 10],
    terms: PawnTerms,
}

/// Entries of each thread's table of pawn structures (128 bytes each: 64 KB).
const PAWN_ENTRIES: usize = 512;

thread_local! {
    /// Pawn structures met before on this thread: a search meets the same few again and again
    /// (the pawns change only when a pawn moves or is taken).
    static PAWN_TABLE: std::cell::RefCell<Vec<PawnEntry>> =
        std::cell::RefCell::new(vec![PawnEntry::default(); PAWN_ENTRIES]);
}

/// [`PawnTerms`] of `b` with the numbers `p`, from the thread's table when it has them (the
/// same numbers as [`pawn_terms_fresh`]: an entry is used only for the same pawns, board size
/// and numbers).
#[inline(always)]
fn pawn_terms(p: &Params, b: &Board, pawn_att: [Bitboard; 2]) -> PawnTerms {
    let pawns = [
        b.pieces(Side::White, Kind::Pawn),
        b.pieces(Side::Black, Kind::Pawn),
    ];
    let weights = pawn_weights(p);
    let mix = |x: Bitboard| (x as u64) ^ ((x >> 64) as u64).rotate_left(17);
    let h = (mix(pawns[0]) ^ mix(pawns[1]).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let slot = (h >> 55) as usize % PAWN_ENTRIES;
    PAWN_TABLE.with_borrow_mut(|table| {
        let e = &mut table[slot];
        if e.ranks == b.ranks() && e.pawns == pawns && e.weights == weights {
            return e.terms;
        }
        let terms = pawn_terms_fresh(p, b, pawn_att);
        *e = PawnEntry {
            pawns,
            ranks: b.ranks(),
            weights,
            terms,
        };
        terms
    })
}

/// [`PawnTerms`] of `b` with the numbers `p`, computed: doubled and isolated pawns, pawns
/// defended by a pawn or beside one, passed pawns by how far they have come.
#[inline(always)]
fn pawn_terms_fresh(p: &Params, b: &Board, pawn_att: [Bitboard; 2]) -> PawnTerms {
    let ranks = b.ranks();
    let mut t = PawnTerms::default();
    for side in [Side::White, Side::Black] {
        let si = side.index();
        let ours = b.pieces(side, Kind::Pawn);
        let theirs = b.pieces(side.opponent(), Kind::Pawn);
        let (mut mg, mut eg) = (0, 0);
        for file in 0..8u8 {
            let n = (ours & file_mask(file)).count_ones() as i32;
            if n > 1 {
                mg -= p.doubled_mg * (n - 1);
                eg -= p.doubled_eg * (n - 1);
            }
            if n > 0 && ours & adjacent_files(file) == 0 {
                mg -= p.isolated_mg * n;
                eg -= p.isolated_eg * n;
            }
        }
        // Defended by a pawn, or with a pawn beside it on the same rank.
        let beside = ((ours & !FILE_A) >> 1) | ((ours & !file_mask(7)) << 1);
        let connected = (ours & (pawn_att[si] | beside)).count_ones() as i32;
        mg += p.connected_mg * connected;
        eg += p.connected_eg * connected;
        for sq in squares(ours) {
            if FRONT_SPAN[si][sq] & theirs == 0 {
                t.passers[si] |= bit(sq);
                let r = progress(relative_rank(Square(sq as u8), side, ranks), ranks);
                mg += (p.passed_mg as f64 + p.passed_advance_mg as f64 * r * r) as i32;
                eg += (p.passed_eg as f64 + p.passed_advance_eg as f64 * r * r) as i32;
            }
        }
        t.score[si] = (mg, eg);
    }
    t
}

/// The kings' race to the square in front of each of `side`'s passed pawns `passers`.
#[inline(always)]
fn passer_race(
    p: &Params,
    b: &Board,
    side: Side,
    sign: i32,
    passers: Bitboard,
    kings: [Option<Square>; 2],
    s: &mut Score,
) {
    let fwd: i32 = if side == Side::White { 1 } else { -1 };
    let (own_king, enemy_king) = (kings[side.index()], kings[side.opponent().index()]);
    for sq in squares(passers) {
        if let (Some(stop), Some(ok), Some(ek)) = (
            Square(sq as u8).offset(0, fwd, b.ranks()),
            own_king,
            enemy_king,
        ) {
            let lead = distance(ek, stop).min(5) - distance(ok, stop).min(5);
            s.add(sign, 0, p.passed_king_eg * lead);
        }
    }
}

/// The number of king steps between two squares.
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// Endgame corrections to the White-relative `score`.
#[inline(always)]
fn endgame(b: &Board, score: i32, non_pawn: [i32; 2]) -> i32 {
    let pawns = [
        b.pieces(Side::White, Kind::Pawn).count_ones(),
        b.pieces(Side::Black, Kind::Pawn).count_ones(),
    ];
    let strong = if score > 0 { Side::White } else { Side::Black };
    let weak = strong.opponent();
    let (si, wi) = (strong.index(), weak.index());
    let mut adj = 0;
    // A minor piece up and no pawns: hardly ever a win.
    if pawns[si] == 0 && non_pawn[si] - non_pawn[wi] <= 350 && non_pawn[si] < 1000 {
        return -score + score / 8;
    }
    // Drive a bare king to the edge and bring the own king closer.
    if pawns[wi] == 0 && non_pawn[wi] == 0 && non_pawn[si] >= 500 {
        if let (Some(wk), Some(sk)) = (b.king_square(weak), b.king_square(strong)) {
            let ranks = b.ranks() as i32;
            let cf = (2 * wk.file() as i32 - 7).abs();
            let cr = (2 * wk.rank() as i32 - (ranks - 1)).abs();
            let dist = (wk.file() as i32 - sk.file() as i32).abs()
                + (wk.rank() as i32 - sk.rank() as i32).abs();
            let bonus = 200 + 10 * (cf + cr) + 6 * (16 - dist);
            adj += if strong == Side::White { bonus } else { -bonus };
        }
    }
    adj
}

#[cfg(test)]
mod tests {
    use super::*;
    use takhte_rules::chess::Position;
    use takhte_rules::Rules;

    fn eval(fen: &str) -> i32 {
        TUNED_EVAL.evaluate(Position::from_text(fen).unwrap().board(), 0)
    }

    #[test]
    fn both_versions_of_the_evaluation_agree() {
        use rand::{Rng, SeedableRng};
        use takhte_rules::chess::MoveList;
        // Boards of random games: the version the processor runs (with
        // `popcnt` here) gives what the baseline version gives.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ];
        let mut boards: Vec<Board> = Vec::new();
        for fen in starts {
            for _ in 0..10 {
                let mut b = *Position::from_text(fen).unwrap().board();
                for _ in 0..80 {
                    let mut list = MoveList::new();
                    b.generate(&mut list);
                    let Some(&mv) = list.as_slice().get(rng.gen_range(0..list.len().max(1))) else {
                        break;
                    };
                    b.apply(mv);
                    boards.push(b);
                }
            }
        }
        let mut differ = std::collections::HashSet::new();
        for b in &boards {
            for e in [&*TUNED_EVAL, &*HAND_EVAL] {
                let v = evaluate_with(e, b, 0);
                assert_eq!(v, evaluate_body(e, b, 0));
                differ.insert(v);
            }
        }
        assert!(
            boards.len() > 1000 && differ.len() > 200,
            "{} {}",
            boards.len(),
            differ.len()
        );
        // The table of pawn structures gives what computing them gives: each board's pawns
        // with both sets of numbers in turn (the same pawns, other numbers: computed again),
        // and again when the table has seen them.
        let (mut seen, mut passers) = (0, 0);
        for _ in 0..2 {
            for b in &boards {
                let att = [pawn_attacks(b, Side::White), pawn_attacks(b, Side::Black)];
                for e in [&*TUNED_EVAL, &*HAND_EVAL] {
                    let fresh = pawn_terms_fresh(&e.params, b, att);
                    assert_eq!(pawn_terms(&e.params, b, att), fresh);
                    seen += 1;
                    passers += usize::from(fresh.passers != [0, 0]);
                }
            }
        }
        assert!(passers > seen / 10, "{passers} of {seen} with passed pawns");
    }

    /// The evaluation of `fen` for the side to move with the hand-written numbers, each name of
    /// `set` given its value.
    fn eval_with(set: &[(&str, i32)], fen: &str) -> i32 {
        let mut p = HAND;
        for (name, value) in set {
            let i = Params::NAMES.iter().position(|n| n == name).unwrap();
            p.set(i, *value);
        }
        Evaluator::new(p).evaluate(Position::from_text(fen).unwrap().board(), 0)
    }

    fn with(name: &str, value: i32, fen: &str) -> i32 {
        eval_with(&[(name, value)], fen)
    }

    /// How much setting the middlegame and endgame numbers `name` (`_mg`, `_eg`) to 100 moves
    /// the evaluation of `fen`.
    fn shift(name: &str, fen: &str) -> i32 {
        let (mg, eg) = (format!("{name}_mg"), format!("{name}_eg"));
        eval_with(&[(&mg, 100), (&eg, 100)], fen) - eval_with(&[], fen)
    }

    #[test]
    fn threats_hanging_pieces_outposts_and_free_passers_count_where_they_are() {
        // The knight on e5 attacked by the rook on h5 and not defended; defended by d4, it is not
        // hanging.
        assert_eq!(
            shift("hanging", "4k3/pp3ppp/8/4N2r/8/8/PP3PPP/4K3 w - - 0 1"),
            -100
        );
        assert_eq!(
            shift("hanging", "4k3/pp3ppp/8/4N2r/3P4/8/PP3PPP/4K3 w - - 0 1"),
            0
        );
        // The rook on e2 attacked by the knight on d4 (the rook is defended: no hanging piece).
        assert_eq!(
            shift("threat_minor", "6k1/pp3ppp/8/8/3n4/8/PP2RPPP/4K3 w - - 0 1"),
            -100
        );
        assert_eq!(
            shift("threat_minor", "6k1/pp3ppp/8/8/2n5/8/PP2RPPP/4K3 w - - 0 1"),
            0
        );
        // The queen on d2 attacked by the rook on d8; a pawn between, not.
        assert_eq!(
            shift("threat_rook", "3rk3/pp3ppp/8/8/8/8/PP1Q1PPP/4K3 w - - 0 1"),
            -100
        );
        assert_eq!(
            shift(
                "threat_rook",
                "3rk3/pp3ppp/8/3p4/8/8/PP1Q1PPP/4K3 w - - 0 1"
            ),
            0
        );
        // A knight on d5 defended by e4 with no black c- or e-pawn to drive it away; with a
        // black pawn on e7, or not defended, it is no outpost.
        assert_eq!(
            shift("outpost", "4k3/pp5p/8/3N4/4P3/8/PP3PPP/4K3 w - - 0 1"),
            100
        );
        assert_eq!(
            shift("outpost", "4k3/pp2p2p/8/3N4/4P3/8/PP3PPP/4K3 w - - 0 1"),
            0
        );
        assert_eq!(
            shift("outpost", "4k3/pp5p/8/3N4/8/8/PP3PPP/4K3 w - - 0 1"),
            0
        );
        // The passed pawn on e6 with e7 empty and not attacked; attacked by the king on d8 or
        // blocked by the bishop on e7, not free.
        let free = shift("passed_free", "k7/8/4P3/8/8/8/8/4K3 w - - 0 1");
        assert!(free > 30, "{free}");
        assert_eq!(shift("passed_free", "3k4/8/4P3/8/8/8/8/4K3 w - - 0 1"), 0);
        assert_eq!(shift("passed_free", "k7/4b3/4P3/8/8/8/8/4K3 w - - 0 1"), 0);
    }

    #[test]
    fn threats_weigh_their_share_when_their_side_is_to_move() {
        // White's knight on e5 hangs; White to move, then Black.
        let hanging = [
            ("hanging_mg", 100),
            ("hanging_eg", 100),
            ("threats_to_move_pct", 30),
        ];
        let white = "4k3/pp3ppp/8/4N2r/8/8/PP3PPP/4K3 w - - 0 1";
        let black = "4k3/pp3ppp/8/4N2r/8/8/PP3PPP/4K3 b - - 0 1";
        assert_eq!(eval_with(&hanging, white) - eval_with(&[], white), -30);
        assert_eq!(eval_with(&hanging, black) - eval_with(&[], black), 100);
    }

    #[test]
    fn a_safe_check_presses_on_the_king() {
        // The knight on d5 could check from e7, which Black does not attack; from c3 it has no
        // check, and from g4 only from f6 and h6, which the g7 pawn guards.
        for (fen, pressed) in [
            ("6k1/5ppp/8/3N4/8/8/PPP2PPP/6K1 w - - 0 1", true),
            ("6k1/5ppp/8/8/8/2N5/PPP2PPP/6K1 w - - 0 1", false),
            ("6k1/5ppp/8/8/6N1/8/PPP2PPP/6K1 w - - 0 1", false),
        ] {
            let more = with("safe_check_knight", 10, fen) - with("safe_check_knight", 0, fen);
            assert_eq!(more > 0, pressed, "{fen}: {more}");
        }
    }

    #[test]
    fn bishops_of_opposite_colours_keep_a_share_of_the_endgame_score() {
        // White three pawns up; the bishops on f1 (light) and f8 (dark), then f7 (light).
        let opposite = "4kb2/pp6/8/8/8/8/PPPPP3/4KB2 w - - 0 1";
        let (full, half) = (
            with("opposite_bishops_pct", 100, opposite),
            with("opposite_bishops_pct", 50, opposite),
        );
        assert!(half > 0 && half < full - 50, "{half} {full}");
        let same = "4k3/pp3b2/8/8/8/8/PPPPP3/4KB2 w - - 0 1";
        assert_eq!(
            with("opposite_bishops_pct", 50, same),
            with("opposite_bishops_pct", 100, same)
        );
    }

    #[test]
    fn start_is_balanced_and_material_counts() {
        let start = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(start.abs() < 30, "{start}");
        let black = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(start, black);
        assert!(eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") > 700);
        assert!(eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1") < -700);
    }
}
