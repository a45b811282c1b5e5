//! The translations: both languages have the same keys, every key the UI or the controller uses
//! exists, and the Persian follows the writing rules of the glossary.

use std::collections::BTreeSet;

use takhte::i18n::{digits, I18n, Lang};

fn keys(lang: Lang) -> BTreeSet<String> {
    I18n::keys(lang).into_iter().collect()
}

fn read(dir: &str, ext: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(dir)];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push((
                    p.display().to_string(),
                    std::fs::read_to_string(&p).unwrap(),
                ));
            }
        }
    }
    out
}

/// Every string literal that follows `marker` in the files.
fn used_keys(files: &[(String, String)], marker: &str) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    for (_, text) in files {
        for part in text.split(marker).skip(1) {
            if let Some(end) = part.find('"') {
                set.insert(part[..end].to_string());
            }
        }
    }
    set
}

#[test]
fn both_languages_have_the_same_keys() {
    let en = keys(Lang::En);
    let fa = keys(Lang::Fa);
    assert!(en.len() > 150, "{} keys", en.len());
    let only_en: Vec<_> = en.difference(&fa).collect();
    let only_fa: Vec<_> = fa.difference(&en).collect();
    assert!(
        only_en.is_empty() && only_fa.is_empty(),
        "only in en: {only_en:?}; only in fa: {only_fa:?}"
    );
}

#[test]
fn every_key_the_ui_and_the_controller_use_exists() {
    let en = keys(Lang::En);
    let slint = read("ui", "slint");
    let rust = read("src", "rs");
    let mut used = used_keys(&slint, "T.s(\"");
    used.extend(used_keys(&rust, "Status::new(\""));
    used.extend(used_keys(&rust, "self.tr(\""));
    for reason in [
        "checkmate",
        "stalemate",
        "repetition",
        "fifty-moves",
        "insufficient-material",
        "no-pieces",
        "no-moves",
        "lone-man",
        "one-piece-each",
        "only-kings",
        "mine-exposed-king",
        "resignation",
        "agreement",
        "time",
        "time-insufficient-material",
    ] {
        used.insert(format!("reason-{reason}"));
    }
    for k in ["chess", "dice-chess", "draughts", "mine-chess"] {
        used.insert(format!("game-{k}"));
        used.insert(format!("game-{k}-blurb"));
        used.insert(format!("rules-{k}"));
    }
    for n in 1..=6 {
        used.insert(format!("face-name-{n}"));
    }
    assert!(used.len() > 60, "{} keys found in use", used.len());
    let missing: Vec<_> = used.iter().filter(|k| !en.contains(*k)).collect();
    assert!(missing.is_empty(), "keys used but missing: {missing:?}");
}

#[test]
fn persian_follows_the_writing_rules() {
    let text = std::fs::read_to_string("i18n/fa/takhte.ftl").unwrap();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') {
            continue;
        }
        let value = line.split_once(" = ").map(|(_, v)| v).unwrap_or(line);
        // Placeables hold Latin variable names; the rest is Persian.
        let mut outside = String::new();
        let mut depth = 0;
        for c in value.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => outside.push(c),
                _ => {}
            }
        }
        assert!(
            !outside.contains('\u{064A}') && !outside.contains('\u{0643}'),
            "Arabic ي or ك on line {}: {line}",
            n + 1
        );
        assert!(
            !outside
                .chars()
                .any(|c| ('\u{0660}'..='\u{0669}').contains(&c)),
            "Arabic-Indic digit on line {}",
            n + 1
        );
        if !line.starts_with("lang-en") {
            assert!(
                !outside.chars().any(|c| c.is_ascii_digit()),
                "Latin digit on line {}: {line}",
                n + 1
            );
            assert!(
                !outside.contains(',') && !outside.contains('?') && !outside.contains(';'),
                "Latin punctuation on line {}: {line}",
                n + 1
            );
        }
    }
    // Compounds keep the zero-width non-joiner.
    assert!(text.contains("بازی\u{200C}های ذخیره\u{200C}شده"));
}

#[test]
fn messages_format_with_persian_digits_and_translated_words() {
    let mut i = I18n::new(Lang::Fa);
    let s = takhte::game::Status::new("status-choose-pawn")
        .arg("face", "3")
        .arg("side", "white");
    let text = i.status(&s);
    assert!(
        text.contains('۳') && text.contains("سفید") && text.contains("اسب\u{200C}گونه"),
        "{text}"
    );
    assert_eq!(i.clock(183_000), "۳:۰۳");
    i.set_lang(Lang::En);
    assert_eq!(i.status(&s), "White rolled 3 (knight-like): choose a pawn");
    assert_eq!(i.clock(183_000), "3:03");
    assert_eq!(digits("12", Lang::Fa), "۱۲");
    assert_eq!(i.tr("no-such-key"), "no-such-key");
}

#[test]
fn the_system_locale_picks_the_language() {
    use takhte::i18n::lang_from_locales;
    assert_eq!(
        lang_from_locales(vec!["fa-IR".to_string(), "en-US".to_string()]),
        Lang::Fa
    );
    assert_eq!(
        lang_from_locales(vec!["de-DE".to_string(), "en-GB".to_string()]),
        Lang::En
    );
    assert_eq!(lang_from_locales(Vec::<String>::new()), Lang::En);
}

/// Words and separators shown to people come from the translation files: no middle dot
/// between two parts of a line in the code (it reads as the Persian zero beside Persian digits),
/// and no text literal in the Slint files but the two language names (each in its own
/// language) and the server command line.
#[test]
fn no_text_or_separator_is_written_in_the_code() {
    let mut problems = Vec::new();
    let mut files = Vec::new();
    for dir in ["src", "src/ui", "ui", "game/src"] {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "rs" || x == "slint") {
                files.push(p);
            }
        }
    }
    let allowed = [
        "\"فارسی\"",
        "\"English\"",
        "\"cargo run --release -p takhte-server -- --listen 0.0.0.0:7878\"",
    ];
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains('·') {
                problems.push(format!("{}:{}: a middle dot: {line}", f.display(), n + 1));
            }
            if f.extension().is_some_and(|x| x == "slint") {
                if let Some(i) = code.find("text: \"") {
                    let lit = &code[i + 6..];
                    let end = lit[1..].find('"').map(|e| e + 2).unwrap_or(lit.len());
                    let lit = &lit[..end];
                    let has_words = lit.chars().any(|c| c.is_alphabetic());
                    if has_words && !allowed.contains(&lit) {
                        problems.push(format!(
                            "{}:{}: text written in the code: {lit}",
                            f.display(),
                            n + 1
                        ));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every value put into a sentence in the other script comes out as an isolate (FSI … PDI), in
/// every message of both languages: a Latin name in a Persian sentence, a Persian name in an
/// English one, a move or a code with punctuation in either. And a value of the sentence's own
/// script needs none.
#[test]
fn every_inserted_value_in_the_other_script_is_an_isolate() {
    let mut problems = Vec::new();
    for lang in Lang::ALL {
        let mut i18n = I18n::new(lang);
        i18n.set_lang(lang);
        let text = std::fs::read_to_string(format!("i18n/{}/takhte.ftl", lang.code())).unwrap();
        let foreign = match lang {
            Lang::Fa => "Bob Smith",
            Lang::En => "مریم حسینی",
        };
        let mut checked = 0;
        for key in I18n::keys(lang) {
            // The message's variables, from its text (plural selectors on $count aside).
            let line = text
                .lines()
                .find(|l| l.starts_with(&format!("{key} =")))
                .unwrap_or("");
            let vars: BTreeSet<String> = line
                .split("{ $")
                .skip(1)
                .filter_map(|p| p.split([' ', '}']).next())
                .map(str::to_string)
                .filter(|v| v != "count")
                .collect();
            if vars.is_empty() {
                continue;
            }
            let args: Vec<(&str, String)> = vars
                .iter()
                .map(|v| (v.as_str(), foreign.to_string()))
                .collect();
            let out = i18n.tr_args(&key, &args);
            if !out.contains(&format!("\u{2068}{foreign}\u{2069}")) {
                problems.push(format!("{}: {key}: {out:?}", lang.code()));
            }
            checked += 1;
        }
        assert!(
            checked > 50,
            "{lang:?}: only {checked} messages with values"
        );
    }
    assert!(
        problems.is_empty(),
        "values not isolated:\n{}",
        problems.join("\n")
    );
    // The sentence's own script, a number: as they are.
    let en = I18n::new(Lang::En);
    assert_eq!(
        en.tr_args("online-opponent-here", &[("name", "Bob".into())]),
        "Bob is here"
    );
}
