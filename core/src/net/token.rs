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

/// A display name as the server keeps it: trimmed, control characters removed, at most
/// [`crate::net::protocol::MAX_NAME_CHARS`] characters.
///
/// ```
/// use takhte_core::net::token::clean_name;
/// assert_eq!(clean_name("  Sara\n "), "Sara");
/// assert_eq!(clean_name(&"x".repeat(40)).chars().count(), 24);
/// ```
pub fn clean_name(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .chars()
        .take(crate::net::protocol::MAX_NAME_CHARS)
        .collect::<String>()
        .trim()
        .to_string()
}
