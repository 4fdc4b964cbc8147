//! The quote-request server: a warp application over a `QuoteStore`. Imports point down:
//! `settings` and `store` at the bottom, then `http`, `routes`, and `app` on top.

pub mod app;
pub mod export;
pub mod forward;
pub mod http;
pub mod retention;
pub mod routes;
pub mod settings;
pub mod store;
