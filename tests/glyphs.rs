//! Every character the app can write has a glyph in the fonts it embeds (ui/main.slint), in
//! both weights: the words of both languages, every symbol and letter in the product's string
//! literals (the chess figures of the move list, arrows, the die's faces, …), and what the
//! code makes up (Persian digits). The browser build has no other fonts than these: a
//! character missing here is drawn as nothing there (testers saw "2. f3 c6" for "2. ♘f3 ♞c6").

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The font files `ui/main.slint` imports (and so every build embeds).
fn embedded_fonts() -> Vec<PathBuf> {
    let main = std::fs::read_to_string(root().join("ui/main.slint")).unwrap();
    let fonts: Vec<PathBuf> = main
        .lines()
        .filter_map(|l| l.trim().strip_prefix("import \""))
        .filter_map(|l| l.split('"').next())
        .filter(|f| f.ends_with(".ttf") || f.ends_with(".otf"))
        .map(|f| root().join("ui").join(f))
        .collect();
    assert!(fonts.len() >= 2, "the fonts imported: {fonts:?}");
    fonts
}

/// The characters of the values of a Fluent file (comments and keys left out).
fn ftl_chars(path: &Path, out: &mut BTreeMap<char, String>) {
    let text = std::fs::read_to_string(path).unwrap();
    for line in text.lines() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        let value = match line.split_once(" = ") {
            Some((key, v)) if !key.starts_with(' ') => v,
            _ => line,
        };
        for c in value.chars() {
            out.entry(c).or_insert_with(|| path.display().to_string());
        }
    }
}

/// The characters inside the string and character literals of a source file (Rust or
/// Slint), with `\u{…}` escapes read; comments and the file's test module left out.
fn literal_chars(path: &Path, out: &mut BTreeMap<char, String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut add = |c: char| {
        out.entry(c).or_insert_with(|| path.display().to_string());
    };
    // Reads a literal's body from `i` up to the closing `close`, escapes decoded.
    let body = |i: &mut usize, close: char, add: &mut dyn FnMut(char)| {
        while *i < chars.len() && chars[*i] != close {
            if chars[*i] == '\\' && *i + 1 < chars.len() {
                if chars[*i + 1] == 'u' && chars.get(*i + 2) == Some(&'{') {
                    let end = (*i..chars.len()).find(|&k| chars[k] == '}').unwrap_or(*i);
                    let hex: String = chars[*i + 3..end].iter().collect();
                    if let Some(c) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                        add(c);
                    }
                    *i = end + 1;
                } else {
                    *i += 2;
                }
                continue;
            }
            add(chars[*i]);
            *i += 1;
        }
        *i += 1;
    };
    while i < chars.len() {
        match chars[i] {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                i += 2;
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
            }
            '"' => {
                i += 1;
                body(&mut i, '"', &mut add);
            }
            // A character literal ('x', '\u{2654}'), not a lifetime ('a).
            '\'' if chars.get(i + 2) == Some(&'\'') || chars.get(i + 1) == Some(&'\\') => {
                i += 1;
                body(&mut i, '\'', &mut add);
            }
            _ => i += 1,
        }
    }
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs" || x == "slint") {
            out.push(p);
        }
    }
}

/// Characters that are never drawn: controls, and Unicode's default-ignorable code points
/// (the marks that steer direction or joining, variation selectors, fillers, tags).
fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
            | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
            | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}' | '\u{E0000}'..='\u{E0FFF}')
}

#[test]
fn every_character_the_app_writes_is_in_its_fonts() {
    let mut wanted: BTreeMap<char, String> = BTreeMap::new();
    for lang in ["en", "fa"] {
        ftl_chars(&root().join(format!("i18n/{lang}/takhte.ftl")), &mut wanted);
    }
    let mut files = Vec::new();
    for dir in [
        "src",
        "ui",
        "game/src",
        "rules/src",
        "online/src",
        "store/src",
        "protocol/src",
    ] {
        sources(&root().join(dir), &mut files);
    }
    for f in &files {
        literal_chars(f, &mut wanted);
    }
    // What the code makes rather than writes: Persian digits, every chess figure, the die.
    for c in ('\u{06F0}'..='\u{06F9}')
        .chain('\u{2654}'..='\u{265F}')
        .chain('\u{2680}'..='\u{2685}')
    {
        wanted.entry(c).or_insert_with(|| "made by the code".into());
    }
    assert!(wanted.contains_key(&'♘') && wanted.contains_key(&'ی') && wanted.contains_key(&'→'));
    assert!(wanted.len() > 150, "{} characters found", wanted.len());

    let mut missing = Vec::new();
    for font in embedded_fonts() {
        let data = std::fs::read(&font).unwrap();
        let face = ttf_parser::Face::parse(&data, 0).unwrap();
        for (&c, from) in &wanted {
            if invisible(c) {
                continue;
            }
            if face.glyph_index(c).is_none() {
                missing.push(format!(
                    "U+{:04X} '{c}' (from {from}) is not in {}",
                    c as u32,
                    font.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} characters have no glyph:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

/// The fonts are the ones the window uses by default.
#[test]
fn the_window_uses_the_embedded_family() {
    let main = std::fs::read_to_string(root().join("ui/main.slint")).unwrap();
    for font in embedded_fonts() {
        let data = std::fs::read(&font).unwrap();
        let face = ttf_parser::Face::parse(&data, 0).unwrap();
        let family = face
            .names()
            .into_iter()
            .filter(|n| n.name_id == ttf_parser::name_id::FAMILY && n.is_unicode())
            .find_map(|n| n.to_string())
            .unwrap();
        assert!(
            main.contains(&format!("default-font-family: \"{family}\"")),
            "{}: family '{family}' is not the window's default",
            font.display()
        );
    }
}
