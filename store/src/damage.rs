//! Why a file could not be read, and the one decoder that finds out.
//!
//! Every file the store reads goes through [`decode`], which never panics: it either returns the
//! record or a [`Damage`] saying what is wrong with the file, so one bad file cannot stop the
//! others from loading.

use std::fmt;
use std::io;

use serde::de::DeserializeOwned;
use serde_json::error::Category;

use super::record::SCHEMA_VERSION;

/// What kind of damage a file has; the UI can pick its own (translated) words from this.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DamageKind {
    /// The file exists but could not be read (permissions, I/O error).
    Unreadable,
    /// The file is empty (or holds only white space).
    Empty,
    /// The JSON stops in the middle: the file was cut short.
    Truncated,
    /// The file is not JSON at all (binary bytes, stray text).
    NotJson,
    /// The file was saved by a newer version, with this schema number.
    NewerSchema(u64),
    /// Valid JSON but not the expected record: a missing field, a wrong type, an impossible value.
    WrongShape,
}

/// Why a file could not be loaded. The file itself is left on disk untouched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// What kind of damage it is.
    pub kind: DamageKind,
    /// A one-line English explanation for logs and developers, e.g. `"truncated: the JSON ends
    /// early (EOF while parsing a string at line 3 column 12)"`.
    pub reason: String,
}

impl Damage {
    /// Damage of this kind with this explanation.
    pub fn new(kind: DamageKind, reason: impl Into<String>) -> Self {
        Damage {
            kind,
            reason: reason.into(),
        }
    }

    /// The file exists but reading it failed.
    pub fn unreadable(error: &io::Error) -> Self {
        Damage::new(DamageKind::Unreadable, format!("cannot be read: {error}"))
    }
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for Damage {}

/// Reads a record of type `T` from the bytes of a file, or says why it cannot.
///
/// In order: an empty file; JSON that ends early; bytes that are not JSON; a `schema` newer than
/// [`SCHEMA_VERSION`] (checked before the shape, since a newer layout may legitimately differ);
/// then the record's own shape (missing field, wrong type), with serde's message and position.
pub(crate) fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Damage> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Damage::new(DamageKind::Empty, "empty file"));
    }
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|error| syntax_damage(&error))?;
    if let Some(schema) = value.get("schema").and_then(serde_json::Value::as_u64) {
        if schema > u64::from(SCHEMA_VERSION) {
            return Err(Damage::new(
                DamageKind::NewerSchema(schema),
                format!(
                    "saved by a newer version (schema {schema}); this version reads schema {SCHEMA_VERSION}"
                ),
            ));
        }
    }
    // Parse the bytes again rather than the value, so that shape errors keep their line and column.
    serde_json::from_slice(bytes).map_err(|error| match error.classify() {
        Category::Data => Damage::new(DamageKind::WrongShape, format!("wrong shape: {error}")),
        _ => syntax_damage(&error),
    })
}

fn syntax_damage(error: &serde_json::Error) -> Damage {
    match error.classify() {
        Category::Eof => Damage::new(
            DamageKind::Truncated,
            format!("truncated: the JSON ends early ({error})"),
        ),
        Category::Io => Damage::new(DamageKind::Unreadable, format!("cannot be read: {error}")),
        Category::Syntax | Category::Data => {
            Damage::new(DamageKind::NotJson, format!("not JSON ({error})"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{GameRecord, Settings};

    fn kind_of(bytes: &[u8]) -> DamageKind {
        decode::<GameRecord>(bytes).unwrap_err().kind
    }

    #[test]
    fn each_kind_of_damage_is_told_apart() {
        assert_eq!(kind_of(b""), DamageKind::Empty);
        assert_eq!(kind_of(b"  \n\t"), DamageKind::Empty);
        assert_eq!(
            kind_of(b"{\"schema\": 1, \"id\": \"ab"),
            DamageKind::Truncated
        );
        assert_eq!(kind_of(b"{\"schema\": 1,"), DamageKind::Truncated);
        assert_eq!(
            kind_of(&[0xff, 0x00, 0x13, 0x80, 0x7f]),
            DamageKind::NotJson
        );
        assert_eq!(kind_of(&[0u8; 64]), DamageKind::NotJson);
        assert_eq!(kind_of(b"{} trailing"), DamageKind::NotJson);
        assert_eq!(kind_of(b"{\"schema\": 7}"), DamageKind::NewerSchema(7));
        assert_eq!(kind_of(b"{\"schema\": 1}"), DamageKind::WrongShape);
        assert_eq!(kind_of(b"[1, 2, 3]"), DamageKind::WrongShape);
        assert_eq!(kind_of(b"\"just a string\""), DamageKind::WrongShape);
    }

    #[test]
    fn reasons_carry_the_details() {
        let truncated = decode::<GameRecord>(b"{\n  \"schema\": 1,\n  \"id\": \"ab").unwrap_err();
        assert!(truncated.reason.contains("line 3"), "{}", truncated.reason);
        let newer = decode::<GameRecord>(b"{\"schema\": 7}").unwrap_err();
        assert_eq!(
            newer.reason,
            "saved by a newer version (schema 7); this version reads schema 1"
        );
        let missing = decode::<GameRecord>(b"{\"schema\": 1}").unwrap_err();
        assert!(
            missing.reason.contains("missing field"),
            "{}",
            missing.reason
        );
    }

    #[test]
    fn newer_schema_wins_over_unknown_shape_even_for_settings() {
        let damage =
            decode::<Settings>(b"{\"schema\": 2, \"theme\": {\"new\": true}}").unwrap_err();
        assert_eq!(damage.kind, DamageKind::NewerSchema(2));
    }
}
