//! The controller's computer player: a search on a worker thread, cancelled when the game
//! changes, its answer taken in on the UI's thread. In the browser the page hands the searches
//! to a Web Worker ([`offload_searches`]: the request goes as text, [`takhte_ai::wire`], and
//! its answer comes back on the UI's thread); where nothing takes them and there are no
//! threads, the search runs on the UI's thread at the tick after the one that asked for it,
//! so the page shows that the computer is thinking before the search starts.

use std::cell::RefCell;
use std::rc::Rc;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use takhte_ai::{Answer, Request};

use crate::view::Status;

use super::*;

/// Takes a search request as text ([`takhte_ai::wire::Asked::to_text`]) and, some time later on
/// the same thread, calls the reply with the answer's text ([`takhte_ai::wire::answer_text`]).
/// A request made while another is out replaces it: the older one's reply may never come.
pub type Offload = Rc<dyn Fn(String, Box<dyn FnOnce(String)>)>;

thread_local! {
    static OFFLOAD: RefCell<Option<Offload>> = const { RefCell::new(None) };
}

/// Sends the searches of this thread's controllers (the UI's thread) to `to`, or, with
/// `None`, back to the controller's own engine. The browser version sets it to its Web
/// Worker, so the page never waits for the computer.
pub fn offload_searches(to: Option<Offload>) {
    OFFLOAD.with(|o| *o.borrow_mut() = to);
}

impl Controller {
    pub(super) fn cancel_search(&mut self) {
        self.generation += 1;
        if let Some(p) = self.pending.take() {
            p.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// The time the search may take: the usual time a move, less when the computer's own clock
    /// runs low ([`takhte_ai::budget::movetime_on_clock`]).
    fn movetime_for(&self, purpose: Purpose) -> u64 {
        match (&self.session.clock, purpose) {
            (Some(clock), Purpose::Move) => {
                let side = self.session.game().side_to_move();
                takhte_ai::budget::movetime_on_clock(
                    clock.remaining(side, self.now()),
                    clock.control.increment_ms,
                    self.movetime_ms,
                )
            }
            _ => self.movetime_ms,
        }
    }

    pub(super) fn start_search(&mut self, purpose: Purpose) {
        let level = match self.opponent {
            Opponent::Computer { level, .. } => level,
            Opponent::PassAndPlay | Opponent::Online { .. } | Opponent::Watching => {
                takhte_ai::MAX_LEVEL
            }
        };
        let req = Request {
            game: self.session.game().clone(),
            level: if matches!(purpose, Purpose::Hint) {
                takhte_ai::MAX_LEVEL
            } else {
                level
            },
            seed: self.session.start().seed
                ^ (self.session.cursor() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            rolled: self.rolled,
            movetime_ms: self.movetime_for(purpose),
        };
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = channel();
        let job = match OFFLOAD.with(|o| o.borrow().clone()) {
            Some(offload) => {
                let asked = takhte_ai::wire::Asked {
                    start: self.session.start().clone(),
                    moves: self.session.moves()[..self.session.cursor()].to_vec(),
                    level: req.level,
                    seed: req.seed,
                    rolled: req.rolled,
                    movetime_ms: req.movetime_ms,
                };
                let game = req.game;
                offload(
                    asked.to_text(),
                    Box::new(move |text| {
                        let _ = tx.send(takhte_ai::wire::read_answer(&game, &text));
                    }),
                );
                None
            }
            None => self.search_job(req, &cancel, tx),
        };
        self.pending = Some(Pending {
            generation: self.generation,
            purpose,
            cancel,
            answer: rx,
            job,
            ticks: 0,
        });
    }

    /// The controller's own engine on `req`: on a thread of its own (`None` comes back), or,
    /// where there are no threads, the search to run at a later tick.
    fn search_job(
        &self,
        req: Request,
        cancel: &Arc<AtomicBool>,
        tx: std::sync::mpsc::Sender<Option<takhte_ai::Answer>>,
    ) -> Option<Box<dyn FnOnce() + Send>> {
        let engine = Arc::clone(&self.engine);
        let flag = Arc::clone(cancel);
        let search = move || {
            let answer = engine.think(&req, &flag);
            let _ = tx.send(answer);
        };
        #[cfg(not(target_arch = "wasm32"))]
        {
            std::thread::spawn(search);
            None
        }
        #[cfg(target_arch = "wasm32")]
        {
            Some(Box::new(search))
        }
    }

    pub(super) fn maybe_start_ai(&mut self) {
        if self.pending.is_some()
            || self.is_online()
            || self.paused
            || self.reviewing
            || self.session.is_over()
            || self.human_to_move()
        {
            return;
        }
        self.start_search(Purpose::Move);
    }

    /// Applies the computer's answer if it has come; drops an answer for an old position.
    pub fn poll_ai(&mut self) -> bool {
        let Some(p) = &mut self.pending else {
            return false;
        };
        if p.job.is_some() {
            p.ticks += 1;
            if p.ticks < 2 {
                return false; // the page draws "thinking" first
            }
            if let Some(job) = p.job.take() {
                job();
            }
        }
        match p.answer.try_recv() {
            Ok(answer) => {
                let p = self.pending.take().expect("pending was Some");
                self.handle_answer(p, answer);
                true
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => false,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                self.pending = None;
                false
            }
        }
    }

    /// Waits up to `timeout` for the computer's answer and applies it (for tests and the CLI).
    pub fn wait_for_ai(&mut self, timeout: Duration) -> bool {
        let Some(p) = &mut self.pending else {
            return false;
        };
        if let Some(job) = p.job.take() {
            job();
        }
        match p.answer.recv_timeout(timeout) {
            Ok(answer) => {
                let p = self.pending.take().expect("pending was Some");
                self.handle_answer(p, answer);
                true
            }
            Err(RecvTimeoutError::Timeout) => false,
            Err(RecvTimeoutError::Disconnected) => {
                self.pending = None;
                false
            }
        }
    }

    /// Whether the computer is thinking.
    pub fn thinking(&self) -> bool {
        self.pending
            .as_ref()
            .is_some_and(|p| matches!(p.purpose, Purpose::Move))
    }

    pub(super) fn handle_answer(&mut self, p: Pending, answer: Option<Answer>) {
        if p.generation != self.generation {
            return; // a late answer for an old position
        }
        match (p.purpose, answer) {
            (Purpose::Hint, Some(Answer::Move(m))) => self.hint = Some(m),
            (Purpose::Hint, Some(Answer::Roll)) => {
                self.notice = Some(Status::new("status-hint-roll"))
            }
            (Purpose::Move, Some(Answer::Move(m))) => self.play(m),
            (Purpose::Move, Some(Answer::Roll)) => {
                let face = self.random.roll();
                self.apply_roll(face);
                self.maybe_start_ai();
            }
            (_, None) => {}
        }
    }
}
