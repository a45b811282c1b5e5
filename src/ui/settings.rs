//! The settings screen's adapter: the settings to the screen and back, the language.

use slint::ComponentHandle;

use crate::i18n::Lang;

use super::app::*;
use super::{BoardProps, SettingsProps, Theme};

impl AppState {
    pub(crate) fn apply_settings_to_ui(&mut self) {
        let Some(ui) = self.ui() else { return };
        let board_ui = ui.global::<BoardProps>();
        let settings_ui = ui.global::<SettingsProps>();
        let s = &self.settings;
        settings_ui.set_set_lang(lang_index(self.i18n.lang()));
        settings_ui.set_set_theme(match s.theme.as_str() {
            "green" => 1,
            "blue" => 2,
            _ => 0,
        });
        settings_ui.set_set_anim(match s.animation_speed.as_str() {
            "off" => 0,
            "fast" => 1,
            "slow" => 3,
            _ => 2,
        });
        settings_ui.set_set_rotation(match s.pass_and_play_rotation.as_str() {
            "face-to-face" => 1,
            "none" => 2,
            _ => 0,
        });
        settings_ui.set_set_sound(s.sound);
        settings_ui.set_set_legal(s.show_legal_moves);
        settings_ui.set_set_coords(s.coordinates);
        settings_ui.set_set_letters(s.move_letters);
        ui.global::<Theme>()
            .set_board_theme(settings_ui.get_set_theme());
        board_ui.set_show_targets(s.show_legal_moves);
        board_ui.set_show_coordinates(s.coordinates);
        board_ui.set_slide_time(match s.animation_speed.as_str() {
            "off" => 0,
            "fast" => 100,
            "slow" => 320,
            _ => 180,
        });
    }

    pub(crate) fn settings_from_ui(&mut self) {
        let Some(ui) = self.ui() else { return };
        let settings_ui = ui.global::<SettingsProps>();
        let lang = if settings_ui.get_set_lang() == 1 {
            Lang::Fa
        } else {
            Lang::En
        };
        self.settings.language = Some(lang.code().to_string());
        self.settings.theme = ["classic", "green", "blue"]
            [settings_ui.get_set_theme().clamp(0, 2) as usize]
            .to_string();
        self.settings.animation_speed = ["off", "fast", "normal", "slow"]
            [settings_ui.get_set_anim().clamp(0, 3) as usize]
            .to_string();
        self.settings.pass_and_play_rotation = ["rotate", "face-to-face", "none"]
            [settings_ui.get_set_rotation().clamp(0, 2) as usize]
            .to_string();
        self.settings.sound = settings_ui.get_set_sound();
        self.settings.show_legal_moves = settings_ui.get_set_legal();
        self.settings.coordinates = settings_ui.get_set_coords();
        self.settings.move_letters = settings_ui.get_set_letters();
        if let Some(store) = &self.store {
            let _ = store.save_settings(&self.settings);
        }
        self.set_language(lang);
        self.apply_settings_to_ui();
    }

    /// Switches the language at once (no restart).
    pub fn set_language(&mut self, lang: Lang) {
        self.i18n.set_lang(lang);
        if let Some(ui) = self.ui() {
            ui.global::<SettingsProps>().set_set_lang(lang_index(lang));
        }
        self.refresh_all();
    }
}
