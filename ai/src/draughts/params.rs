//! The numbers of the draughts evaluation ([`super::eval`]), named. A man is worth 100, the
//! unit of the others. [`HAND`] holds the values written by hand (the evaluation of levels 1–5,
//! and the tuner's starting point); [`super::tuned::TUNED`] the values
//! `scripts/tune-draughts.sh` fitted to the results of self-play games. Terms with `_mg` and
//! `_eg` are blended by the number of men on the board (32 at the start: all `_mg`; none: all
//! `_eg`). Ranks are counted from the side's own back rank: rank 2 is where its front men start
//! moving from, rank 7 the last before promotion.

use crate::tune::params;

params! {
    /// The draughts evaluation's numbers (see the module's documentation).
    pub struct Params;
    /// The values written by hand before tuning.
    const HAND;
    /// A king (flying kings that capture along whole ranks and files are worth several men).
    king = 330,
    /// A man on rank 3, with many men on the board.
    rank3_mg = 3,
    /// A man on rank 4, with many men on the board.
    rank4_mg = 7,
    /// A man on rank 5, with many men on the board.
    rank5_mg = 13,
    /// A man on rank 6, with many men on the board.
    rank6_mg = 22,
    /// A man on rank 7, with many men on the board.
    rank7_mg = 36,
    /// A man on rank 3, with few men on the board.
    rank3_eg = 3,
    /// A man on rank 4, with few men on the board.
    rank4_eg = 7,
    /// A man on rank 5, with few men on the board.
    rank5_eg = 13,
    /// A man on rank 6, with few men on the board.
    rank6_eg = 22,
    /// A man on rank 7, with few men on the board.
    rank7_eg = 36,
    /// A man on the b or g file (the a and h files count 0).
    file_b = 0,
    /// A man on the c or f file.
    file_c = 2,
    /// A man on the d or e file.
    file_d = 2,
    /// Each simple move of a man, with many men on the board.
    man_mobility_mg = 3,
    /// Each simple move of a man, with few men on the board.
    man_mobility_eg = 3,
    /// Each square a king can move to.
    king_mobility = 3,
    /// A man with one of its own pieces right behind it (no enemy man can jump it from the
    /// front).
    backed = 0,
    /// A man with one of its own men beside it.
    side_by_side = 0,
    /// A man on rank 5 with no piece ahead of it on its file.
    free5 = 0,
    /// A man on rank 6 with no piece ahead of it on its file.
    free6 = 0,
    /// A man on rank 7 whose promotion square is empty.
    free7 = 0,
    /// Having a king when the opponent has none.
    only_king = 0,
    /// Trading down when ahead: the material lead times this over (the material left + 800).
    trade = 400,
    /// Two or more pieces, a king among them, against a lone king (won in the long run).
    lone_king = 150,
    /// The side to move.
    tempo = 0,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_get_and_set_agree() {
        assert_eq!(Params::NAMES.len(), 26);
        crate::tune::assert_each_number_set_alone(&HAND, 9_999);
    }
}
