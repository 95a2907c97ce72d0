//! Settings with named defaults, one line each.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::{Error, Result};

/// Default for [`Limits::max_input_bytes`]: 64 MiB of HTML after decompression, 12 times the
/// largest page of the shared data (5.3 MB). The pipeline's heap peaks at about 6.5 bytes per
/// input byte (100 MB of text: 643 MiB), so this bounds a page to about 420 MiB.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 64 << 20;
/// Default for [`Limits::max_nodes`]: 2 million DOM nodes. The pipeline's heap peaks at about
/// 450 bytes per node (1,000,000 sibling paragraphs: 2 million nodes, 878 MiB), so this bounds a
/// page to about 0.9 GiB; misnested formatting tags, which the parser clones, reach it from a
/// few hundred kilobytes and stop there.
pub const DEFAULT_MAX_NODES: usize = 2_000_000;
/// Default for [`Limits::timeout_ms`]: 10 seconds per page. Real pages take milliseconds (the
/// slowest of the shared data about 0.1 s); a page with a million nodes takes seconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;

/// Resource limits for one page. Exceeding one is an error for that page alone.
///
/// The size and node limits give the same answer on every machine; the time limit is the
/// one that depends on the machine's speed and load, which is why its default is far above
/// what any real page needs (docs/robustness.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest input accepted, in bytes after gzip decompression; a larger one is `Error::TooLarge`.
    pub max_input_bytes: u64,
    /// Most DOM nodes one page may produce; more is `Error::TooManyNodes`.
    pub max_nodes: usize,
    /// Wall-clock time one page may take from reading to text, in ms (0 = none); over it is
    /// `Error::Timeout`. It applies where a [`Deadline`] is passed: [`Limits::deadline`] starts
    /// one, and [`crate::pipeline::run_bytes`] and the CLI's page commands run under it.
    pub timeout_ms: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input_bytes: DEFAULT_MAX_INPUT_BYTES,
            max_nodes: DEFAULT_MAX_NODES,
            timeout_ms: DEFAULT_TIMEOUT_MS,
        }
    }
}

impl Limits {
    /// Size limits without a time limit (add one with [`Limits::with_timeout`]).
    pub fn sizes(max_input_bytes: u64, max_nodes: usize) -> Limits {
        Limits {
            max_input_bytes,
            max_nodes,
            timeout_ms: 0,
        }
    }

    /// These limits with a time limit of `timeout_ms` per page (0 = none).
    #[must_use]
    pub fn with_timeout(self, timeout_ms: u64) -> Limits {
        Limits { timeout_ms, ..self }
    }

    /// A deadline [`Limits::timeout_ms`] from now, to hand to every stage of one page.
    pub fn deadline(&self) -> Deadline {
        Deadline {
            at: (self.timeout_ms > 0)
                .then(|| Instant::now().checked_add(Duration::from_millis(self.timeout_ms)))
                .flatten(),
            timeout_ms: self.timeout_ms,
            cancel: None,
        }
    }
}

/// When one page must be done. Checked between stages and every [`Deadline::STRIDE`] tags of
/// the parse (a clock read costs about 20 ns, a tag far more), never by killing a thread: a
/// page that finishes in time gives the same output whatever the machine's load or the thread
/// count. A stage that starts before the deadline runs to its end, so a page can overrun by
/// up to its longest stage after the parse (each linear or near-linear in the nodes).
///
/// A deadline may also carry a cancel flag ([`Deadline::with_cancel`]): another thread sets it
/// (a Python call interrupted by Ctrl-C) and the page stops at its next check with
/// [`Error::Cancelled`].
#[derive(Debug, Clone)]
pub struct Deadline {
    at: Option<Instant>,
    timeout_ms: u64,
    cancel: Option<Arc<AtomicBool>>,
}

impl Deadline {
    /// Steps of a long loop between two clock reads (see [`Deadline::check_every`]).
    pub const STRIDE: usize = 64;

    /// No deadline: every check passes.
    pub fn none() -> Deadline {
        Deadline {
            at: None,
            timeout_ms: 0,
            cancel: None,
        }
    }

    /// This deadline, also passed once `cancel` is set.
    pub fn with_cancel(self, cancel: Arc<AtomicBool>) -> Deadline {
        Deadline {
            cancel: Some(cancel),
            ..self
        }
    }

    /// `Err(Error::Timeout)` naming `stage` once the deadline has passed.
    pub fn check(&self, stage: &'static str) -> Result<()> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Err(Error::Cancelled { stage });
        }
        match self.at {
            Some(at) if Instant::now() >= at => Err(Error::Timeout {
                limit_ms: self.timeout_ms,
                stage,
            }),
            _ => Ok(()),
        }
    }

    /// [`Deadline::check`] on every [`Deadline::STRIDE`]-th step `i` of a loop, free otherwise.
    #[inline]
    pub fn check_every(&self, i: usize, stage: &'static str) -> Result<()> {
        if i.is_multiple_of(Self::STRIDE) {
            self.check(stage)
        } else {
            Ok(())
        }
    }
}
