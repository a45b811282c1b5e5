//! Game ids: file-name safe, sortable by time, and checked before they touch a path.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// The `YYYYMMDD-HHMMSS` part of an id, in UTC, for seconds since the Unix epoch.
pub(crate) fn timestamp(now_unix: u64) -> String {
    let days = (now_unix / 86_400) as i64;
    let seconds = now_unix % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}{month:02}{day:02}-{:02}{:02}{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// Year, month (1–12) and day (1–31) of a day count since 1970-01-01 (proleptic Gregorian).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    // Howard Hinnant's algorithm, from "chrono-Compatible Low-Level Date Algorithms".
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The next 16-bit suffix: a random start for this process, then counting up, so ids made by one
/// process never repeat (for 65 536 calls) and two processes are unlikely to meet.
pub(crate) fn next_suffix() -> u16 {
    static START: OnceLock<u32> = OnceLock::new();
    static COUNT: AtomicU32 = AtomicU32::new(0);
    let start = *START.get_or_init(|| {
        let mut hasher = RandomState::new().build_hasher();
        // The browser has no process ids: its clock and hasher keys alone.
        #[cfg(not(target_arch = "wasm32"))]
        hasher.write_u32(std::process::id());
        if let Ok(elapsed) = web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH) {
            hasher.write_u128(elapsed.as_nanos());
        }
        hasher.finish() as u32
    });
    start.wrapping_add(COUNT.fetch_add(1, Ordering::Relaxed)) as u16
}

/// Whether `id` can name a file inside `games/` and nothing else: not empty, no leading dot (our
/// temporary and hidden files), no path separators or NUL, at most 200 bytes.
pub(crate) fn is_valid(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 200
        && !id.starts_with('.')
        && !id.contains(['/', '\\', '\0', ':'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_utc_calendar_dates() {
        assert_eq!(timestamp(0), "19700101-000000");
        assert_eq!(timestamp(951_782_400), "20000229-000000");
        assert_eq!(timestamp(1_798_000_000), "20261223-042640");
        assert_eq!(timestamp(4_102_444_799), "20991231-235959");
    }

    #[test]
    fn suffixes_do_not_repeat_in_one_process() {
        let suffixes: std::collections::HashSet<u16> = (0..1000).map(|_| next_suffix()).collect();
        assert_eq!(suffixes.len(), 1000);
    }

    #[test]
    fn ids_that_could_escape_the_folder_are_refused() {
        for bad in [
            "",
            ".",
            "..",
            ".a.json.tmp-1-1",
            "../x",
            "a/b",
            "a\\b",
            "c:x",
            "a\0b",
        ] {
            assert!(!is_valid(bad), "{bad:?}");
        }
        for good in ["20261201-142233-7f3a", "my game", "x"] {
            assert!(is_valid(good), "{good:?}");
        }
    }
}
