//! What `backend --version` prints: the release, the commit it was built from and whether the
//! work tree had changes then (`build.rs`), e.g. `0.2.0 (commit 1a2b3c4d5e6f, clean tree)`.

pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("BACKEND_BUILD"), ")");
