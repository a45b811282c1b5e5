//! Every scene of `takhte screenshot` draws, in both languages, at phone and tablet sizes, without
//! a display; the pictures are not blank.

#[test]
fn every_scene_draws_in_both_languages() {
    let dir = tempfile::tempdir().unwrap();
    let all = takhte::ui::screenshot::SCENES
        .iter()
        .chain(takhte::ui::demo::SCENES.iter());
    for scene in all {
        for (lang, size) in [
            (takhte::i18n::Lang::En, (360, 640)),
            (takhte::i18n::Lang::Fa, (1024, 700)),
        ] {
            let out = dir.path().join(format!("{scene}-{}.png", lang.code()));
            takhte::ui::screenshot::screenshot(scene, lang, size.0, size.1, &out).unwrap();
            let bytes = std::fs::read(&out).unwrap();
            let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
            let mut reader = decoder.read_info().unwrap();
            let mut buf = vec![0; reader.output_buffer_size()];
            let info = reader.next_frame(&mut buf).unwrap();
            assert_eq!((info.width, info.height), size);
            let pixels = &buf[..info.buffer_size()];
            let distinct: std::collections::HashSet<&[u8]> = pixels.chunks(3).collect();
            assert!(
                distinct.len() > 50,
                "{scene} {lang:?} looks blank ({} colours)",
                distinct.len()
            );
        }
    }
}

/// Drawing needs no sound: the scenes that roll a die and end a game (each would play a
/// sound in the app) never open the audio device.
#[test]
fn scenes_never_open_the_audio_device() {
    for scene in ["dice-chess", "game-over", "chess", "online-game"] {
        let opened = takhte::ui::screenshot::with_scene(
            scene,
            takhte::i18n::Lang::En,
            360,
            640,
            |app, window| {
                takhte::ui::screenshot::render(window, app, 360, 640);
                // A sound asked for now, as the board's refresh would.
                app.state.borrow().sounds.play(takhte::sound::Effect::Move);
                app.state.borrow().sounds.opened()
            },
        )
        .unwrap();
        assert!(!opened, "{scene}: the audio device was opened");
    }
}
