//! Texel's method of tuning an evaluation, shared by the games whose evaluations are tuned
//! (chess: `scripts/tune-eval.sh`; draughts: `scripts/tune-draughts.sh`): each sample is a
//! position with a target expected result for White (from a stronger engine's score, or from the
//! result of the game it was played in); the evaluation's score is turned into an expected result
//! by Elo's curve, and the numbers are changed one at a time while the mean squared difference
//! falls ([`descend`]).
//!
//! The numbers themselves are declared with the crate's `params!` macro, which gives them names
//! and the [`Numbers`] access the tuner needs.

use std::time::Instant;

/// Declares a struct of named `i32` numbers with their hand-written values (a `HAND` constant)
/// and the [`crate::tune::Numbers`] access for the tuner.
macro_rules! params {
    ($(#[$sdoc:meta])* $vis:vis struct $ty:ident; $(#[$hdoc:meta])* const $hand_name:ident;
     $($(#[$doc:meta])* $name:ident = $hand:expr,)*) => {
        $(#[$sdoc])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        $vis struct $ty {
            $($(#[$doc])* pub $name: i32,)*
        }

        $(#[$hdoc])*
        pub const $hand_name: $ty = $ty { $($name: $hand,)* };

        impl $ty {
            /// The names of the numbers, in the order of [`Self::get`].
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            /// The `i`-th number (in the order of [`Self::NAMES`]).
            pub fn get(&self, i: usize) -> i32 {
                [$(self.$name),*][i]
            }

            /// Sets the `i`-th number; an index out of range changes nothing.
            pub fn set(&mut self, i: usize, v: i32) {
                let fields = [$(&mut self.$name),*];
                if let Some(f) = fields.into_iter().nth(i) {
                    *f = v;
                }
            }
        }

        impl $crate::tune::Numbers for $ty {
            fn names() -> &'static [&'static str] {
                Self::NAMES
            }
            fn get(&self, i: usize) -> i32 {
                $ty::get(self, i)
            }
            fn set(&mut self, i: usize, v: i32) {
                $ty::set(self, i, v)
            }
        }
    };
}
pub(crate) use params;

/// A set of named numbers the tuner can read and change one at a time.
pub trait Numbers: Clone + Sync {
    /// The names, in the order of [`Numbers::get`].
    fn names() -> &'static [&'static str];
    /// The `i`-th number.
    fn get(&self, i: usize) -> i32;
    /// Sets the `i`-th number.
    fn set(&mut self, i: usize, v: i32);
}

/// One position to fit: the position as the evaluation reads it, and the expected result
/// for White (0 to 1) it should predict.
#[derive(Clone, Debug)]
pub struct Sample<T> {
    /// The position.
    pub item: T,
    /// The target: White's expected result.
    pub target: f64,
}

/// The samples of a file of labelled positions (`scripts/make-tuning-data.py`: a line is
/// `POSITION | SCORE | …`, the score in centipawns for White), each position read by `parse`;
/// lines without a score are skipped. An error names the file and line.
pub fn read_scored<T>(
    path: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<Sample<T>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        let (Some(position), Some(cp)) = (parts.first(), parts.get(1)) else {
            continue;
        };
        let cp: f64 = cp
            .parse()
            .map_err(|_| format!("{path}:{}: not a score: {cp}", n + 1))?;
        let item = parse(position).map_err(|e| format!("{path}:{}: {e}", n + 1))?;
        out.push(Sample {
            item,
            target: expected(cp),
        });
    }
    Ok(out)
}

/// The expected result of a White-relative score in centipawns (Elo's curve).
pub fn expected(cp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-cp / 400.0))
}

/// The mean squared error of the White-relative scores `score(item)` on `set`, multiplied by
/// `scale` before they are turned into expected results; on every core.
pub fn error<T: Sync>(set: &[Sample<T>], scale: f64, score: &(dyn Fn(&T) -> f64 + Sync)) -> f64 {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = set.len().div_ceil(threads).max(1);
    let sum: f64 = std::thread::scope(|scope| {
        let parts: Vec<_> = set
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|s| (expected(scale * score(&s.item)) - s.target).powi(2))
                        .sum::<f64>()
                })
            })
            .collect();
        parts
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .sum()
    });
    sum / set.len().max(1) as f64
}

/// The scale, among 0.50 to 2.00 in hundredths, that best turns `score` into the targets of
/// `set`: the units of the targets' scores in the evaluation's units.
pub fn best_scale<T: Sync>(set: &[Sample<T>], score: &(dyn Fn(&T) -> f64 + Sync)) -> f64 {
    (50..=200)
        .map(|k| {
            let k = k as f64 / 100.0;
            (k, error(set, k, score))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(1.0, |(k, _)| k)
}

/// Coordinate descent from `start`: for steps 16, 8, 4, 2 and 1, each number in turn moves by
/// the step up (or else down) as long as the error on `train` falls, in sweeps until no number
/// moves; `allowed(name, value)` refuses values the fit may not take. `err(p)` is the error of
/// the numbers `p` on the training set. Logs each sweep to standard error. Deterministic: the
/// same start and samples give the same numbers.
pub fn descend<P: Numbers>(
    start: P,
    err: &dyn Fn(&P) -> f64,
    allowed: &dyn Fn(&str, i32) -> bool,
) -> (P, f64) {
    let clock = Instant::now();
    let mut best = start;
    let mut best_err = err(&best);
    let names = P::names();
    for step in [16, 8, 4, 2, 1] {
        for sweep in 1..=20 {
            let mut improved = 0;
            for (i, name) in names.iter().enumerate() {
                for dir in [1, -1] {
                    let mut moved = false;
                    for _ in 0..12 {
                        let v = best.get(i) + dir * step;
                        if !allowed(name, v) {
                            break;
                        }
                        let mut p = best.clone();
                        p.set(i, v);
                        let e = err(&p);
                        if e < best_err {
                            best = p;
                            best_err = e;
                            moved = true;
                        } else {
                            break;
                        }
                    }
                    if moved {
                        improved += 1;
                        break;
                    }
                }
            }
            eprintln!(
                "step {step} sweep {sweep}: {best_err:.6} ({improved} numbers moved, {:.0} s)",
                clock.elapsed().as_secs_f64()
            );
            if improved == 0 {
                break;
            }
        }
    }
    (best, best_err)
}

/// The fields of a struct literal holding the numbers `p`, one `name: value,` a line, and its
/// closing brace: the end of the tuned numbers' Rust file.
pub fn fields<P: Numbers>(p: &P) -> String {
    let mut text = String::new();
    for (i, name) in P::names().iter().enumerate() {
        text.push_str(&format!("    {name}: {},\n", p.get(i)));
    }
    text.push_str("};\n");
    text
}

/// Splits `all` into the samples to fit and every tenth one, kept out to check the fit.
pub fn split<T>(all: Vec<Sample<T>>) -> (Vec<Sample<T>>, Vec<Sample<T>>) {
    let (mut train, mut check) = (Vec::new(), Vec::new());
    for (i, s) in all.into_iter().enumerate() {
        if i % 10 == 9 {
            check.push(s);
        } else {
            train.push(s);
        }
    }
    (train, check)
}

/// For the tests of each set of numbers: setting any one number to `value` changes that number
/// and no other.
#[cfg(test)]
pub(crate) fn assert_each_number_set_alone<P: Numbers>(start: &P, value: i32) {
    let names = P::names();
    for i in 0..names.len() {
        let mut p = start.clone();
        p.set(i, value);
        let changed: Vec<usize> = (0..names.len())
            .filter(|&j| p.get(j) != start.get(j))
            .collect();
        assert_eq!(changed, vec![i], "setting {}", names[i]);
        assert_eq!(p.get(i), value, "{}", names[i]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    params! {
        /// Two numbers for the test.
        pub struct Two;
        /// Their start.
        const START;
        /// The first.
        a = 0,
        /// The second.
        b = 40,
    }

    #[test]
    fn descent_finds_the_numbers_that_made_the_targets() {
        // Targets made by a = 30, b = -20 at scale 1: the descent finds them from elsewhere.
        let items: Vec<(f64, f64)> = (0..200)
            .map(|i| (((i * 7) % 11) as f64 - 5.0, ((i * 5) % 13) as f64 - 6.0))
            .collect();
        let set: Vec<Sample<(f64, f64)>> = items
            .iter()
            .map(|&(x, y)| Sample {
                item: (x, y),
                target: expected(30.0 * x - 20.0 * y),
            })
            .collect();
        let err = |p: &Two| {
            let (a, b) = (p.a as f64, p.b as f64);
            error(&set, 1.0, &move |&(x, y): &(f64, f64)| a * x + b * y)
        };
        let (found, e) = descend(START, &err, &|_, _| true);
        assert_eq!((found.a, found.b), (30, -20));
        assert!(e < 1e-12);
        // A bound holds: b may not go below -10.
        let (bounded, _) = descend(START, &err, &|n, v| n != "b" || v >= -10);
        assert_eq!(bounded.b, -10);
    }
}
