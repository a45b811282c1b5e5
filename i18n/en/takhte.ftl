## Takhte — English

app-name = Takhte

## Games
game-chess = Chess
game-dice-chess = Dice chess
game-draughts = Turkish draughts
game-mine-chess = Minesweeper chess
game-chess-blurb = The classic, by the FIDE laws.
game-dice-chess-blurb = A king and fifteen pawns; the die decides how a pawn moves.
game-draughts-blurb = Dama: straight moves, flying kings, take the most you can.
game-mine-chess-blurb = Chess on 8×10 with four mines hidden in the fog.

## Home
exit-title = Leave Takhte?
exit-yes = Leave
exit-no = Stay
home-continue = Continue
home-continue-line = { $moves }, { $state }
home-new-game = New game
home-saved-games = Saved games
home-settings = Settings
home-rules = Rules
home-statistics = Statistics
home-tagline = Four board games, one board

## New game
new-game-title = New game
new-game-opponent = Opponent
opponent-computer = Against the computer
opponent-two-players = Two players on this device
new-game-level = Level
level-n = Level { $n }
level-rating = Level { $n } · about { $rating }
new-game-play-as = Play as
new-game-time = Time control
time-none = No clock
time-none-inline = no clock
new-game-layout = Two-player layout
layout-rotate = Rotate the board each turn
layout-face-to-face = Face to face (tablet on a table)
layout-fixed = Keep the board still
new-game-start = Start
new-game-dice-note = The computer plays Black; the start roll decides who begins.

## Sides and pieces
side-white = White
side-black = Black
piece-king = King
piece-queen = Queen
piece-rook = Rook
piece-bishop = Bishop
piece-knight = Knight
piece-pawn = Pawn
piece-man = Man
piece-dama-king = King

## Board
button-back = Back
button-undo = Undo
button-redo = Redo
button-hint = Hint
button-flip = Flip board
button-resign = Resign
button-offer-draw = Offer draw
button-accept-draw = Accept draw
button-decline-draw = Decline
button-roll = Roll the die
button-more = More
button-sapper = Sapper
captured-title = Captured
lost-to-mines = Lost to mines
mines-left = Mines on the board: { $n }, hidden: { $hidden }
moves-title = Moves
die-waiting = The die, not rolled yet
die-face = Face { $face }: { $name }
face-name-1 = pawn-like
face-name-2 = rook-like
face-name-3 = knight-like
face-name-4 = bishop-like
face-name-5 = king-like
face-name-6 = queen-like
start-roll = Start roll: White { $white }, Black { $black }
promotion-title = Promote to
clock-paused = paused
save-failed = Could not save the game; it will be tried again after the next move.

## Status line
status-your-turn = Your move
status-thinking = The computer is thinking…
status-turn = { $side } to move
status-check = { $side } is in check
status-roll-or-king = { $side }: roll the die or move the king
status-roll-first = Roll the die first to move a pawn
status-choose-pawn = { $side } rolled { $face } ({ $name }): choose a pawn
status-king-only = { $side } has no pawns left: move the king
status-empty-roll = No legal move with a { $face }: the turn passes
status-must-capture = { $count ->
    [one] You must capture a piece
   *[other] You must capture { $n } pieces
}
status-promoted-king = The { $owner } man became a king
status-continue-capture = Keep capturing with the same piece
status-choose-promotion = Choose the promotion piece
status-mine-destroyed = A mine destroyed the { $owner } { $what }
status-fog-lifted = The fog has lifted
status-draw-offered = { $side } offers a draw
status-draw-declined = The draw offer was declined
status-hint-roll = Hint: roll the die
status-illegal = That move is not allowed
status-aborted = The game was aborted: no result
status-game-over = { $result }: { $reason }

## Results
result-white = White wins
result-black = Black wins
result-draw = Draw
result-you-win = You win
result-you-lose = You lose
reason-checkmate = checkmate
reason-stalemate = stalemate
reason-repetition = threefold repetition
reason-fifty-moves = fifty-move rule
reason-insufficient-material = insufficient material
reason-no-pieces = no pieces left
reason-no-moves = no move left
reason-lone-man = a lone man against several pieces
reason-one-piece-each = one piece each
reason-only-kings = only the kings are left
reason-mine-exposed-king = a mine left the king exposed
reason-resignation = resignation
reason-agreement = draw agreed
reason-time = time ran out
reason-time-insufficient-material = time ran out, but no mate was possible
# The result sheet's line under the result, on its own (capitalised).
end-checkmate = Checkmate
end-stalemate = Stalemate
end-repetition = Threefold repetition
end-fifty-moves = The fifty-move rule
end-insufficient-material = Insufficient material
end-no-pieces = No pieces left
end-no-moves = No move left
end-lone-man = A lone man against several pieces
end-one-piece-each = One piece each
end-only-kings = Only the kings are left
end-mine-exposed-king = A mine left the king exposed
end-resignation = By resignation
end-agreement = Draw agreed
end-time = Time ran out
end-time-insufficient-material = Time ran out, but no mate was possible
end-abandoned = The opponent left the game
end-aborted = Called off before each side had moved: no result
result-aborted = Game aborted
saved-aborted = Aborted before each side had moved
game-over-title = Game over
game-over-rematch = Rematch
game-over-review = Review
game-over-home = Home

## Review
review-title = Review
review-first = First move
review-previous = Previous move
review-next = Next move
review-last = Last move
review-position =
    { $move }
    { $n } of { $total }
review-start = Before the first move

## Saved games
saved-title = Saved games
saved-empty = No saved games yet.
saved-resume = Resume
saved-delete = Delete
saved-damaged = This saved game is damaged and cannot be opened.
saved-moves = { $count ->
    [one] { $n } move
   *[other] { $n } moves
}
saved-vs-computer = vs computer, level { $n }
saved-two-players = two players
saved-to-move = { $side } to move

## Settings
settings-title = Settings
settings-language = Language
lang-fa = فارسی
lang-en = English
settings-theme = Board theme
theme-classic = Classic
theme-green = Green
theme-blue = Blue
settings-sound = Sound
settings-legal-moves = Show legal moves
settings-coordinates = Coordinates
settings-animation = Animation speed
anim-off = Off
anim-fast = Fast
anim-normal = Normal
anim-slow = Slow
settings-rotation = Two-player board
settings-on = On
settings-off = Off

## Statistics
stats-title = Statistics
stats-empty = No finished games yet.
stats-wins = Wins
stats-draws = Draws
stats-losses = Losses
stats-vs-computer = vs computer, level { $n }
stats-two-players = Two players (White's results)

## Rules
rules-title = Rules
rules-chess =
    Each side has a king, a queen, two rooks, two bishops, two knights and eight pawns. White moves first.
    Checkmate the opponent's king to win: it is attacked and has no escape. A move may never leave your own king in check.
    Castling: the king moves two squares towards an unmoved rook, which jumps over it, if neither has moved, the squares between are empty and the king does not pass through or land on an attacked square, nor castle out of check.
    A pawn that has just made a double step can be taken en passant, on the very next move only. A pawn reaching the last rank becomes a queen, rook, bishop or knight, as you choose.
    Draws: stalemate, the same position three times, fifty moves by each side without a capture or pawn move, or too little material to mate.
rules-dice-chess =
    Each side has a king and fifteen pawns. Both players roll the die; the higher roll moves first, and on a tie both roll again.
    On your turn either move your king one square without rolling, or roll the die and move one pawn with the power of the face: 1 pawn-like (one step forward, or a diagonal capture forward), 2 rook-like, 3 knight-like, 4 bishop-like, 5 king-like, 6 queen-like. Faces 2 to 6 move in every direction, backward and sideways too; rook, bishop and queen moves go at most four squares. The power lasts for that move only.
    A knight-like move may not give check. Pawns never promote, and nothing ever captures a king; the two kings never stand side by side.
    If the roll gives you no legal pawn move, your turn passes; if your king is in check at that moment, you lose. Checkmate wins; only two kings left is a draw.
rules-draughts =
    Men move one square forward, left or right, never backward or diagonally. They capture by jumping over an enemy piece next to them onto the empty square beyond.
    A man that ends its move on the far rank becomes a king. Kings move any number of empty squares along a rank or file and capture at any distance, landing on any empty square beyond.
    Capturing is compulsory and a piece goes on capturing while it can. You must take the most pieces possible. A king may not turn back 180° between two jumps.
    You lose when you have no pieces or no moves left, or only one man against two or more pieces. One piece each is a draw, and so is the same position three times.
rules-mine-chess =
    Chess on a board of 8 files and 10 ranks. Four mines are hidden in the fog of ranks 4 to 7.
    When a piece lands, its square and the fogged squares around it are revealed, showing how many mines touch each one. When every mine is found or gone, the fog lifts.
    A piece that lands on a mine is destroyed with it. A king removes the mine safely. A pawn can sweep the square in front of it instead of moving: the sapper action.
    If a mine destroys your piece and leaves your king in check, you lose at once. Pawns always become queens; there is no en passant and no fifty-move rule.

## Online
home-play-online = Play online with a friend
saved-online = online
online-title = Play online
online-no-server = No game server is set
online-intro-title = Play with people
online-intro = Play a friend on another phone or in a browser, or someone about as strong as you. The games are kept on a Takhte game server: type the address of one below (a friend's, a club's or your own), then your name.
online-server-placeholder = chess.example.org
online-server = Server address
online-connect = Connect
online-your-name = Your name
online-name-placeholder = Shown to your opponent
online-save = Save
online-create = Create a game
online-lobby = Open games
online-join-code = Join with a code or link
online-code-placeholder = Code or link
online-join = Join
online-invited = You are invited to a game
online-invited-by = { $name } invites you to a game
online-invited-details = { $game }, { $clock }: you play { $side }
online-invited-details-rated = { $game }, { $clock }, rated: you play { $side }
online-invited-name = The name your opponent will see:
online-invited-join = Join the game
online-in-progress = Your online games
online-open = Open
online-create-title = Create an online game
online-which-game = Game
online-your-colour = Your colour
online-colour-random = Random
online-who-can-join = Who can join
online-private = Only people with the invite code
online-public = Anyone, from the list of open games
online-create-button = Create
online-lobby-title = Open games
online-refresh = Refresh
online-lobby-empty = Nobody is waiting for an opponent right now. Create a game and others will see it here.
online-lobby-line = { $name }, { $clock }, your colour: { $side }
online-waiting-title = Waiting for your friend
online-waiting-line = { $game }, { $clock }, your colour: { $side }. Waiting for your friend to join…
online-invite-code = Invite code
online-invite-link = Invite link
online-share-help = Send the code or the link to your friend. The game starts as soon as they join.
online-copy-link = Copy link
online-send-invite = Send invite…
online-invite-chooser = Invite a friend
online-link-copied = Copied. Paste it into a message to your friend.
online-invite-message = Play { $game } with me on Takhte: { $link } (invite code { $code })
online-cancel-game = Cancel the game
online-claim-win = Claim the win
online-abort = Abort the game
online-anonymous = Player
online-you = { $name } (you)
online-conn-short-connected = Connected
online-conn-short-plain = Connected, not encrypted
online-conn-short-connecting = Reconnecting…
online-conn-short-offline = Offline
online-connected = Connected to { $server }
online-connected-plain = Connected to { $server } (not encrypted)
online-encrypted = Encrypted connection
online-tls-wrong-name = The security certificate of { $server } is not valid for this address.
online-tls-expired = The security certificate of { $server } has expired.
online-tls-self-signed = { $server } signed its own security certificate; no authority vouches for it, so it is not trusted.
online-tls-unknown = The security certificate of { $server } comes from an authority this app does not know.
online-tls-not-tls = { $server } does not speak the encrypted protocol. Check the address (a server without encryption takes ws://).
online-tls-needs-tls = { $server } takes encrypted connections only: write wss:// in the address.
online-tls-other = The encrypted connection to { $server } failed ({ $reason }).
online-connecting = Connecting…
online-reconnecting = Reconnecting…
online-offline = Offline: { $server } cannot be reached
online-row-title = { $game } with { $name }
online-row-waiting = Waiting for an opponent
online-row-your-turn = Your turn
online-row-their-turn = Your opponent's turn
online-waiting-opponent = Waiting for an opponent
online-opponent-here = { $name } is here
online-opponent-gone = { $name } has left ({ $seconds } s)
online-opponent-left = { $name } has left
online-creating = Creating the game…
online-create-unreachable = Cannot reach { $server }. Trying again…
online-cancel-create = Cancel
online-claim-in = You can claim the win in { $seconds } s
online-rematch-sent = Rematch offered; waiting for the answer.
online-rematch-offered = { $name } wants a rematch.
status-waiting-opponent = Waiting for an opponent to join
status-sending = Sending your move…
status-their-turn = Your opponent's move
button-offer-draw-later = Offer a draw after the next move
status-draw-offer-declined = Your draw offer was declined
status-draw-offer-sent = You offered a draw
status-draw-offer-received = Your opponent offers a draw
reason-abandoned = the opponent left the game
reason-aborted = the game was aborted
online-error-unknown-game = No game has this code. Check the code and try again.
online-error-game-full = Both seats of this game are taken.
online-error-not-a-player = You are not a player of this game.
online-error-not-your-turn = It is not your turn.
online-error-out-of-step = The game moved on meanwhile; here it is as it stands.
online-error-illegal-move = The server did not accept that move.
online-error-game-over = This game has ended.
online-error-not-started = Nobody has joined yet.
online-error-die = The server rolls the die: roll first.
online-error-no-draw-offer = There is no draw offer to answer.
online-error-draw-offer-too-soon = You can offer a draw again after the next move.
online-error-cannot-abort = A game can be aborted only before each side has moved.
online-error-cannot-claim = Your opponent has not been gone long enough.
online-error-cannot-rematch = A rematch is not possible now.
online-error-bad-settings = The server did not accept these settings.
online-error-too-many-games = You have too many games in progress. Finish one first.
online-error-rate-limited = Too many requests; wait a moment.
online-error-storage = The server could not save this; nothing was lost. Try again.
online-error-internal = The server failed on this; nothing was changed. Try again.
online-error-protocol = This app and the server speak different versions. Update the app.
online-error-client = The server did not understand the app; try again.
online-error-too-many-connections = Too many connections from your network to this server.
online-error-shutdown = The server is restarting; reconnecting…
online-error-closed = The server closed the connection.
online-error-code-empty = Type the invite code first.
online-error-code-length = An invite code has six letters and digits.
online-error-code-character = That is not an invite code: codes use capital letters and the digits 2 to 9.
online-error-address = This server address cannot be used. Type it like 192.168.1.20:7878.

## Spectators
online-live = Live games
online-watch = Watch
online-live-title = Live games
online-live-empty = No public game is being played right now.
online-live-row-title = { $game }: { $white } against { $black }
online-live-row-line = move { $move }, { $spectators } watching
online-spectators-heading = Spectators
online-allow-spectators = Spectators may watch
online-audience = Audience game: the player to move sees the suggestions
online-audience-note = Everyone who joins sees this: the spectators' suggested moves are shown to the player to move as faint arrows.
online-spectators = { $n } watching
online-audience-game = Audience game, { $spectators }
online-watching-line = { $white } (White) against { $black } (Black)
online-watching-title = Watching { $game }
status-watching-turn = { $side } to move: play your suggestion
status-watching-rolled = { $side } rolled { $face }: play your suggestion
status-watching-review = Looking back; step forward to return
crowd-item = { $move } — { $count }
list-separator = {", "}
crowd-suggested = Suggested: { $list }
crowd-played = { $move } played, suggested by { $matched } of { $voters } spectators
online-error-no-spectators = The players of this game do not allow spectators.
online-error-too-many-spectators = This game has as many spectators as it can take.
online-error-not-watching = Only spectators suggest moves.
online-error-too-many-suggestions = You have changed your suggestion for this move too often.
online-error-duplicate-suggestion = You suggested that move already.

## Dates, lists and titles
date-gregorian = { $year }-{ $month }-{ $day }
date = { $day } { $month } { $year }
month-1 = Jan
month-2 = Feb
month-3 = Mar
month-4 = Apr
month-5 = May
month-6 = Jun
month-7 = Jul
month-8 = Aug
month-9 = Sep
month-10 = Oct
month-11 = Nov
month-12 = Dec
saved-line = { $opponent }, { $moves }
saved-state-line = { $state }, { $date }
saved-result = { $result }: { $reason }
saved-review = Review
saved-damaged-title = Saved game
saved-damaged-details = File { $file }: { $reason }
damage-unreadable = the file cannot be read
damage-empty = the file is empty
damage-truncated = the file stops in the middle
damage-not-json = the file is not a saved game
damage-newer = it was saved by a newer version of Takhte
damage-wrong-shape = the file does not hold a whole game
damage-replay = move { $n } is no longer legal
damage-position = its start position does not read
saved-details = Details
saved-hide-details = Hide details
saved-delete-title = Delete this saved game?
saved-delete-body = It cannot be brought back.
saved-delete-keep = Keep it
stats-row-title = { $game }, { $mode }
stats-online = Online
home-continue-title = Continue: { $game }
title-vs-computer = { $game }, { $level }
side-computer = { $side } (computer)
settings-move-letters = Chess moves with letters (Nf3)

side-word-white = white
side-word-black = black
piece-word-king = king
piece-word-queen = queen
piece-word-rook = rook
piece-word-bishop = bishop
piece-word-knight = knight
piece-word-pawn = pawn
piece-word-man = man
piece-word-dama-king = king
abort-title = Abort this game?
abort-note = It ends for both of you, with no result.
resign-title = Resign this game?
resign-keep = Keep playing

# Sharing a game as text, and opening one.
button-share = Share game
button-share-short = Share
share-title = Share game
share-about-pgn = The game in PGN, the text every chess app reads. Copy it into a message, or save it as a file.
share-about-record = The game as text: its start position and every move. Takhte opens it again with “Open a game from text” in Saved games.
share-copy = Copy
share-save = Save as file
share-close = Close
share-copied = Copied. Paste it into a message or another app.
share-send = Send…
share-send-failed = The phone's share menu did not open. Copy the text instead.
share-saved = Saved as { $path }
share-disk-full = The file was not saved: the device is full.
share-save-failed = The file was not saved ({ $reason }).
io-error-permission = the folder may not be written to
io-error-not-found = the folder is not there
io-error-other = the device refused to write it
import-open = Open a game from text
import-title = Open a game
import-about = Paste the text of a game here: PGN from any chess app, or a game shared from Takhte. It opens at its last move for review, and is kept with your saved games.
import-placeholder = [Event "…"] 1. e4 e5 2. Nf3 Nc6 …
import-paste = Paste
import-go = Open
import-error-empty = There is no game in this text.
import-error-variant = { $name } is not one of Takhte's games.
import-error-position = The start position (the FEN tag) cannot be read.
import-error-unclosed = A comment {"{"} or a variation ( in the text is not closed.
import-error-too-long = The game is too long: Takhte opens games of up to { $max } moves.
import-error-move = { $move } is not a legal move in that position.

## Quick pairing, ratings, the player page, the leaderboard, the recovery code
online-error-unknown-player = No player has this page.
online-with-friend = Play a friend
online-rated = Rated game (the result changes both ratings)
quick-title = Quick pairing
quick-custom = Other game or clock…
quick-custom-seek = Find an opponent for this (rated)
quick-looking = Looking for an opponent…
quick-cancel = Cancel
quick-pool = { $game } { $clock }
quick-waiting-line = { $pool }, waiting { $time }
quick-held = You left rated games before they ended: you wait { $seconds } s longer.
quick-needs-clock = Choose a clock to find an opponent: quick pairing always plays with one.
leaderboard-title = Leaderboard
leaderboard-empty = No established player in this game yet.
leaderboard-you = Your place: { $place }, rating { $rating }
leaderboard-you-none = After a few rated games you will have a place here too.
player-title = Player
player-recent = Recent games
player-no-games = This player has not finished an online game yet.
player-loading = Loading…
player-kind-line = { $played } games: { $wins } won, { $draws } drawn, { $losses } lost
player-recent-title = { $game } against { $opponent }
player-result-win = Won
player-result-draw = Drawn
player-result-loss = Lost
player-rated-line = { $result }, rated
rating-provisional = { $rating }?
rating-change = { $before } → { $after } ({ $diff })
rating-yours = Your rating: { $change }
rating-both = White { $white }, Black { $black }
rating-unrated-aborted = Aborted: no rating changed.
rating-unrated-same-opponent = Not rated: you have played enough rated games against this opponent today.
recovery-title = Recovery code
recovery-warning = Whoever has this code is you in Takhte: with it, another phone has your ratings and your games. Give it to nobody, and write it down somewhere safe.
recovery-copy = Copy the code
recovery-enter-help = On a new phone? Enter the code of your old one here to be the same player. This phone's player now is replaced: if you want it back later, write its code down first.
recovery-placeholder = XXXX-XXXX-…
recovery-enter = Use this code
recovery-copied = The code is copied.
recovery-error-empty = Type or paste a recovery code.
recovery-error-length = A recovery code has 28 letters and digits.
recovery-error-character = This code has a character that recovery codes do not use.
recovery-error-check = A character of this code is mistyped: look again.
recovery-error-save = The code could not be saved on this phone (is it full?); nothing changed.
recovery-same = This is already this phone's code.
recovery-done = You are that player on this phone now; your games come from the server.
online-rating-of = rating { $rating }
