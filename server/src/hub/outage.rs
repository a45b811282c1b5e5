//! Time the servers were not running is nobody's thinking time.
//!
//! Every instance beats: the ticker notes in memory that this process runs (every 50 ms), and
//! once a second the store keeps the last time any server on it ran ([`Storage::beat`]). When a
//! server starts, or this process finds it has not run for a while (it was paused, or the
//! machine slept), and no other server beat meanwhile, the time from the last beat to now is
//! given back to every running clock, with a [`GameEvent::Resumed`] for the clients. In a
//! cluster where other instances kept running, nothing is given back: the games went on there.
//!
//! [`Storage::beat`]: crate::store::Storage::beat
//! [`GameEvent::Resumed`]: takhte_protocol::GameEvent::Resumed

use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::room::Room;
use super::Hub;
use crate::store::StoreError;
use crate::{log, now_ms};

/// A gap without a beat longer than this is an outage.
pub const OUTAGE_MS: u64 = 3_000;

impl Hub {
    /// Notes that this process runs now; when it had not run for longer than `OUTAGE_MS`
    /// (or has just started), first credits the time nobody served to the running clocks.
    /// Cheap when nothing happened; requests that change a game call it before they look at a
    /// clock, so that a request read just after a pause is not charged the pause.
    pub async fn settle_outage(&self) {
        if !self.started.load(Ordering::Relaxed) {
            return; // the games are not loaded yet: load_running settles once they are
        }
        let now = now_ms();
        if now.saturating_sub(self.alive_ms.load(Ordering::Relaxed)) <= OUTAGE_MS {
            self.alive_ms.fetch_max(now, Ordering::Relaxed);
            return;
        }
        let _one = self.outage.lock().await;
        let now = now_ms();
        if now.saturating_sub(self.alive_ms.load(Ordering::Relaxed)) <= OUTAGE_MS {
            return; // credited by another request meanwhile
        }
        // This process ran until its last beat (0: it has just started).
        let alive = self.alive_ms.load(Ordering::Relaxed);
        match self.store.beat(now, OUTAGE_MS).await {
            Ok(Some(since)) => self.credit_outage(since.max(alive), now).await,
            Ok(None) => {}
            Err(e) => {
                // Nothing is known of the other servers: nothing is credited; requests go on.
                log!("the heartbeat could not be stored: {e}");
            }
        }
        self.alive_ms.store(now, Ordering::Relaxed);
    }

    /// Keeps the store's heartbeat (once a second, on a task of its own). A pause of this
    /// process is settled first: a fresh beat written before would hide it.
    pub async fn beat(&self) {
        self.settle_outage().await;
        if let Err(e) = self.store.beat(now_ms(), OUTAGE_MS).await {
            log!("the heartbeat could not be stored: {e}");
        }
    }

    /// Gives the time from `since` to `now` back to every running clock in memory.
    async fn credit_outage(&self, since: u64, now: u64) {
        let rooms: Vec<Arc<Room>> = self.all_rooms();
        let mut credited = 0;
        for room in rooms {
            let mut inner = room.inner.lock().await;
            let mut next = inner.live.clone();
            let Some(event) = next.resume(since, now) else {
                continue;
            };
            match self
                .store_events(&room, &mut inner, next, vec![event])
                .await
            {
                Ok(()) => credited += 1,
                Err(StoreError::Conflict) => self.refresh_from_store(&room, &mut inner).await,
                Err(e) => log!("game {}: the outage could not be credited: {e}", room.code),
            }
        }
        log!(
            "no server ran for {} ms: the time given back to {credited} running clocks",
            now - since
        );
    }
}
