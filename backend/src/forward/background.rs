//! The thread the outbox workers run on: a tokio runtime of its own at a lower CPU priority, so
//! when requests and deliveries want the same cores the requests come first, and the deliveries
//! wait in the durable outbox until the cores are free again. Sending stays off the request
//! path in CPU time too, not only in the request's code.

use std::future::Future;
use std::thread::JoinHandle;

use tokio::runtime::Handle;
use tokio::sync::oneshot;

/// How much lower than the server's the workers' priority is (nice steps: at +10 a thread gets
/// about a tenth of the CPU a default one gets when both want it, all of it when alone).
const NICER_BY: i32 = 10;

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

    pub fn spawn<F>(&self, task: F) -> tokio::task::JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        self.handle.spawn(task)
    }

    /// Ends the thread; what still runs on it is dropped, so stop the workers first.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        let _ = tokio::task::spawn_blocking(move || self.thread.join()).await;
    }
}

/// Threads the runtime starts later (its blocking pool) inherit the priority.
fn lower_priority() {
    // SAFETY: nice() only changes the calling thread's scheduling priority (Linux's threads each
    // have their own); it touches no memory of ours.
    let changed = unsafe {
        *libc::__errno_location() = 0;
        libc::nice(NICER_BY) != -1 || *libc::__errno_location() == 0
    };
    if !changed {
        tracing::warn!(
            error = %std::io::Error::last_os_error(),
            "cannot lower the lead outbox's priority; deliveries compete with requests"
        );
    }
}
