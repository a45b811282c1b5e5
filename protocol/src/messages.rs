//! The online protocol: JSON over WebSocket, one serde enum per direction.
//!
//! A client opens a WebSocket to the server (`ws://HOST:PORT/ws`), sends [`ClientMsg::Hello`]
//! with [`PROTOCOL_VERSION`] and its player token, and gets [`ServerMsg::Welcome`] (or
//! [`ServerMsg::Bye`] and a closed socket when the versions differ). Every message is one JSON
//! object with a `type` field, at most [`MAX_MESSAGE_BYTES`] long.
//!
//! A game is named by its invite code (see [`crate::code`]). The server numbers the
//! events of each game (1, 2, 3, …); [`GameState::seq`] is the number of the last event a
//! state includes. A client that comes back sends [`ClientMsg::Open`] with the last number it
//! saw and receives the events it missed, or the whole state when that is shorter. Moves carry
//! their ply (the number of moves played before them), so a move sent twice is played once.
//!
//! ```
//! use takhte_protocol::{ClientMsg, ServerMsg};
//! let msg: ClientMsg = serde_json::from_str(r#"{"type":"move","code":"K7M3QX","ply":0,"move":"e2e4"}"#).unwrap();
//! assert_eq!(msg, ClientMsg::Move { code: "K7M3QX".into(), ply: 0, mv: "e2e4".into() });
//! let text = serde_json::to_string(&ServerMsg::Pong { nonce: 7, server_ms: 1 }).unwrap();
//! assert_eq!(text, r#"{"type":"pong","nonce":7,"server_ms":1}"#);
//! ```

use serde::{Deserialize, Serialize};

use crate::rating::{LeaderRow, PlayerPage, PoolChoice, Rating, RatingChange};

use takhte_rules::{GameKind, Side};

/// The protocol version of this build. A server refuses a client of another version.
pub const PROTOCOL_VERSION: u32 = 1;

/// The longest message either side accepts, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// The longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// The WebSocket path on the server.
pub const WS_PATH: &str = "/ws";

/// Serde forms of the rules' enums: `chess`, `dice-chess`, … and `white`/`black`.
pub(crate) mod forms {
    use super::*;
    use serde::de::Error;
    use serde::{Deserializer, Serializer};

    pub mod kind {
        use super::*;
        pub fn serialize<S: Serializer>(k: &GameKind, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(k.name())
        }
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GameKind, D::Error> {
            let text = String::deserialize(d)?;
            GameKind::parse(&text).ok_or_else(|| {
                D::Error::custom(format!(
                    "unknown game '{text}' (chess, dice-chess, draughts, mine-chess)"
                ))
            })
        }
    }

    fn side_name(s: Side) -> &'static str {
        match s {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    fn parse_side<E: Error>(text: &str) -> Result<Side, E> {
        match text {
            "white" => Ok(Side::White),
            "black" => Ok(Side::Black),
            _ => Err(E::custom(format!("unknown side '{text}' (white, black)"))),
        }
    }

    pub mod side {
        use super::*;
        pub fn serialize<S: Serializer>(v: &Side, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(side_name(*v))
        }
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Side, D::Error> {
            parse_side(&String::deserialize(d)?)
        }
    }

    pub mod opt_side {
        use super::*;
        pub fn serialize<S: Serializer>(v: &Option<Side>, s: S) -> Result<S::Ok, S::Error> {
            match v {
                Some(side) => s.serialize_some(side_name(*side)),
                None => s.serialize_none(),
            }
        }
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Side>, D::Error> {
            match Option::<String>::deserialize(d)? {
                Some(t) => parse_side(&t).map(Some),
                None => Ok(None),
            }
        }
    }
}

/// A time control: base time per side and increment per move, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClockSpec {
    /// Time for the whole game per side.
    pub base_ms: u64,
    /// Time added after each of a side's moves.
    pub increment_ms: u64,
}

/// The colour the creator of a game asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ColourChoice {
    /// The creator plays White.
    White,
    /// The creator plays Black.
    Black,
    /// The server draws the creator's colour.
    Random,
}

/// What the creator of a game chooses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSettings {
    /// Which game.
    #[serde(with = "forms::kind")]
    pub kind: GameKind,
    /// The time control, or none (no clocks).
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    /// The creator's colour.
    pub colour: ColourChoice,
    /// Listed in the lobby (public) or only reachable by its code (private).
    #[serde(default)]
    pub public: bool,
    /// A start position text (chess, dice chess, draughts; never minesweeper chess, whose text
    /// would give away the mines), or the standard start.
    #[serde(default)]
    pub position: Option<String>,
    /// Whether spectators may watch (the app offers it on for public games).
    #[serde(default)]
    pub spectators: bool,
    /// An audience game: the player to move sees the spectators' suggestions.
    #[serde(default)]
    pub audience: bool,
    /// A rated game: its result changes both players' ratings (Glicko-2, per game kind).
    #[serde(default)]
    pub rated: bool,
}

/// A message from a client to the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ClientMsg {
    /// The first message of a connection: the protocol version, the player token (32 hex
    /// digits, see [`crate::token`]) and the display name.
    Hello {
        /// [`PROTOCOL_VERSION`] of the client.
        protocol: u32,
        /// The player's secret token.
        token: String,
        /// The display name shown to the opponent (may be empty).
        #[serde(default)]
        name: String,
    },
    /// Creates a game; the creator takes a seat. Answered with [`ServerMsg::State`].
    Create {
        /// The game's settings.
        settings: GameSettings,
        /// The client's id for this request (1 to 64 letters, digits and `-`): the same
        /// create sent again, after its answer was lost with the connection, is answered with
        /// the game it made, never a second game. The state that answers carries it back.
        #[serde(default)]
        request: Option<String>,
    },
    /// Calls off the create request `request`: its game, if it was made and nobody has
    /// joined, is aborted; a copy of the create still on its way makes nothing. Answered with
    /// [`ServerMsg::Cancelled`].
    CancelCreate {
        /// The create's request id.
        request: String,
    },
    /// What an invite is before it is taken: the game, its clock, who invites and the seat
    /// left. Answered with [`ServerMsg::Invitation`] (or refused: unknown game, or full once
    /// it has begun).
    Invitation {
        /// The invite code.
        code: String,
    },
    /// Takes the free seat of a game. Answered with [`ServerMsg::State`].
    Join {
        /// The invite code.
        code: String,
    },
    /// Opens (or reopens after a lost connection) a game the player sits at: its events come
    /// to this connection from then on. With `since`, only the events after that number are
    /// sent (or the whole state, if they are too many); without it, the whole state.
    Open {
        /// The invite code.
        code: String,
        /// The number of the last event seen.
        #[serde(default)]
        since: Option<u64>,
    },
    /// Stops the events of a game coming to this connection (the game screen was left).
    Close {
        /// The invite code.
        code: String,
    },
    /// Asks for the open public games. Answered with [`ServerMsg::Lobby`].
    Lobby,
    /// Asks for the player's games that have not ended. Answered with [`ServerMsg::MyGames`].
    MyGames,
    /// Plays a move at ply `ply` (the number of moves before it), in machine notation (RULES.md:
    /// `e2e4`, `3:b2c4` with the face the server rolled, `c3xc5xe5`, `e2^`).
    Move {
        /// The invite code.
        code: String,
        /// The number of moves played before this one.
        ply: u32,
        /// The move.
        #[serde(rename = "move")]
        mv: String,
    },
    /// Dice chess: asks the server to roll the die for the turn at ply `ply`.
    Roll {
        /// The invite code.
        code: String,
        /// The number of moves played before this turn.
        ply: u32,
    },
    /// Resigns the game.
    Resign {
        /// The invite code.
        code: String,
    },
    /// Offers a draw.
    OfferDraw {
        /// The invite code.
        code: String,
    },
    /// Accepts or declines the opponent's draw offer.
    AnswerDraw {
        /// The invite code.
        code: String,
        /// Accept (true) or decline.
        accept: bool,
    },
    /// Aborts a game before each side has moved (no result).
    Abort {
        /// The invite code.
        code: String,
    },
    /// Claims the win when the opponent has been gone for [`crate::CLAIM_AFTER_MS`].
    ClaimWin {
        /// The invite code.
        code: String,
    },
    /// Offers a rematch with colours swapped, or accepts the opponent's offer.
    Rematch {
        /// The invite code of the finished game.
        code: String,
    },
    /// Changes the display name (also in the games the player sits at).
    SetName {
        /// The new name.
        name: String,
    },
    /// Watches a game as a spectator (a player of the game opens it instead). With `since`,
    /// only the events after that number.
    Watch {
        /// The invite code.
        code: String,
        /// The number of the last event seen.
        #[serde(default)]
        since: Option<u64>,
    },
    /// A spectator's suggestion for the move at ply `ply` (machine notation; in dice chess a
    /// pawn move with the face rolled, or a king move before the roll). One per spectator per
    /// move; a new one replaces the old.
    Suggest {
        /// The invite code.
        code: String,
        /// The number of moves before it.
        ply: u32,
        /// The suggested move.
        #[serde(rename = "move")]
        mv: String,
    },
    /// Asks for the public games in play that may be watched. Answered with
    /// [`ServerMsg::LiveGames`].
    LiveGames,
    /// Keeps the connection alive and measures the round trip.
    Ping {
        /// Echoed in [`ServerMsg::Pong`].
        nonce: u64,
    },
    /// Quick pairing: waits in this pool for an opponent of about the player's rating (one
    /// pool at a time: another seek moves the player). Answered with [`ServerMsg::Seeking`],
    /// then [`ServerMsg::Paired`] when an opponent is found.
    Seek {
        /// The game and the time control.
        choice: PoolChoice,
    },
    /// Leaves the pool (closing the connection does too). Answered with
    /// [`ServerMsg::SeekEnded`].
    CancelSeek,
    /// A player's page: ratings, games, recent games. Answered with [`ServerMsg::Player`].
    Player {
        /// The player's public id (the seats and the leaderboard give it).
        id: String,
    },
    /// The leaderboard of a game: its best established players, and the asker's place.
    /// Answered with [`ServerMsg::Leaderboard`].
    Leaderboard {
        /// Which game.
        #[serde(with = "forms::kind")]
        kind: GameKind,
    },
}

impl ClientMsg {
    /// The `type` words of every client message, for telling an unknown type from a malformed
    /// message.
    pub const TYPES: [&'static str; 26] = [
        "hello",
        "create",
        "cancel-create",
        "invitation",
        "join",
        "open",
        "close",
        "lobby",
        "my-games",
        "move",
        "roll",
        "resign",
        "offer-draw",
        "answer-draw",
        "abort",
        "claim-win",
        "rematch",
        "set-name",
        "ping",
        "watch",
        "suggest",
        "live-games",
        "seek",
        "cancel-seek",
        "player",
        "leaderboard",
    ];

    /// The game a message is about, if any.
    pub fn code(&self) -> Option<&str> {
        match self {
            ClientMsg::Join { code }
            | ClientMsg::Invitation { code }
            | ClientMsg::Open { code, .. }
            | ClientMsg::Close { code }
            | ClientMsg::Move { code, .. }
            | ClientMsg::Roll { code, .. }
            | ClientMsg::Resign { code }
            | ClientMsg::OfferDraw { code }
            | ClientMsg::AnswerDraw { code, .. }
            | ClientMsg::Abort { code }
            | ClientMsg::ClaimWin { code }
            | ClientMsg::Rematch { code }
            | ClientMsg::Watch { code, .. }
            | ClientMsg::Suggest { code, .. } => Some(code),
            _ => None,
        }
    }
}

/// Why the server refused a message. The game, if any, is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorCode {
    /// The message is not JSON, or a field is missing or of the wrong kind.
    BadMessage,
    /// The `type` is not one the server knows.
    UnknownType,
    /// The first message was not `hello`, or `hello` came twice.
    HelloFirst,
    /// The player token is not 32 hex digits.
    BadToken,
    /// The client speaks another protocol version.
    Protocol,
    /// No game has this code.
    UnknownGame,
    /// Both seats are taken.
    GameFull,
    /// The player does not sit at this game.
    NotAPlayer,
    /// It is the other side's turn.
    NotYourTurn,
    /// The ply does not match the game (an old or future move).
    WrongPly,
    /// The move is not legal (or not readable) in the position.
    IllegalMove,
    /// The game has ended.
    GameOver,
    /// The game has not started: the second seat is free.
    NotStarted,
    /// Dice chess: a pawn move without a roll, or with another face than the server rolled.
    ForgedDie,
    /// Dice chess: the die is already rolled for this turn (or the player cannot roll).
    CannotRoll,
    /// There is no draw offer to answer, or the player's own offer is pending.
    NoDrawOffer,
    /// The player offered a draw less than a move ago (one offer per move: no spamming).
    DrawOfferTooSoon,
    /// The game is past the point where it can be aborted.
    CannotAbort,
    /// The opponent is here, or has not been gone long enough.
    CannotClaim,
    /// No rematch is possible (the game goes on, or a rematch exists).
    CannotRematch,
    /// The settings of a new game are out of range.
    BadSettings,
    /// The player has too many games that have not ended.
    TooManyGames,
    /// Too many messages in a second.
    RateLimited,
    /// The server's storage failed; nothing was changed, try again.
    Storage,
    /// The players of this game do not allow spectators.
    NoSpectators,
    /// The game has as many spectators as it may have.
    TooManySpectators,
    /// Only a spectator watching the game suggests moves.
    NotWatching,
    /// This spectator has changed their suggestion for this move too often.
    TooManySuggestions,
    /// The same suggestion again.
    DuplicateSuggestion,
    /// No player has this public id.
    UnknownPlayer,
    /// The server failed on this request (a fault of the server's, not the client's);
    /// nothing was changed, and it may be sent again.
    Internal,
}

/// Why the server closes a connection (sent in [`ServerMsg::Bye`] just before it closes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CloseReason {
    /// A message was longer than [`MAX_MESSAGE_BYTES`].
    TooLarge,
    /// Far too many messages per second.
    RateLimited,
    /// Too many connections from this address.
    TooManyConnections,
    /// Too many refused messages.
    TooManyErrors,
    /// The client speaks another protocol version.
    Protocol,
    /// No `hello` in time, or nothing heard for too long.
    Idle,
    /// The server is shutting down.
    Shutdown,
}

/// A player's seat as others see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    /// The display name; `None` while the seat is free.
    pub name: Option<String>,
    /// The player's public id (for their page); `None` while the seat is free.
    #[serde(default)]
    pub player: Option<String>,
    /// The player's rating in this game, in a rated game.
    #[serde(default)]
    pub rating: Option<Rating>,
    /// Whether the player has a connection on the game now.
    pub online: bool,
    /// How long the player has been gone, in milliseconds (0 when online).
    pub away_ms: u64,
}

/// The clocks at the moment of an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    /// White's time left, in milliseconds.
    pub white_ms: u64,
    /// Black's time left, in milliseconds.
    pub black_ms: u64,
    /// The side whose clock runs.
    #[serde(with = "forms::opt_side", default)]
    pub running: Option<Side>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndState {
    /// The winner, or `None` for a draw (and for an aborted game).
    #[serde(with = "forms::opt_side", default)]
    pub winner: Option<Side>,
    /// The reason word: the rules' words (`checkmate`, …), `resignation`, `agreement`, `time`,
    /// `time-insufficient-material`, `abandoned`, or `aborted`.
    pub reason: String,
    /// A rated game: what it did to White's and Black's ratings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<[RatingChange; 2]>,
    /// A rated game that changed no rating, and why: `aborted` (before each side had moved),
    /// `same-opponent` (enough rated games against this opponent today).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrated: Option<String>,
}

impl EndState {
    /// An end with no rating said about it.
    pub fn new(winner: Option<Side>, reason: String) -> EndState {
        EndState {
            winner,
            reason,
            ratings: None,
            unrated: None,
        }
    }
}

/// How many suggested one move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// The move, machine notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// How many spectators suggest it.
    pub count: u32,
}

/// The spectators' suggestions for one move: each move with its count (most first) and how
/// many spectators suggested anything.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crowd {
    /// The moves suggested, most chosen first.
    pub tally: Vec<Tally>,
    /// The spectators who suggested a move.
    pub voters: u32,
}

impl Crowd {
    /// How many chose `mv`.
    pub fn count_of(&self, mv: &str) -> u32 {
        self.tally
            .iter()
            .find(|t| t.mv == mv)
            .map_or(0, |t| t.count)
    }
}

/// One move of a game as a client sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlyView {
    /// The move in machine notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The public position text after it (see [`crate::public`]).
    pub position: String,
}

/// The whole state of a game, as one client may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// The invite code.
    pub code: String,
    /// The create request this state answers (to its creator, on a create).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
    /// The number of the last event included.
    pub seq: u64,
    /// Which game.
    #[serde(with = "forms::kind")]
    pub kind: GameKind,
    /// The time control.
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    /// Whether the game is listed in the lobby.
    pub public: bool,
    /// White's and Black's seats.
    pub seats: [SeatView; 2],
    /// The seat of the player this state is for, if any.
    #[serde(with = "forms::opt_side", default)]
    pub you: Option<Side>,
    /// The public text of the first position.
    pub start: String,
    /// Dice chess: the start-roll pairs (White's value, Black's value).
    #[serde(default)]
    pub start_rolls: Vec<(u8, u8)>,
    /// Every move, with the position after it.
    pub plies: Vec<PlyView>,
    /// Dice chess: the face rolled for the turn now, not yet used.
    #[serde(default)]
    pub rolled: Option<u8>,
    /// The clocks now (`None` without a time control).
    #[serde(default)]
    pub clocks: Option<ClockState>,
    /// A draw offer waiting for an answer, by this side.
    #[serde(with = "forms::opt_side", default)]
    pub draw_offer: Option<Side>,
    /// How many moves the game had when White and Black last offered a draw: one offer a
    /// move each, so a side may offer again once the game has two more moves.
    #[serde(default)]
    pub draw_offered_at: [Option<u32>; 2],
    /// A rematch offer waiting for an answer, by this side.
    #[serde(with = "forms::opt_side", default)]
    pub rematch_offer: Option<Side>,
    /// The code of the rematch, once both agreed.
    #[serde(default)]
    pub rematch: Option<String>,
    /// How the game ended, if it has.
    #[serde(default)]
    pub end: Option<EndState>,
    /// Whether spectators may watch.
    #[serde(default)]
    pub spectators_allowed: bool,
    /// Whether the player to move sees the suggestions (an audience game).
    #[serde(default)]
    pub audience: bool,
    /// Whether the game is rated (its result changes the players' ratings).
    #[serde(default)]
    pub rated: bool,
    /// How many spectators watch now.
    #[serde(default)]
    pub spectators: u32,
    /// The suggestions for the move now (sent to spectators, and in an audience game to the
    /// player to move).
    #[serde(default)]
    pub suggestions: Option<Crowd>,
    /// This spectator's suggestion for the move now.
    #[serde(default)]
    pub your_suggestion: Option<String>,
    /// What the spectators had suggested before each move played (`crowd[i]`: before move
    /// `i`), for review: to spectators, and to the players once the game is over.
    #[serde(default)]
    pub crowd: Vec<Option<Crowd>>,
}

/// A numbered event of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum GameEvent {
    /// A player took a seat (the game starts when both seats are taken).
    Seated {
        /// The seat.
        #[serde(with = "forms::side")]
        seat: Side,
        /// The player's display name.
        name: String,
        /// The player's public id (for their page).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
        /// The player's rating in this game, in a rated game.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rating: Option<Rating>,
    },
    /// A move was played (and stored).
    Moved {
        /// The number of moves before it.
        ply: u32,
        /// The move in machine notation.
        #[serde(rename = "move")]
        mv: String,
        /// The public position text after it.
        position: String,
        /// The clocks after it.
        #[serde(default)]
        clocks: Option<ClockState>,
        /// What the spectators had suggested for it, if anything.
        #[serde(default)]
        crowd: Option<Crowd>,
    },
    /// Dice chess: the server rolled the die for the turn at `ply`.
    Rolled {
        /// The number of moves before this turn.
        ply: u32,
        /// The face, 1–6.
        face: u8,
    },
    /// A draw was offered.
    DrawOffered {
        /// By this side.
        #[serde(with = "forms::side")]
        by: Side,
    },
    /// A draw offer was declined (or withdrawn by a move).
    DrawDeclined {
        /// By this side.
        #[serde(with = "forms::side")]
        by: Side,
    },
    /// A rematch was offered.
    RematchOffered {
        /// By this side.
        #[serde(with = "forms::side")]
        by: Side,
    },
    /// Both players agreed to a rematch: the new game's code (colours swapped).
    Rematch {
        /// The new game.
        code: String,
    },
    /// A player changed their display name.
    Renamed {
        /// The seat.
        #[serde(with = "forms::side")]
        seat: Side,
        /// The new name.
        name: String,
    },
    /// The server was not running for `paused_ms` (stopped, restarted, or the machine was
    /// paused): nobody's clock ran meanwhile. The clocks now.
    Resumed {
        /// How long the server was away, in milliseconds.
        paused_ms: u64,
        /// The clocks now.
        #[serde(default)]
        clocks: Option<ClockState>,
    },
    /// The game ended.
    Ended {
        /// How.
        end: EndState,
        /// The clocks at the end.
        #[serde(default)]
        clocks: Option<ClockState>,
    },
}

/// An open public game in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyEntry {
    /// The invite code.
    pub code: String,
    /// Which game.
    #[serde(with = "forms::kind")]
    pub kind: GameKind,
    /// The time control.
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    /// The creator's name.
    pub creator: String,
    /// The creator's public id (their page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creator_id: Option<String>,
    /// The seat left for the one who joins.
    #[serde(with = "forms::side")]
    pub free_seat: Side,
    /// When it was created (milliseconds since the Unix epoch).
    pub created_ms: u64,
}

/// A public game in play that may be watched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveEntry {
    /// The invite code.
    pub code: String,
    /// Which game.
    #[serde(with = "forms::kind")]
    pub kind: GameKind,
    /// The time control.
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    /// White's and Black's names.
    pub players: [String; 2],
    /// Moves played.
    pub plies: u32,
    /// Spectators watching.
    pub spectators: u32,
}

/// One of the player's own games that has not ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The invite code.
    pub code: String,
    /// Which game.
    #[serde(with = "forms::kind")]
    pub kind: GameKind,
    /// The time control.
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    /// The player's seat.
    #[serde(with = "forms::side")]
    pub you: Side,
    /// The opponent's name, `None` while nobody has joined.
    #[serde(default)]
    pub opponent: Option<String>,
    /// Moves played.
    pub plies: u32,
    /// Whether it is the player's turn.
    pub your_turn: bool,
}

/// A message from the server to a client.
// A message is read once and handled at once: boxing the state would save nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ServerMsg {
    /// The answer to `hello`.
    Welcome {
        /// The server's protocol version.
        protocol: u32,
        /// The player's display name as the server keeps it.
        name: String,
        /// How long an opponent must be gone before the win can be claimed (milliseconds).
        claim_after_ms: u64,
        /// The player's public id (their page, their place on the leaderboard).
        #[serde(default)]
        player: String,
    },
    /// The player waits in a quick pairing pool.
    Seeking {
        /// The pool.
        choice: PoolChoice,
        /// How long the player waits before they can be paired at all: players who left rated
        /// games before they ended wait longer (milliseconds; 0 for most).
        #[serde(default)]
        held_ms: u64,
    },
    /// The player is no longer in the pool (they left it, or asked for another).
    SeekEnded,
    /// Quick pairing found an opponent: the game (its state follows).
    Paired {
        /// The game's code.
        code: String,
    },
    /// A player's page.
    Player {
        /// The page.
        page: PlayerPage,
    },
    /// A leaderboard.
    Leaderboard {
        /// Which game.
        #[serde(with = "forms::kind")]
        kind: GameKind,
        /// The best established players, best first (at most 50).
        rows: Vec<LeaderRow>,
        /// The asker's own place, when they are established in this game.
        #[serde(default)]
        you: Option<LeaderRow>,
    },
    /// A message was refused; nothing changed.
    Error {
        /// What was wrong.
        error: ErrorCode,
        /// One line of English for logs and developers (the app shows its own words).
        message: String,
        /// The game the refused message was about.
        #[serde(default)]
        code: Option<String>,
    },
    /// The open public games.
    Lobby {
        /// Newest first.
        games: Vec<LobbyEntry>,
    },
    /// The answer to `invitation`: the game an invite code opens, not yet begun.
    Invitation {
        /// The game, its clock, who invites and the seat left.
        game: LobbyEntry,
        /// Whether the game is rated.
        #[serde(default)]
        rated: bool,
    },
    /// The player's games that have not ended.
    MyGames {
        /// Newest first.
        games: Vec<GameSummary>,
    },
    /// The whole state of a game (after create, join, or open).
    State {
        /// The state.
        state: GameState,
    },
    /// A numbered event of an open game.
    Event {
        /// The game.
        code: String,
        /// The event's number.
        seq: u64,
        /// What happened.
        event: GameEvent,
    },
    /// The public games in play that may be watched.
    LiveGames {
        /// Most watched first.
        games: Vec<LiveEntry>,
    },
    /// How many spectators watch (sent a few times a second at most, when it changes).
    Crowd {
        /// The game.
        code: String,
        /// Spectators watching.
        spectators: u32,
    },
    /// The suggestions for the move at `ply` (sent a few times a second at most, when they
    /// change; to spectators, and in an audience game to the player to move).
    Suggestions {
        /// The game.
        code: String,
        /// The ply they are for.
        ply: u32,
        /// The suggestions.
        crowd: Crowd,
    },
    /// A create request was called off (the answer to `cancel-create`).
    Cancelled {
        /// The create's request id.
        request: String,
    },
    /// A player came or went (not numbered: the state always says who is here).
    Presence {
        /// The game.
        code: String,
        /// The seat.
        #[serde(with = "forms::side")]
        seat: Side,
        /// Whether the player is connected now.
        online: bool,
    },
    /// The answer to `ping`.
    Pong {
        /// The ping's nonce.
        nonce: u64,
        /// The server's clock (milliseconds since the Unix epoch).
        server_ms: u64,
    },
    /// The server closes the connection, and why.
    Bye {
        /// The reason.
        reason: CloseReason,
        /// One line of English.
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_client_type_is_listed() {
        let samples = [
            r#"{"type":"hello","protocol":1,"token":"00","name":"a"}"#,
            r#"{"type":"create","settings":{"kind":"chess","colour":"random"}}"#,
            r#"{"type":"cancel-create","request":"r1"}"#,
            r#"{"type":"invitation","code":"A"}"#,
            r#"{"type":"join","code":"A"}"#,
            r#"{"type":"open","code":"A"}"#,
            r#"{"type":"close","code":"A"}"#,
            r#"{"type":"lobby"}"#,
            r#"{"type":"my-games"}"#,
            r#"{"type":"move","code":"A","ply":0,"move":"e2e4"}"#,
            r#"{"type":"roll","code":"A","ply":0}"#,
            r#"{"type":"resign","code":"A"}"#,
            r#"{"type":"offer-draw","code":"A"}"#,
            r#"{"type":"answer-draw","code":"A","accept":true}"#,
            r#"{"type":"abort","code":"A"}"#,
            r#"{"type":"claim-win","code":"A"}"#,
            r#"{"type":"rematch","code":"A"}"#,
            r#"{"type":"set-name","name":"b"}"#,
            r#"{"type":"ping","nonce":1}"#,
            r#"{"type":"watch","code":"A"}"#,
            r#"{"type":"suggest","code":"A","ply":0,"move":"e2e4"}"#,
            r#"{"type":"live-games"}"#,
            r#"{"type":"seek","choice":{"kind":"chess","clock":{"base_ms":180000,"increment_ms":2000}}}"#,
            r#"{"type":"cancel-seek"}"#,
            r#"{"type":"player","id":"00"}"#,
            r#"{"type":"leaderboard","kind":"chess"}"#,
        ];
        // Every type word reads as its message, and every message kind has a sample (the
        // count of variants is in the match below: a new one fails to compile there).
        assert_eq!(samples.len(), ClientMsg::TYPES.len());
        for (text, ty) in samples.iter().zip(ClientMsg::TYPES) {
            let msg: ClientMsg =
                serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let back = serde_json::to_value(&msg).unwrap();
            assert_eq!(back["type"], ty);
            let _: () = match msg {
                ClientMsg::Hello { .. }
                | ClientMsg::Create { .. }
                | ClientMsg::CancelCreate { .. }
                | ClientMsg::Invitation { .. }
                | ClientMsg::Join { .. }
                | ClientMsg::Open { .. }
                | ClientMsg::Close { .. }
                | ClientMsg::Lobby
                | ClientMsg::MyGames
                | ClientMsg::Move { .. }
                | ClientMsg::Roll { .. }
                | ClientMsg::Resign { .. }
                | ClientMsg::OfferDraw { .. }
                | ClientMsg::AnswerDraw { .. }
                | ClientMsg::Abort { .. }
                | ClientMsg::ClaimWin { .. }
                | ClientMsg::Rematch { .. }
                | ClientMsg::SetName { .. }
                | ClientMsg::Watch { .. }
                | ClientMsg::Suggest { .. }
                | ClientMsg::LiveGames
                | ClientMsg::Ping { .. }
                | ClientMsg::Seek { .. }
                | ClientMsg::CancelSeek
                | ClientMsg::Player { .. }
                | ClientMsg::Leaderboard { .. } => (),
            };
        }
        let ping: ClientMsg = serde_json::from_str(r#"{"type":"ping","nonce":3}"#).unwrap();
        assert_eq!(ping, ClientMsg::Ping { nonce: 3 });
    }

    #[test]
    fn bad_values_are_errors_not_panics() {
        for text in [
            r#"{"type":"create","settings":{"kind":"go","colour":"random"}}"#,
            r#"{"type":"move","code":"A","ply":-1,"move":"e2e4"}"#,
            r#"{"type":"move","code":"A","ply":0}"#,
            r#"{"type":"move","code":"A","ply":0,"move":"e2e4","extra":1}"#,
            r#"{"type":"teleport"}"#,
            r#"[1,2]"#,
            r#""#,
        ] {
            assert!(serde_json::from_str::<ClientMsg>(text).is_err(), "{text}");
        }
    }

    #[test]
    fn events_round_trip() {
        let ev = ServerMsg::Event {
            code: "K7M3QX".into(),
            seq: 4,
            event: GameEvent::Ended {
                end: EndState::new(Some(Side::Black), "time".into()),
                clocks: Some(ClockState {
                    white_ms: 0,
                    black_ms: 1500,
                    running: None,
                }),
            },
        };
        let text = serde_json::to_string(&ev).unwrap();
        assert!(text.contains(r#""winner":"black""#), "{text}");
        assert_eq!(serde_json::from_str::<ServerMsg>(&text).unwrap(), ev);
    }
}
