//! The quote-request server: a warp application over a `QuoteStore`.

pub mod app;
pub mod client_config;
pub mod config;
pub mod error;
pub mod export;
pub mod health;
pub mod limits;
pub mod quotes;
pub mod request_log;
pub mod site;
pub mod store;
