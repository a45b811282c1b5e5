//! The player token: a random 128-bit secret made on the device at first start. Only the
//! token that holds a seat can move for it; the server keeps only a hash of it.

use rand::RngCore;

/// A new token: 32 lowercase hex digits from the operating system's random source.
pub fn generate() -> String {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `token` has the form of a token (32 hex digits).
///
/// ```
/// use takhte_core::net::token;
/// assert!(token::is_valid(&token::generate()));
/// assert!(!token::is_valid("not-a-token"));
/// ```
pub fn is_valid(token: &str) -> bool {
    token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A display name as the server keeps it: trimmed, control and hidden formatting characters
/// removed, at most [`crate::net::protocol::MAX_NAME_CHARS`] characters.
///
/// ```
/// use takhte_core::net::token::clean_name;
/// assert_eq!(clean_name("  Sara\n "), "Sara");
/// assert_eq!(clean_name(&"x".repeat(40)).chars().count(), 24);
/// // Direction overrides and zero-width spaces go; the Persian zero-width non-joiner stays
/// // inside a name, not at its ends.
/// assert_eq!(clean_name("\u{202E}Sara\u{200B}"), "Sara");
/// assert_eq!(clean_name("\u{200C}علی\u{200C}رضا\u{200C}"), "علی\u{200C}رضا");
/// assert_eq!(clean_name("\u{200B}\u{200C} \u{2066}"), "");
/// ```
pub fn clean_name(name: &str) -> String {
    // Joiners stay inside a name (the Persian zero-width non-joiner, emoji sequences), not at
    // its ends; with spaces they are what an empty-looking name is made of.
    let edge = |c: char| c.is_whitespace() || c == '\u{200C}' || c == '\u{200D}';
    name.chars()
        .filter(|&c| !c.is_control() && !is_hidden_format(c))
        .collect::<String>()
        .trim_matches(edge)
        .chars()
        .take(crate::net::protocol::MAX_NAME_CHARS)
        .collect::<String>()
        .trim_matches(edge)
        .to_string()
}

/// Invisible characters a name must not carry: direction overrides, embeddings, isolates and
/// marks (which would turn the text around them in the opponent's app), zero-width spaces and
/// word joiners, the byte-order mark, the soft hyphen, line and paragraph separators.
fn is_hidden_format(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
    )
}
