//! The quote-request server: a warp application over a `QuoteStore`. Imports point down:
//! `store` and `settings` at the bottom, then the lead's life (`leads`), `http` and `forward`,
//! `routes`, and `app` and the command line's `commands` on top.

pub mod app;
pub mod commands;
pub mod forward;
pub mod http;
pub mod leads;
pub mod routes;
pub mod settings;
pub mod spam;
pub mod store;
