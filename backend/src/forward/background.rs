//! The thread the outbox workers run on: a tokio runtime of its own at the idle CPU priority
//! (`SCHED_IDLE`), so it runs only on cores nothing else wants. When requests and deliveries
//! want the same cores the requests come first, and the deliveries wait in the durable outbox
//! until the cores are free again: sending stays off the request path in CPU time too, not only
//! in the request's code. Nice +10 was not enough: the workers still took a tenth of a busy
//! server's posts (`scripts/bench.sh --email`).
//!
//! `SCHED_IDLE` is Linux's, where the server runs. Elsewhere (a developer's Mac) the thread keeps
//! the normal priority: macOS's nearest, the background QoS class, also throttles disk and
//! network, so local deliveries would crawl for no gain on a machine serving one developer.

use std::thread::JoinHandle;

use tokio::runtime::Handle;
use tokio::sync::oneshot;

pub struct Background {
    handle: Handle,
    stop: oneshot::Sender<()>,
    thread: JoinHandle<()>,
}

impl Background {
    pub fn start() -> std::io::Result<Background> {
        let (handle_sender, handle_receiver) = std::sync::mpsc::channel();
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("lead-outbox".into())
            .spawn(move || {
                lower_priority();
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => runtime,
                    Err(error) => {
                        let _ = handle_sender.send(Err(error));
                        return;
                    }
                };
                let _ = handle_sender.send(Ok(runtime.handle().clone()));
                runtime.block_on(async {
                    let _ = stopped.await;
                });
            })?;
        let handle = handle_receiver
            .recv()
            .map_err(|_| std::io::Error::other("the outbox thread ended at start"))??;
        Ok(Background {
            handle,
            stop,
            thread,
        })
    }

    /// Its runtime, to spawn the workers on.
    pub fn handle(&self) -> &Handle {
        &self.handle
    }

    /// Ends the thread; what still runs on it is dropped, so stop the workers first.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        let _ = tokio::task::spawn_blocking(move || self.thread.join()).await;
    }
}

/// Threads the runtime starts later (its blocking pool) inherit the policy.
#[cfg(target_os = "linux")]
fn lower_priority() {
    let idle = libc::sched_param { sched_priority: 0 };
    // SAFETY: with pid 0, sched_setscheduler changes only the calling thread's policy (Linux
    // schedules threads one by one); it reads `idle` and touches no other memory of ours.
    let changed = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &idle) } == 0;
    if !changed {
        tracing::warn!(
            error = %std::io::Error::last_os_error(),
            "cannot lower the lead outbox's priority; deliveries compete with requests"
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The calling thread's scheduling policy.
    fn policy() -> i32 {
        // SAFETY: reads the calling thread's policy; no memory is passed.
        unsafe { libc::sched_getscheduler(0) }
    }

    #[tokio::test]
    async fn the_workers_and_their_blocking_reads_run_at_the_idle_priority() {
        let background = Background::start().unwrap();
        let policies = background
            .handle()
            .spawn(async {
                let blocking = tokio::task::spawn_blocking(policy).await.unwrap();
                (policy(), blocking)
            })
            .await
            .unwrap();
        assert_eq!(policies, (libc::SCHED_IDLE, libc::SCHED_IDLE));
        assert_ne!(
            policy(),
            libc::SCHED_IDLE,
            "the server's own threads keep theirs"
        );
        background.stop().await;
    }
}
