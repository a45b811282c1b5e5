//! The numbers of the chess evaluation ([`super::eval`]), named: material, the coefficients of
//! the piece-square formulas ([`super::pst`]), mobility, king safety, pawn structure and a few
//! piece terms. [`HAND`] holds the values written by hand, the tuner's starting point;
//! [`super::tuned::TUNED`] the values `scripts/tune-eval.sh` fitted to Stockfish's scores.
//! Units are centipawns unless a name says otherwise; `_tenths` are tenths of a centipawn.

use crate::tune::params;

params! {
    /// The evaluation's numbers (see the module's documentation).
    pub struct Params;
    /// The values written by hand before tuning.
    const HAND;
    /// Pawn, middlegame.
    pawn_mg = 85,
    /// Pawn, endgame.
    pawn_eg = 105,
    /// Knight, middlegame.
    knight_mg = 325,
    /// Knight, endgame.
    knight_eg = 295,
    /// Bishop, middlegame.
    bishop_mg = 345,
    /// Bishop, endgame.
    bishop_eg = 315,
    /// Rook, middlegame.
    rook_mg = 480,
    /// Rook, endgame.
    rook_eg = 530,
    /// Queen, middlegame.
    queen_mg = 1000,
    /// Queen, endgame.
    queen_eg = 950,
    /// A pawn's bonus on the last rank but one (scaled by the square of its progress), middlegame.
    pawn_advance_mg = 55,
    /// The same, endgame.
    pawn_advance_eg = 110,
    /// A centre pawn (d, e) still on its start square.
    pawn_centre_home_mg = -12,
    /// A centre pawn advanced less than half way.
    pawn_centre_mg = 18,
    /// A c- or f-pawn advanced less than half way.
    pawn_near_centre_mg = 6,
    /// A knight's bonus per step towards the centre (0 at a corner, 6.5 in the middle), tenths.
    knight_centre_mg_tenths = 110,
    /// The same, endgame.
    knight_centre_eg_tenths = 90,
    /// A knight on its own back rank.
    knight_home_mg = -10,
    /// A bishop's bonus per step towards the centre, tenths.
    bishop_centre_mg_tenths = 50,
    /// The same, endgame.
    bishop_centre_eg_tenths = 40,
    /// A bishop on its own back rank.
    bishop_home_mg = -10,
    /// A rook on the c–f files.
    rook_centre_file_mg = 4,
    /// A rook on the enemy's second rank, middlegame.
    rook_seventh_mg = 20,
    /// The same, endgame.
    rook_seventh_eg = 12,
    /// A rook still in its corner.
    rook_corner_mg = -4,
    /// A queen's bonus per step towards the centre, tenths.
    queen_centre_mg_tenths = 25,
    /// The same, endgame.
    queen_centre_eg_tenths = 60,
    /// The king on its back rank, a- or h-file.
    king_home_edge = 18,
    /// The king on its back rank, b- or g-file.
    king_home_wing = 28,
    /// The king on its back rank, c- or f-file.
    king_home_flank = 8,
    /// The king on its back rank, d- or e-file.
    king_home_centre = -4,
    /// The king on its second rank, a- or h-file.
    king_second_edge = -2,
    /// The king on its second rank, b- or g-file.
    king_second_wing = -4,
    /// The king on its second rank, c- or f-file.
    king_second_flank = -14,
    /// The king on its second rank, d- or e-file.
    king_second_centre = -24,
    /// The king on its third rank (middlegame).
    king_third_mg = -34,
    /// Each rank further up (middlegame).
    king_up_mg = -10,
    /// The king's bonus per step towards the centre in the endgame, tenths.
    king_centre_eg_tenths = 110,
    /// Knight mobility per safe square, tenths, middlegame.
    knight_mobility_mg_tenths = 40,
    /// The same, endgame.
    knight_mobility_eg_tenths = 40,
    /// Bishop mobility per safe square, tenths, middlegame.
    bishop_mobility_mg_tenths = 50,
    /// The same, endgame.
    bishop_mobility_eg_tenths = 50,
    /// Rook mobility per safe square, tenths, middlegame.
    rook_mobility_mg_tenths = 20,
    /// The same, endgame.
    rook_mobility_eg_tenths = 40,
    /// Queen mobility per safe square, tenths, middlegame.
    queen_mobility_mg_tenths = 10,
    /// The same, endgame.
    queen_mobility_eg_tenths = 20,
    /// Attack units of a knight or bishop per square of the enemy king's zone it hits.
    attack_minor = 2,
    /// The same for a rook.
    attack_rook = 3,
    /// The same for a queen.
    attack_queen = 5,
    /// King danger (middlegame) is units² × this / 100.
    king_danger_scale = 25,
    /// The most king danger counts.
    king_danger_cap = 450,
    /// A rook on a file without pawns, middlegame.
    rook_open_mg = 25,
    /// The same, endgame.
    rook_open_eg = 10,
    /// A rook on a file without its own pawns, middlegame.
    rook_half_open_mg = 12,
    /// The same, endgame.
    rook_half_open_eg = 5,
    /// Two bishops or more, middlegame.
    bishop_pair_mg = 30,
    /// The same, endgame.
    bishop_pair_eg = 50,
    /// An own pawn just in front of a king on its first two ranks (per pawn, middlegame).
    shield_near = 12,
    /// An own pawn two squares in front of it.
    shield_far = 6,
    /// Each doubled pawn (a penalty), middlegame.
    doubled_mg = 12,
    /// The same, endgame.
    doubled_eg = 20,
    /// Each isolated pawn (a penalty), middlegame.
    isolated_mg = 12,
    /// The same, endgame.
    isolated_eg = 15,
    /// A passed pawn, middlegame.
    passed_mg = 8,
    /// A passed pawn, endgame.
    passed_eg = 15,
    /// A passed pawn's further bonus on the last rank but one (scaled by progress²), middlegame.
    passed_advance_mg = 90,
    /// The same, endgame.
    passed_advance_eg = 170,
    /// A passed pawn in the endgame: per step the enemy king is further from the square in
    /// front of it than the own king.
    passed_king_eg = 0,
    /// A pawn defended by a pawn or beside one (per pawn), middlegame.
    connected_mg = 0,
    /// The same, endgame.
    connected_eg = 0,
    /// A knight, bishop, rook or queen attacked by an enemy pawn (a penalty), middlegame.
    pawn_threat_mg = 0,
    /// The same, endgame.
    pawn_threat_eg = 0,
    /// The king on a file without own pawns (a penalty, middlegame).
    king_open_file_mg = 0,
    /// A rook or queen attacked by an enemy knight or bishop (a penalty, per piece), middlegame.
    threat_minor_mg = 0,
    /// The same, endgame.
    threat_minor_eg = 0,
    /// A queen attacked by an enemy rook (a penalty), middlegame.
    threat_rook_mg = 0,
    /// The same, endgame.
    threat_rook_eg = 0,
    /// A knight, bishop, rook or queen attacked and not defended (a penalty, per piece),
    /// middlegame.
    hanging_mg = 0,
    /// The same, endgame.
    hanging_eg = 0,
    /// The share, in percent, of the three terms above that counts when the side whose pieces
    /// they are is to move (it may move them away; the quiescence search only sees captures).
    threats_to_move_pct = 100,
    /// Pressure on the enemy king (units of the attack count) when a knight could check it
    /// from a square the enemy does not attack.
    safe_check_knight = 0,
    /// The same for a bishop.
    safe_check_bishop = 0,
    /// The same for a rook.
    safe_check_rook = 0,
    /// The same for a queen.
    safe_check_queen = 0,
    /// A passed pawn whose next square is empty and not attacked by the enemy (scaled by the
    /// square of its progress, as the passed-pawn bonus), middlegame.
    passed_free_mg = 0,
    /// The same, endgame.
    passed_free_eg = 0,
    /// A knight on the enemy's half of the board (ranks 4–6 from its side), defended by an
    /// own pawn and out of reach of the enemy's pawns, middlegame.
    outpost_mg = 0,
    /// The same, endgame.
    outpost_eg = 0,
    /// The endgame score kept, in percent, when the only pieces besides pawns are one bishop
    /// each, on squares of opposite colours (such endings are often drawn a pawn or two up).
    opposite_bishops_pct = 100,
    /// For the side to move.
    tempo = 10,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_get_and_set_agree() {
        let i = Params::NAMES
            .iter()
            .position(|&n| n == "rook_open_mg")
            .unwrap();
        assert_eq!(HAND.get(i), 25);
        // Setting each number changes that number and no other.
        crate::tune::assert_each_number_set_alone(&HAND, 12_345);
        let mut p = HAND;
        p.set(Params::NAMES.len(), 5);
        assert_eq!(p, HAND);
    }
}
