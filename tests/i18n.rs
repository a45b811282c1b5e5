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

/// The Rust and Slint files of the app and of the libraries whose texts it shows.
fn sources() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for dir in [
        "src",
        "ui",
        "game/src",
        "online/src",
        "store/src",
        "protocol/src",
    ] {
        files.extend(read(dir, "rs"));
        files.extend(read(dir, "slint"));
    }
    files
}

/// The calls that take a translation key as their first argument.
const KEY_CALLS: [&str; 7] = [
    "T.s(",
    "Status::new(",
    ".tr(",
    "tr_args(",
    "tr_count(",
    "refused(",
    "tr(&format!(",
];

/// Key families whose every literal is a key, wherever it is written (a match arm that
/// picks a key, a table of keys).
const KEY_FAMILIES: [&str; 10] = [
    "status-",
    "online-error-",
    "import-error-",
    "damage-",
    "io-error-",
    "reason-",
    "end-",
    "result-",
    "side-",
    "button-",
];

/// The keys used in `text`: the literal after each key call (on the same line or the next),
/// every literal of a key family, and the prefixes of keys made with `format!`.
fn keys_used(text: &str, keys: &mut BTreeSet<String>, prefixes: &mut BTreeSet<String>) {
    for call in KEY_CALLS {
        for part in text.split(call).skip(1) {
            let rest = part.trim_start();
            let rest = rest.strip_prefix("&format!(").unwrap_or(rest);
            let Some(rest) = rest.strip_prefix('"') else {
                continue;
            };
            let Some(end) = rest.find('"') else { continue };
            let lit = &rest[..end];
            match lit.find('{') {
                Some(i) => {
                    prefixes.insert(lit[..i].to_string());
                }
                None if !lit.is_empty() => {
                    keys.insert(lit.to_string());
                }
                None => {}
            }
        }
    }
    for part in text.split('"').skip(1).step_by(2) {
        let is_key = KEY_FAMILIES.iter().any(|f| part.starts_with(f))
            && part
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && !part.ends_with('-');
        if is_key {
            keys.insert(part.to_string());
        }
    }
}

#[test]
fn every_key_the_app_uses_exists() {
    let en = keys(Lang::En);
    let mut used = BTreeSet::new();
    let mut prefixes = BTreeSet::new();
    for (_, text) in sources() {
        keys_used(&text, &mut used, &mut prefixes);
    }
    // The words of every end of a game: the reason in a sentence, and alone on the result
    // sheet.
    for end in takhte::game::GameEnd::all_words() {
        used.insert(format!("reason-{end}"));
        used.insert(format!("end-{end}"));
    }
    for k in ["chess", "dice-chess", "draughts", "mine-chess"] {
        used.insert(format!("game-{k}"));
        used.insert(format!("game-{k}-blurb"));
        used.insert(format!("rules-{k}"));
    }
    for n in 1..=6 {
        used.insert(format!("face-name-{n}"));
    }
    assert!(used.len() > 250, "{} keys found in use", used.len());
    let missing: Vec<_> = used.iter().filter(|k| !en.contains(*k)).collect();
    assert!(missing.is_empty(), "keys used but missing: {missing:?}");
    // Keys made with format! have their family in the files.
    let lonely: Vec<_> = prefixes
        .iter()
        .filter(|p| !en.iter().any(|k| k.starts_with(p.as_str())))
        .collect();
    assert!(lonely.is_empty(), "no keys start with: {lonely:?}");
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

/// The properties of a Slint element that people see or hear.
const SHOWN: [&str; 6] = [
    "text:",
    "accessible-label:",
    "accessible-value:",
    "accessible-placeholder-text:",
    "placeholder-text:",
    "title:",
];

/// Words and separators shown to people come from the translation files: no middle dot
/// between two parts of a line (it reads as the Persian zero beside Persian digits); no
/// words in a shown property of any Slint file but the two language names (each in its own
/// language); and no sentence or Persian word in the app's Rust code, but a few that are not
/// shown as they are (a PGN name, a position, an internal message).
#[test]
fn no_text_or_separator_is_written_in_the_code() {
    let mut problems = Vec::new();
    let allowed_slint = [
        "\"فارسی\"",
        "\"English\"",
        "\"cargo run --release -p takhte-server -- --listen 0.0.0.0:7878\"",
    ];
    let allowed_rust = ["valid language code", "Takhte level {level}"];
    for (path, text) in sources() {
        // The demo scenes' made-up players, the screenshot tool's messages and the command
        // line (a tool in English for developers and servers) are not the app's texts.
        if ["demo.rs", "screenshot.rs", "cli.rs", "main.rs"]
            .iter()
            .any(|f| path.ends_with(f))
        {
            continue;
        }
        let code_part = text.split("#[cfg(test)]").next().unwrap_or("");
        for (n, line) in code_part.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let at = format!("{path}:{}", n + 1);
            let line = code;
            if code.contains('·') {
                problems.push(format!("{at}: a middle dot: {line}"));
            }
            // A key given to T.s and a machine word compared with are not shown.
            let mut code = code.to_string();
            for marker in ["T.s(\"", "== \"", "!= \"", "= \"", "accessible-id: \""] {
                while let Some(i) = code.find(marker) {
                    let after = i + marker.len();
                    let end = code[after..]
                        .find('"')
                        .map_or(code.len(), |e| after + e + 1);
                    code.replace_range(i..end, "");
                }
            }
            let literals: Vec<&str> = code.split('"').skip(1).step_by(2).collect();
            if path.ends_with(".slint") {
                if SHOWN.iter().any(|p| code.contains(p)) {
                    for lit in literals {
                        let quoted = format!("\"{lit}\"");
                        if lit.chars().any(char::is_alphabetic)
                            && !allowed_slint.contains(&quoted.as_str())
                        {
                            problems.push(format!("{at}: text written in the code: {quoted}"));
                        }
                    }
                }
            } else if path.starts_with("src")
                && !code.contains("expect(")
                && !code.contains("panic!(")
            {
                for lit in literals {
                    // Two words or more (a word: two letters or more, and nothing else but
                    // punctuation at its end).
                    let sentence = lit
                        .split_whitespace()
                        .filter(|w| {
                            let w = w.trim_end_matches(|c: char| c.is_ascii_punctuation());
                            w.chars().count() >= 2 && w.chars().all(char::is_alphabetic)
                        })
                        .count()
                        >= 2;
                    let persian = lit.chars().any(|c| ('\u{0600}'..='\u{06FF}').contains(&c));
                    if (sentence || persian) && !allowed_rust.contains(&lit) {
                        problems.push(format!("{at}: text written in the code: {lit:?}"));
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

/// Every text of the screens is a Label or a Para (ui/label.slint): the layout test can see
/// whether each one fits only so.
#[test]
fn every_text_on_the_screens_can_say_it_is_cut() {
    let mut bare = Vec::new();
    for (path, text) in read("ui", "slint") {
        if path.ends_with("label.slint") {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let starts = code
                .match_indices("Text {")
                .any(|(i, _)| i == 0 || !code.as_bytes()[i - 1].is_ascii_alphanumeric());
            if starts {
                bare.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        bare.is_empty(),
        "texts that are not Labels:\n{}",
        bare.join("\n")
    );
}
