//! The browser version's computer player, off the page's thread: the page starts a Web Worker
//! (`web/worker.js`) that loads this small WebAssembly (the searches and the rules, no UI) and
//! answers each search request the app sends it as text ([`takhte_ai::wire`]). The page never
//! waits for the computer, so levels 5 and 6 search as long as on a phone's app.

use wasm_bindgen::prelude::*;

/// Answers one request ([`takhte_ai::wire::Asked`] as text) with the answer's text
/// ([`takhte_ai::wire::answer_text`]), or `error <why>` for a request that does not read.
#[wasm_bindgen]
pub fn think(request: &str) -> String {
    takhte_ai::wire::answer_request(request)
}

#[cfg(test)]
mod tests {
    #[test]
    fn answers_a_request_and_names_a_bad_one() {
        let text = "kind chess\nposition -\nseed 0\nrolls \nlevel 1\nrng 5\nrolled -\nmovetime 50\nmove e2e4\n";
        let answer = super::think(text);
        let game = takhte_ai::wire::Asked::parse(text)
            .unwrap()
            .request()
            .unwrap()
            .game;
        assert!(
            takhte_ai::wire::read_answer(&game, &answer).is_some(),
            "{answer}"
        );
        assert_eq!(
            super::think("kind go"),
            "error the line \"kind go\" does not read"
        );
    }
}
