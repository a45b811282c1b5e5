//! The recovery code: the player token in a form a person can copy or write down — 28
//! characters from an alphabet without look-alikes (no 0/O, 1/I/L), in groups of four, the
//! last two a check that catches a mistyped or swapped character. Entered on another device it
//! makes that device the same player: whoever has the code is that player.
//!
//! ```
//! use takhte_protocol::recovery::{code_of, token_of};
//! let token = "0123456789abcdef0123456789abcdef";
//! let code = code_of(token).unwrap();
//! assert_eq!(code.len(), 28 + 6); // seven groups of four, six dashes
//! assert_eq!(token_of(&code).unwrap(), token);
//! // Typed in lower case, with spaces, or in Persian digits, it reads the same.
//! assert_eq!(token_of(&code.to_lowercase().replace('-', " ")).unwrap(), token);
//! ```

/// The characters of a recovery code: 8 digits and 24 capital letters, without 0, 1, I, O.
pub const ALPHABET: &[u8; 32] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/// Characters of data (128 bits in 5-bit characters) and of check.
const DATA: usize = 26;
const CHECK: usize = 2;

/// Why a typed recovery code was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecoveryError {
    /// Another number of characters.
    Length(usize),
    /// A character that is not in the alphabet.
    Character(char),
    /// The check does not match: a character was mistyped.
    Check,
}

impl std::fmt::Display for RecoveryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecoveryError::Length(n) => write!(f, "{n} characters, not {}", DATA + CHECK),
            RecoveryError::Character(c) => write!(f, "'{c}' is not in a recovery code"),
            RecoveryError::Check => write!(f, "a character is mistyped"),
        }
    }
}

/// The two check characters of the data characters: their values weighted by position,
/// modulo the prime 1021, in two characters of five bits. One character changed changes it
/// (by at most 26 × 31 < 1021), and so do two neighbours swapped (by their difference).
fn check(values: &[u8]) -> [u8; CHECK] {
    let mut a: u32 = 0;
    for (i, v) in values.iter().enumerate() {
        a = (a + (i as u32 + 1) * (*v as u32 + 1)) % 1021;
    }
    [ALPHABET[(a / 32) as usize], ALPHABET[(a % 32) as usize]]
}

/// The recovery code of a token (32 hex digits); `None` for anything else.
pub fn code_of(token: &str) -> Option<String> {
    if !crate::token::is_valid(token) {
        return None;
    }
    let mut bits: u128 = u128::from_str_radix(token, 16).ok()?;
    // 26 characters of 5 bits hold 130 bits: the top two are zero.
    let mut values = [0u8; DATA];
    for v in values.iter_mut().rev() {
        *v = (bits & 31) as u8;
        bits >>= 5;
    }
    let mut chars: Vec<u8> = values.iter().map(|v| ALPHABET[*v as usize]).collect();
    chars.extend_from_slice(&check(&values));
    let groups: Vec<String> = chars
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect();
    Some(groups.join("-"))
}

/// The token of a typed recovery code (any case, with spaces or dashes, Persian digits too).
pub fn token_of(code: &str) -> Result<String, RecoveryError> {
    let folded = crate::code::latin_digits(code);
    let chars: Vec<char> = folded
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if chars.len() != DATA + CHECK {
        return Err(RecoveryError::Length(chars.len()));
    }
    let mut values = Vec::with_capacity(DATA + CHECK);
    for c in &chars {
        let v = ALPHABET
            .iter()
            .position(|a| *a as char == *c)
            .ok_or(RecoveryError::Character(*c))?;
        values.push(v as u8);
    }
    let (data, sum) = values.split_at(DATA);
    let expected = check(data);
    if sum
        != [
            ALPHABET.iter().position(|a| *a == expected[0]).unwrap_or(0) as u8,
            ALPHABET.iter().position(|a| *a == expected[1]).unwrap_or(0) as u8,
        ]
    {
        return Err(RecoveryError::Check);
    }
    // The top two of the 130 bits are zero: the first character is one of the first eight.
    if data[0] > 7 {
        return Err(RecoveryError::Check);
    }
    let mut bits: u128 = 0;
    for v in data {
        bits = (bits << 5) | *v as u128;
    }
    Ok(format!("{bits:032x}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_token_goes_and_comes_back_and_mistakes_are_caught() {
        for _ in 0..500 {
            let token = crate::token::generate();
            let code = code_of(&token).unwrap();
            assert!(
                code.bytes().all(|b| b == b'-' || ALPHABET.contains(&b)),
                "{code}"
            );
            assert_eq!(token_of(&code).unwrap(), token);
            // One character changed, anywhere: caught.
            let plain: Vec<char> = code.chars().filter(|c| *c != '-').collect();
            for i in 0..plain.len() {
                let mut typo = plain.clone();
                let at = ALPHABET.iter().position(|a| *a as char == typo[i]).unwrap();
                typo[i] = ALPHABET[(at + 7) % 32] as char;
                let typed: String = typo.into_iter().collect();
                assert!(token_of(&typed).is_err(), "{code}: a typo at {i} passed");
            }
            // Two neighbours swapped among the data, or the two check characters: caught
            // (when they differ).
            for i in (0..DATA - 1).chain([DATA]) {
                if plain[i] == plain[i + 1] {
                    continue;
                }
                let mut swapped = plain.clone();
                swapped.swap(i, i + 1);
                let typed: String = swapped.into_iter().collect();
                assert!(token_of(&typed).is_err(), "{code}: a swap at {i} passed");
            }
        }
        assert_eq!(code_of("not a token"), None);
        assert_eq!(token_of("ABC"), Err(RecoveryError::Length(3)));
        assert!(matches!(
            token_of("0000-0000-0000-0000-0000-0000-0000"),
            Err(RecoveryError::Character('0'))
        ));
    }
}
