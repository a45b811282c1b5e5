//! Languages: Fluent bundles from `i18n/<lang>/takhte.ftl`, embedded in the binary, read with
//! i18n-embed; Persian digits and text direction per language.

use std::collections::HashMap;

use i18n_embed::fluent::FluentLanguageLoader;
use i18n_embed::LanguageLoader;
use rust_embed::RustEmbed;

use crate::game::Status;

#[derive(RustEmbed)]
#[folder = "i18n/"]
struct Localizations;

/// A language of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English, left to right.
    En,
    /// Persian, right to left, Persian digits.
    Fa,
}

impl Lang {
    /// Both languages.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Fa];

    /// The language code: `en`, `fa`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fa => "fa",
        }
    }

    /// Reads a language code or a locale (`fa`, `fa_IR.UTF-8`, `en-US`…); `None` for others.
    ///
    /// ```
    /// use takhte::i18n::Lang;
    /// assert_eq!(Lang::from_locale("fa_IR.UTF-8"), Some(Lang::Fa));
    /// assert_eq!(Lang::from_locale("en-GB"), Some(Lang::En));
    /// assert_eq!(Lang::from_locale("de"), None);
    /// ```
    pub fn from_locale(locale: &str) -> Option<Lang> {
        let head: String = locale
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect::<String>()
            .to_ascii_lowercase();
        match head.as_str() {
            "fa" | "per" | "fas" => Some(Lang::Fa),
            "en" | "eng" => Some(Lang::En),
            _ => None,
        }
    }

    /// Whether the language is written right to left.
    pub fn rtl(self) -> bool {
        self == Lang::Fa
    }
}

/// The system's language if it is Persian or English (Persian wins if the user lists both
/// and Persian comes first), else English.
pub fn system_lang() -> Lang {
    lang_from_locales(sys_locale::get_locales())
}

/// The first locale of the list that is Persian or English, else English.
pub fn lang_from_locales(locales: impl IntoIterator<Item = String>) -> Lang {
    locales
        .into_iter()
        .find_map(|l| Lang::from_locale(&l))
        .unwrap_or(Lang::En)
}

/// Writes the ASCII digits of `text` as Persian digits (`۰`–`۹`) for Persian; unchanged for
/// English.
///
/// ```
/// use takhte::i18n::{digits, Lang};
/// assert_eq!(digits("3+2", Lang::Fa), "۳+۲");
/// assert_eq!(digits("3+2", Lang::En), "3+2");
/// ```
pub fn digits(text: &str, lang: Lang) -> String {
    match lang {
        Lang::En => text.to_string(),
        Lang::Fa => text
            .chars()
            .map(|c| {
                if c.is_ascii_digit() {
                    char::from_u32(0x06F0 + (c as u32 - '0' as u32)).unwrap_or(c)
                } else {
                    c
                }
            })
            .collect(),
    }
}

/// First strong isolate (U+2068): the text after it takes the direction of its own first
/// strong character, apart from the sentence around it.
pub const FSI: char = '\u{2068}';
/// Pop directional isolate (U+2069): the end of an isolate.
pub const PDI: char = '\u{2069}';

/// `value` as it goes into a sentence of `lang`: as it is when it cannot disturb the
/// sentence's order (a number alone, or words of the sentence's direction only, with no
/// punctuation at their ends), else wrapped in a first strong isolate (FSI … PDI). A value
/// that already starts an isolate is left alone.
///
/// ```
/// use takhte::i18n::{isolated, Lang};
/// assert_eq!(isolated("Bob", Lang::En), "Bob");
/// assert_eq!(isolated("Bob", Lang::Fa), "\u{2068}Bob\u{2069}");
/// assert_eq!(isolated("مریم", Lang::En), "\u{2068}مریم\u{2069}");
/// assert_eq!(isolated("مریم", Lang::Fa), "مریم");
/// assert_eq!(isolated("۱۲", Lang::Fa), "۱۲");
/// // A move, a time control, a path: neutral punctuation between the parts.
/// assert_eq!(isolated("۳+۲", Lang::Fa), "\u{2068}۳+۲\u{2069}");
/// assert_eq!(isolated("3+2", Lang::En), "\u{2068}3+2\u{2069}");
/// assert_eq!(isolated("knight-like", Lang::En), "knight-like");
/// assert_eq!(isolated("2. Ke3", Lang::Fa), "\u{2068}2. Ke3\u{2069}");
/// assert_eq!(isolated("/home/sara/game.pgn", Lang::En), "\u{2068}/home/sara/game.pgn\u{2069}");
/// ```
pub fn isolated(value: &str, lang: Lang) -> String {
    use unicode_bidi::{bidi_class, BidiClass};
    if value.is_empty() || value.starts_with(['\u{2066}', '\u{2067}', FSI]) {
        return value.to_string();
    }
    let same = |c: char| match bidi_class(c) {
        BidiClass::L => !lang.rtl(),
        BidiClass::R | BidiClass::AL => lang.rtl(),
        _ => false,
    };
    let opposite = |c: char| match bidi_class(c) {
        BidiClass::L => lang.rtl(),
        BidiClass::R | BidiClass::AL => !lang.rtl(),
        _ => false,
    };
    let number = |c: char| matches!(bidi_class(c), BidiClass::EN | BidiClass::AN);
    let t = value.trim();
    // Safe: letters of the sentence's own direction and digits (a word, a number, a code), or
    // such words with punctuation between them ("knight-like") but not at their ends.
    let plain = |c: char| {
        same(c)
            || number(c)
            || matches!(
                bidi_class(c),
                BidiClass::WS | BidiClass::BN | BidiClass::NSM
            )
    };
    let safe = !value.chars().any(opposite)
        && (t.chars().all(plain)
            || (t.chars().next().is_some_and(same)
                && t.chars().last().is_some_and(|c| same(c) || number(c))));
    if safe {
        value.to_string()
    } else {
        format!("{FSI}{value}{PDI}")
    }
}

/// The translations of both languages and the current one.
pub struct I18n {
    loaders: HashMap<Lang, FluentLanguageLoader>,
    lang: Lang,
}

impl I18n {
    /// Loads both languages; `lang` is the current one.
    pub fn new(lang: Lang) -> I18n {
        let mut loaders = HashMap::new();
        for l in Lang::ALL {
            let id: unic_langid::LanguageIdentifier =
                l.code().parse().expect("valid language code");
            let loader = FluentLanguageLoader::new("takhte", id.clone());
            // Embedded files: loading can only fail if the build is broken, which tests catch.
            let _ = loader.load_languages(&Localizations, &[id]);
            // Values put into a sentence are isolated by `tr_args` itself (only where needed).
            loader.set_use_isolating(false);
            loaders.insert(l, loader);
        }
        I18n { loaders, lang }
    }

    /// The current language.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Switches the language.
    pub fn set_lang(&mut self, lang: Lang) {
        self.lang = lang;
    }

    fn loader(&self) -> &FluentLanguageLoader {
        &self.loaders[&self.lang]
    }

    /// Whether `key` exists in the current language.
    pub fn has(&self, key: &str) -> bool {
        self.loader().has(key)
    }

    /// The message `key`, or the key itself when it is missing (never a panic).
    pub fn tr(&self, key: &str) -> String {
        if self.loader().has(key) {
            self.loader().get(key)
        } else {
            key.to_string()
        }
    }

    /// The message `key` with named arguments (already formatted strings). Every value that
    /// could turn the sentence around — a name, a move, a code, a path, a reason in the other
    /// script, or with punctuation between its parts — is put in as a Unicode isolate
    /// ([`isolated`]), so that the sentence reads in its own order whatever is put into it.
    pub fn tr_args(&self, key: &str, args: &[(&str, String)]) -> String {
        if !self.loader().has(key) {
            return key.to_string();
        }
        let map: HashMap<String, String> = args
            .iter()
            .map(|(k, v)| (k.to_string(), isolated(v, self.lang)))
            .collect();
        self.loader().get_args(key, map)
    }

    /// A date in this language, of a Unix time, on the device's clock (its time zone): the
    /// Gregorian calendar in English ("2 Dec 2026"), the Solar Hijri calendar in Persian
    /// ("۱۱ آذر ۱۴۰۵", by `icu_calendar`). A game played at 1:00 in Tehran is dated that day,
    /// not the day before as in UTC.
    pub fn date(&self, unix: u64) -> String {
        self.date_at(unix, local_offset(unix))
    }

    /// [`I18n::date`] for a clock `offset_secs` east of UTC.
    pub fn date_at(&self, unix: u64, offset_secs: i32) -> String {
        let local = unix as i64 + offset_secs as i64;
        let (y, m, d) = civil_from_days(local.div_euclid(86_400));
        let (y, m, d) = match self.lang {
            Lang::En => (y, m, d),
            Lang::Fa => match icu_calendar::Date::try_new_iso(y, m, d) {
                Ok(iso) => {
                    let p = iso.to_calendar(icu_calendar::cal::Persian);
                    (
                        p.year().extended_year(),
                        p.month().ordinal,
                        p.day_of_month().0,
                    )
                }
                // A date the calendar cannot convert (a damaged file's): the Gregorian date in
                // numbers, said to be Gregorian — never Persian month names on Gregorian days.
                Err(_) => {
                    return self.tr_args(
                        "date-gregorian",
                        &[
                            ("day", self.number(d)),
                            ("month", self.number(m)),
                            ("year", self.number(y)),
                        ],
                    )
                }
            },
        };
        self.tr_args(
            "date",
            &[
                ("day", self.number(d)),
                ("month", self.tr(&format!("month-{m}"))),
                ("year", self.number(y)),
            ],
        )
    }

    /// The message `key` with a count: `$count` is the number itself (for the language's plural
    /// forms, e.g. English "1 move", "5 moves") and `$n` the number in this language's digits.
    pub fn tr_count(&self, key: &str, count: usize) -> String {
        if !self.loader().has(key) {
            return key.to_string();
        }
        let mut args = fluent::FluentArgs::new();
        args.set("count", fluent::FluentValue::from(count));
        args.set("n", fluent::FluentValue::from(self.number(count)));
        self.loader().get_args_fluent(key, Some(&args))
    }

    /// A number in this language's digits.
    pub fn number(&self, n: impl std::fmt::Display) -> String {
        digits(&n.to_string(), self.lang)
    }

    /// A clock time `m:ss` (or `h:mm:ss`), with tenths under ten seconds, in this language's digits.
    pub fn clock(&self, ms: u64) -> String {
        let s = ms / 1000;
        let text = if s >= 3600 {
            format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
        } else if ms < 10_000 {
            format!("{}:{:02}.{}", s / 60, s % 60, (ms % 1000) / 100)
        } else {
            format!("{}:{:02}", s / 60, s % 60)
        };
        self.number(text)
    }

    /// A controller status message in this language: machine-word arguments (sides, pieces,
    /// reasons, results, faces) are translated, numbers get this language's digits.
    pub fn status(&self, status: &Status) -> String {
        let mut args: Vec<(&str, String)> = Vec::new();
        for (name, value) in &status.args {
            let text = match *name {
                "side" => self.tr(&format!("side-{value}")),
                // Inside a sentence: "the white bishop".
                "owner" => self.tr(&format!("side-word-{value}")),
                "what" => self.tr(&format!("piece-word-{value}")),
                "piece" => self.tr(&format!("piece-{value}")),
                "reason" if self.has(&format!("reason-{value}")) => {
                    self.tr(&format!("reason-{value}"))
                }
                "result" => self.tr(&format!("result-{value}")),
                "face" => {
                    args.push(("name", self.tr(&format!("face-name-{value}"))));
                    self.number(value)
                }
                _ => self.number(value),
            };
            args.push((name, text));
        }
        if !self.loader().has(status.key) {
            return status.key.to_string();
        }
        let mut fluent_args = fluent::FluentArgs::new();
        for (name, text) in args {
            fluent_args.set(name, fluent::FluentValue::from(isolated(&text, self.lang)));
        }
        // A count also as a number, for the plural forms ($count picks the form, $n is
        // written in this language's digits).
        if let Some((_, count)) = status.args.iter().find(|(name, _)| *name == "count") {
            if let Ok(n) = count.parse::<u64>() {
                fluent_args.set("count", fluent::FluentValue::from(n));
                fluent_args.set("n", fluent::FluentValue::from(self.number(n)));
            }
        }
        self.loader()
            .get_args_fluent(status.key, Some(&fluent_args))
    }

    /// Every message id of `lang`'s file, for the completeness tests.
    pub fn keys(lang: Lang) -> Vec<String> {
        let path = format!("{}/takhte.ftl", lang.code());
        let Some(file) = Localizations::get(&path) else {
            return Vec::new();
        };
        let text = String::from_utf8_lossy(&file.data).into_owned();
        text.lines()
            .filter_map(|l| {
                let (id, _) = l.split_once(" =")?;
                let ok = !id.is_empty()
                    && id
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
                ok.then(|| id.to_string())
            })
            .collect()
    }
}

/// The Gregorian year, month and day of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i32, u8, u8) {
    let (y, m, d) = crate::store::civil_from_days(days);
    (y as i32, m as u8, d as u8)
}

/// How far the device's clock is east of UTC at `unix`, in seconds (its time zone and summer
/// time, from `TZ`, `/etc/localtime` or Android's time zone data); 0 when it cannot be read.
pub(crate) fn local_offset(unix: u64) -> i32 {
    use chrono::{Offset, TimeZone};
    i64::try_from(unix)
        .ok()
        .and_then(|t| chrono::Local.timestamp_opt(t, 0).single())
        .map(|d| d.offset().fix().local_minus_utc())
        .unwrap_or(0)
}

#[cfg(test)]
mod date_tests {
    use super::*;

    #[test]
    fn dates_in_both_calendars() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        let mut i = I18n::new(Lang::En);
        // 2026-12-02 is 11 Azar 1405; 2025-03-21 is 1 Farvardin 1404 (Nowruz).
        assert_eq!(i.date_at(1_796_169_600, 0), "2 Dec 2026");
        i.set_lang(Lang::Fa);
        assert_eq!(i.date_at(1_796_169_600, 0), "۱۱ آذر ۱۴۰۵");
        assert_eq!(i.date_at(1_742_515_200, 0), "۱ فروردین ۱۴۰۴");
        assert_eq!(i.date_at(1_742_428_800, 0), "۳۰ اسفند ۱۴۰۳");
        // 2 Dec 2026 22:00 UTC is already 3 Dec (12 Azar) in Tehran (+3:30), still 2 Dec in
        // New York (-5:00); 1:00 UTC on 2 Dec is 1 Dec there.
        let late = 1_796_169_600 + 22 * 3600;
        assert_eq!(i.date_at(late, 3 * 3600 + 1800), "۱۲ آذر ۱۴۰۵");
        i.set_lang(Lang::En);
        assert_eq!(i.date_at(late, -5 * 3600), "2 Dec 2026");
        assert_eq!(i.date_at(1_796_169_600 + 3600, -5 * 3600), "1 Dec 2026");
    }

    #[test]
    fn a_date_the_calendar_cannot_convert_is_said_in_one_calendar() {
        // Year 33658 (a damaged file's date): past what the Persian calendar converts.
        let far = 1_000_000_000_000;
        let (y, m, d) = civil_from_days(far / 86_400);
        let mut i = I18n::new(Lang::Fa);
        i.set_lang(Lang::Fa);
        let text = i.date_at(far as u64, 0);
        assert_eq!(
            text,
            format!(
                "{}/{}/{} میلادی",
                digits(&y.to_string(), Lang::Fa),
                digits(&m.to_string(), Lang::Fa),
                digits(&d.to_string(), Lang::Fa)
            )
        );
        for month in 1..=12 {
            let name = i.tr(&format!("month-{month}"));
            assert!(
                text.split_whitespace().all(|w| w != name),
                "{text} has the Persian month {name}"
            );
        }
    }
}
