//! The game's sounds: a move, a capture, a check, the die rolling, a mine going off, the end of
//! a game, and a low-time warning. Every sound is synthesized here (short filtered noise and
//! tones), so there are no sound files and no licences to keep.
//!
//! The output is `cpal` (ALSA on Linux, AAudio on Android), opened on a thread of its own when
//! the first sound is asked for. Without an audio device (a server, CI, Xvfb) nothing plays and
//! nothing waits: [`Sounds::play`] only sends a message.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};

/// The sounds of the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// A piece moved.
    Move,
    /// A piece was captured.
    Capture,
    /// A king is in check.
    Check,
    /// The die rolls (dice chess).
    Roll,
    /// A mine went off (minesweeper chess).
    Mine,
    /// The game ended.
    End,
    /// A clock has little time left.
    LowTime,
}

impl Effect {
    const ALL: [Effect; 7] = [
        Effect::Move,
        Effect::Capture,
        Effect::Check,
        Effect::Roll,
        Effect::Mine,
        Effect::End,
        Effect::LowTime,
    ];

    fn index(self) -> usize {
        Effect::ALL.iter().position(|e| *e == self).unwrap_or(0)
    }
}

/// A tiny deterministic noise source (xorshift), so the sounds are the same every time.
struct Noise(u32);

impl Noise {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        (self.0 as f32 / u32::MAX as f32) * 2.0 - 1.0
    }
}

fn tone(rate: f32, freq: f32, secs: f32, decay: f32, gain: f32) -> Vec<f32> {
    let n = (rate * secs) as usize;
    (0..n)
        .map(|i| {
            let t = i as f32 / rate;
            let attack = (t / 0.004).min(1.0);
            (2.0 * std::f32::consts::PI * freq * t).sin() * (-t * decay).exp() * attack * gain
        })
        .collect()
}

/// A click: a burst of low-passed noise with a fast decay (wood on wood).
fn click(rate: f32, secs: f32, decay: f32, smooth: f32, gain: f32, seed: u32) -> Vec<f32> {
    let mut noise = Noise(seed);
    let n = (rate * secs) as usize;
    let mut low = 0.0;
    (0..n)
        .map(|i| {
            let t = i as f32 / rate;
            low += (noise.next() - low) * smooth;
            low * (-t * decay).exp() * gain
        })
        .collect()
}

fn mix(parts: &[(f32, Vec<f32>)], rate: f32) -> Vec<f32> {
    let len = parts
        .iter()
        .map(|(at, p)| (at * rate) as usize + p.len())
        .max()
        .unwrap_or(0);
    let mut out = vec![0.0; len];
    for (at, p) in parts {
        let start = (at * rate) as usize;
        for (i, s) in p.iter().enumerate() {
            out[start + i] += s;
        }
    }
    out
}

/// The samples of an effect at `rate` samples per second (mono, -1..1).
pub fn synthesize(effect: Effect, rate: f32) -> Vec<f32> {
    match effect {
        Effect::Move => mix(&[(0.0, click(rate, 0.09, 55.0, 0.35, 0.9, 7))], rate),
        Effect::Capture => mix(
            &[
                (0.0, click(rate, 0.12, 40.0, 0.25, 1.0, 11)),
                (0.05, click(rate, 0.10, 50.0, 0.4, 0.7, 13)),
            ],
            rate,
        ),
        Effect::Check => mix(
            &[
                (0.0, tone(rate, 880.0, 0.25, 9.0, 0.35)),
                (0.12, tone(rate, 1175.0, 0.3, 8.0, 0.3)),
            ],
            rate,
        ),
        Effect::Roll => {
            let mut parts = Vec::new();
            let mut at = 0.0;
            for i in 0..9u32 {
                parts.push((at, click(rate, 0.04, 90.0, 0.6, 0.55, 17 + i)));
                at += 0.03 + 0.006 * i as f32;
            }
            mix(&parts, rate)
        }
        Effect::Mine => mix(
            &[
                (0.0, click(rate, 0.7, 6.0, 0.05, 1.4, 23)),
                (0.0, tone(rate, 55.0, 0.6, 5.0, 0.6)),
            ],
            rate,
        ),
        Effect::End => mix(
            &[
                (0.0, tone(rate, 523.25, 0.35, 5.0, 0.3)),
                (0.15, tone(rate, 659.25, 0.35, 5.0, 0.3)),
                (0.30, tone(rate, 783.99, 0.6, 4.0, 0.3)),
            ],
            rate,
        ),
        Effect::LowTime => mix(
            &[
                (0.0, tone(rate, 1318.5, 0.09, 20.0, 0.3)),
                (0.14, tone(rate, 1318.5, 0.09, 20.0, 0.3)),
            ],
            rate,
        ),
    }
}

/// Plays the game's sounds.
#[derive(Clone)]
pub struct Sounds {
    tx: Arc<Mutex<Option<Sender<Effect>>>>,
    /// Never opens the audio device (pictures drawn without a screen need no sound).
    silent: bool,
}

impl Default for Sounds {
    fn default() -> Self {
        Sounds::new()
    }
}

impl Sounds {
    /// Nothing is opened until the first sound.
    pub fn new() -> Sounds {
        Sounds {
            tx: Arc::new(Mutex::new(None)),
            silent: false,
        }
    }

    /// Sounds that play nothing and never open the audio device (`takhte screenshot`, the
    /// layout tests).
    pub fn silent() -> Sounds {
        Sounds {
            silent: true,
            ..Sounds::new()
        }
    }

    /// Whether the audio output has been opened (by a first sound).
    pub fn opened(&self) -> bool {
        self.tx.lock().map(|g| g.is_some()).unwrap_or(false)
    }

    /// Plays `effect` (never blocks; silent without an audio device).
    pub fn play(&self, effect: Effect) {
        if self.silent {
            return;
        }
        let Ok(mut guard) = self.tx.lock() else {
            return;
        };
        if guard.is_none() {
            let (tx, rx) = channel();
            let _ = std::thread::Builder::new()
                .name("takhte-sound".into())
                .spawn(move || output(rx));
            *guard = Some(tx);
        }
        if let Some(tx) = guard.as_ref() {
            let _ = tx.send(effect);
        }
    }
}

/// The output thread: opens the device, keeps the stream alive, and mixes what is asked.
fn output(rx: Receiver<Effect>) {
    use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
    let host = cpal::default_host();
    let Some(device) = host.default_output_device() else {
        // No device: take the requests and drop them.
        while rx.recv().is_ok() {}
        return;
    };
    let Ok(config) = device.default_output_config() else {
        while rx.recv().is_ok() {}
        return;
    };
    let rate = config.sample_rate() as f32;
    let channels = config.channels() as usize;
    let bank: Vec<Vec<f32>> = Effect::ALL.iter().map(|e| synthesize(*e, rate)).collect();
    let (vtx, vrx) = channel::<usize>();
    let mut voices: Vec<(usize, usize)> = Vec::new();
    let stream = device.build_output_stream(
        config.config(),
        move |data: &mut [f32], _| {
            while let Ok(i) = vrx.try_recv() {
                if voices.len() < 8 {
                    voices.push((i, 0));
                }
            }
            for frame in data.chunks_mut(channels.max(1)) {
                let mut s = 0.0;
                for (i, pos) in voices.iter_mut() {
                    if let Some(v) = bank[*i].get(*pos) {
                        s += v;
                    }
                    *pos += 1;
                }
                let s = s.clamp(-1.0, 1.0);
                for out in frame.iter_mut() {
                    *out = s;
                }
            }
            voices.retain(|(i, pos)| *pos < bank[*i].len());
        },
        |_| {},
        None,
    );
    let Ok(stream) = stream else {
        while rx.recv().is_ok() {}
        return;
    };
    if stream.play().is_err() {
        while rx.recv().is_ok() {}
        return;
    }
    while let Ok(effect) = rx.recv() {
        let _ = vtx.send(effect.index());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_effect_has_a_short_audible_sound() {
        for e in Effect::ALL {
            let s = synthesize(e, 44_100.0);
            let secs = s.len() as f32 / 44_100.0;
            assert!((0.05..1.5).contains(&secs), "{e:?}: {secs} s");
            let peak = s.iter().fold(0.0f32, |m, x| m.max(x.abs()));
            assert!(peak > 0.05 && peak <= 2.0, "{e:?}: peak {peak}");
            assert_eq!(s, synthesize(e, 44_100.0), "{e:?} is the same every time");
        }
    }

    #[test]
    fn playing_without_a_device_neither_fails_nor_waits() {
        let t = std::time::Instant::now();
        let s = Sounds::new();
        for e in Effect::ALL {
            s.play(e);
        }
        assert!(t.elapsed() < std::time::Duration::from_millis(500));
    }
}
