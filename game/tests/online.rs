//! The controller of an online game fed with the server's states, as the online session does.

use std::sync::Arc;

use takhte_ai::Standard;
use takhte_game::{Controller, GameEnd, OnlineState};
use takhte_rules::{AnyGame, GameKind, Side};

fn state(draw_offer: Option<Side>, end: Option<GameEnd>) -> OnlineState {
    OnlineState {
        moves: Vec::new(),
        positions: vec![AnyGame::start(GameKind::Chess, 0)],
        started: true,
        rolled: None,
        clocks: None,
        draw_offer,
        draw_offer_too_soon: false,
        end,
        suggestions: None,
        crowd: Vec::new(),
        your_suggestion: None,
    }
}

/// A declined draw offer is said until the game ends; then the status is the result, not the
/// old line (testers saw «your draw offer was declined» behind a resignation).
#[test]
fn the_end_replaces_a_stale_line() {
    let mut c = Controller::online(
        GameKind::Chess,
        Vec::new(),
        Some(Side::White),
        &state(None, None),
        Arc::new(Standard),
    )
    .unwrap();
    c.sync_online(&state(Some(Side::White), None));
    assert_eq!(c.view().status.key, "status-draw-offer-sent");
    c.sync_online(&state(None, None));
    assert_eq!(c.view().status.key, "status-draw-offer-declined");
    c.sync_online(&state(None, Some(GameEnd::Resigned(Side::White))));
    assert_eq!(c.view().status.key, "status-game-over");
}
