//! Invite codes: six characters from an alphabet without look-alikes, and the links that carry
//! them.
//!
//! ```
//! use takhte_protocol::code::{normalize, link};
//! assert_eq!(normalize(" k7m-3qx ").unwrap(), "K7M3QX");
//! assert_eq!(normalize("takhte://join/K7M3QX").unwrap(), "K7M3QX");
//! assert_eq!(normalize("https://play.example.org/join/k7m3qx").unwrap(), "K7M3QX");
//! assert!(normalize("K0M3QX").is_err()); // zero is not in the alphabet
//! assert_eq!(link("K7M3QX"), "takhte://join/K7M3QX");
//! ```

use rand::Rng;

/// The characters of a code: digits and capital letters without 0/O, 1/I/L and U/V.
pub const ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTWXYZ";

/// The length of a code.
pub const LENGTH: usize = 6;

/// The link scheme the app opens (`takhte://join/CODE`).
pub const LINK_PREFIX: &str = "takhte://join/";

/// A new random code.
pub fn generate(rng: &mut impl Rng) -> String {
    (0..LENGTH)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}

/// The app link of a code.
pub fn link(code: &str) -> String {
    format!("{LINK_PREFIX}{code}")
}

/// Why a typed code or link was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodeError {
    /// Nothing was typed.
    Empty,
    /// The code has another length.
    Length(usize),
    /// A character that is not in the alphabet (look-alikes such as 0, O, 1, I are left out).
    Character(char),
}

impl std::fmt::Display for CodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CodeError::Empty => write!(f, "no code given"),
            CodeError::Length(n) => write!(f, "a code has {LENGTH} characters, not {n}"),
            CodeError::Character(c) => write!(f, "'{c}' is not used in codes"),
        }
    }
}

impl std::error::Error for CodeError {}

/// Latin digits for Persian (۰–۹) and Arabic-Indic (٠–٩) ones, so that a code or an address
/// typed on a Persian keyboard reads.
///
/// ```
/// use takhte_protocol::code::latin_digits;
/// assert_eq!(latin_digits("K۷M۳QX ١٢"), "K7M3QX 12");
/// ```
pub fn latin_digits(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{06F0}'..='\u{06F9}' => char::from(b'0' + (c as u32 - 0x06F0) as u8),
            '\u{0660}'..='\u{0669}' => char::from(b'0' + (c as u32 - 0x0660) as u8),
            other => other,
        })
        .collect()
}

/// Reads what a user typed or pasted: a code (any case, with spaces or dashes, Persian digits
/// too), or a link ending in `/join/CODE` (or a watch link, `/watch/CODE`). Returns the code in
/// capitals.
pub fn normalize(input: &str) -> Result<String, CodeError> {
    let folded = latin_digits(input);
    let trimmed = folded.trim();
    let tail = match (trimmed.rfind("/join/"), trimmed.rfind("/watch/")) {
        (Some(i), _) => &trimmed[i + "/join/".len()..],
        (None, Some(i)) => &trimmed[i + "/watch/".len()..],
        (None, None) => trimmed,
    };
    let tail = tail.split(['?', '#']).next().unwrap_or("");
    let code: String = tail
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-' && *c != '/')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if code.is_empty() {
        return Err(CodeError::Empty);
    }
    if let Some(c) = code
        .chars()
        .find(|c| !c.is_ascii() || !ALPHABET.contains(&(*c as u8)))
    {
        return Err(CodeError::Character(c));
    }
    if code.len() != LENGTH {
        return Err(CodeError::Length(code.chars().count()));
    }
    Ok(code)
}

/// Whether `code` is a well-formed code (exactly as [`generate`] makes them).
pub fn is_valid(code: &str) -> bool {
    code.len() == LENGTH && code.bytes().all(|b| ALPHABET.contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn codes_use_the_alphabet_only() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for _ in 0..1000 {
            let c = generate(&mut rng);
            assert!(is_valid(&c), "{c}");
            assert_eq!(normalize(&c.to_lowercase()).unwrap(), c);
        }
        for bad in ["0", "O", "1", "I", "L", "U", "V"] {
            assert!(!ALPHABET.contains(&bad.as_bytes()[0]), "{bad}");
        }
    }

    #[test]
    fn typed_codes_are_read_or_refused_clearly() {
        assert_eq!(normalize(""), Err(CodeError::Empty));
        assert_eq!(normalize("K7M3Q"), Err(CodeError::Length(5)));
        assert_eq!(normalize("K7M3QXX"), Err(CodeError::Length(7)));
        assert_eq!(normalize("K7M3Q!"), Err(CodeError::Character('!')));
        assert_eq!(normalize("K7M3QÖ"), Err(CodeError::Character('Ö')));
        assert_eq!(normalize("takhte://join/K7M3QX?x=1").unwrap(), "K7M3QX");
        assert_eq!(
            normalize("https://play.example.org/watch/k7m3qx").unwrap(),
            "K7M3QX"
        );
        assert_eq!(normalize("k۷m ۳qx").unwrap(), "K7M3QX");
    }
}
