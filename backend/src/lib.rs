//! The quote-request server: a warp application over a `QuoteStore`. Imports point down:
//! `error_chain`, `settings` and `store` at the bottom, then `http`, `routes`, and `app` on top.

pub mod app;
pub mod assistant_push;
pub mod backup;
pub mod deletion;
pub mod ended_reason;
pub mod error_chain;
pub mod export;
pub mod forward;
pub mod hash_password;
pub mod http;
pub mod import;
pub mod leads_csv;
pub mod password;
pub mod retention;
pub mod routes;
pub mod send_test_email;
pub mod settings;
pub mod since;
pub mod spam;
pub mod store;
pub mod version;
