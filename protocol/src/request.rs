//! Request ids: a client's name for one create, so that the same create sent again (its
//! answer lost with the connection) makes one game, not two.

use rand::Rng;

/// The longest request id.
pub const MAX_LEN: usize = 64;

/// Whether `id` is a request id: 1 to [`MAX_LEN`] ASCII letters, digits and `-`.
///
/// ```
/// use takhte_protocol::request;
/// assert!(request::valid("7f3a-19c2"));
/// assert!(!request::valid(""));
/// assert!(!request::valid("a b"));
/// ```
pub fn valid(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_LEN
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// A new random request id (16 hex digits).
pub fn generate() -> String {
    format!("{:016x}", rand::thread_rng().gen::<u64>())
}

#[cfg(test)]
mod tests {
    #[test]
    fn generated_ids_are_valid_and_differ() {
        let (a, b) = (super::generate(), super::generate());
        assert!(super::valid(&a) && super::valid(&b));
        assert_ne!(a, b);
        assert!(!super::valid(&"x".repeat(super::MAX_LEN + 1)));
        assert!(!super::valid("é"));
    }
}
