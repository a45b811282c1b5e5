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
/// use takhte_protocol::token;
/// assert!(token::is_valid(&token::generate()));
/// assert!(!token::is_valid("not-a-token"));
/// ```
pub fn is_valid(token: &str) -> bool {
    token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A display name as the server keeps it: trimmed, every invisible character removed, spaces
/// of any kind made one plain space, at most [`crate::MAX_NAME_CHARS`]
/// characters.
///
/// Invisible characters are chosen by their Unicode general category (from the
/// `unicode-properties` tables, not a hand list): controls (Cc), format characters (Cf: the
/// direction marks, overrides and isolates that would turn the text around the name in the
/// opponent's app, zero-width spaces, the byte-order mark, the tag characters, the Arabic
/// number signs…), private-use (Co) and unassigned (Cn) code points, surrogates, and line and
/// paragraph separators; and the other default-ignorable letters and marks that draw nothing
/// (the Hangul fillers, the combining grapheme joiner). Two format characters stay, inside a
/// name only: the zero-width non-joiner that Persian writing needs (میرزا‌علی) and the
/// zero-width joiner of emoji sequences; and variation selectors stay after a visible
/// character (the emoji form of ❤️).
///
/// ```
/// use takhte_protocol::token::clean_name;
/// assert_eq!(clean_name("  Sara\n "), "Sara");
/// assert_eq!(clean_name(&"x".repeat(40)).chars().count(), 24);
/// // Direction overrides and zero-width spaces go; the Persian zero-width non-joiner stays
/// // inside a name, not at its ends.
/// assert_eq!(clean_name("\u{202E}Sara\u{200B}"), "Sara");
/// assert_eq!(clean_name("\u{200C}علی\u{200C}رضا\u{200C}"), "علی\u{200C}رضا");
/// assert_eq!(clean_name("\u{200B}\u{200C} \u{2066}"), "");
/// // Tag characters, the Arabic number sign, musical format controls, shorthand controls.
/// assert_eq!(clean_name("Bo\u{E0001}\u{E0062}b\u{0600}\u{1D173}\u{1BCA0}"), "Bob");
/// // Spaces of other kinds are one plain space.
/// assert_eq!(clean_name("Ali\u{3000}\u{00A0} Reza"), "Ali Reza");
/// ```
pub fn clean_name(name: &str) -> String {
    let mut out = String::new();
    let mut last_visible = false;
    for c in name.chars() {
        if c.is_control() {
            continue; // a line break or a tab inside a name is not a space either
        }
        if c.is_whitespace() {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
            last_visible = false;
            continue;
        }
        let keep = match c {
            '\u{200C}' | '\u{200D}' => true,
            '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' => last_visible,
            _ => !is_invisible(c),
        };
        if keep {
            out.push(c);
            last_visible = !matches!(c, '\u{200C}' | '\u{200D}');
        }
    }
    // Joiners stay inside a name (the Persian zero-width non-joiner, emoji sequences), not at
    // its ends; with spaces they are what an empty-looking name is made of.
    let edge = |c: char| c == ' ' || c == '\u{200C}' || c == '\u{200D}';
    out.trim_matches(edge)
        .chars()
        .take(crate::MAX_NAME_CHARS)
        .collect::<String>()
        .trim_matches(edge)
        .to_string()
}

/// Whether a character draws nothing and must not be in a name (see [`clean_name`]).
fn is_invisible(c: char) -> bool {
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    match c.general_category() {
        G::Control
        | G::Format
        | G::Surrogate
        | G::PrivateUse
        | G::Unassigned
        | G::LineSeparator
        | G::ParagraphSeparator => true,
        // Default-ignorable letters and marks that are not format characters.
        _ => matches!(
            c,
            '\u{034F}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{3164}'
                | '\u{FFA0}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{E0100}'..='\u{E01EF}'
        ),
    }
}
