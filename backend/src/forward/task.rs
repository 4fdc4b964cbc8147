//! A loop that runs until told to stop, and its stop: each outbox worker, the digest, the
//! alerts' checks, the retention timer and the accept loop.

use tokio::runtime::Handle;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A running loop; `stop` ends it.
pub struct Task {
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl Task {
    /// Runs `task` on `runtime` until it returns, which it must soon after its receiver says
    /// stop.
    pub fn spawn<F>(runtime: &Handle, task: impl FnOnce(oneshot::Receiver<()>) -> F) -> Task
    where
        F: std::future::Future<Output = ()> + Send + 'static,
    {
        let (stop, stopped) = oneshot::channel();
        let task = runtime.spawn(task(stopped));
        Task { stop, task }
    }

    /// Says stop and waits for the loop to return (a worker's deliveries in flight get up to
    /// `worker::DELIVERY_TIMEOUT`; any unfinished stay due and go out again after a restart).
    pub async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.task.await;
    }
}
