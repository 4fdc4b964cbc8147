//! The quote-request server: a warp application over a `QuoteStore`.

pub mod admin;
pub mod app;
pub mod auth;
pub mod config;
pub mod error;
pub mod export;
pub mod forward;
pub mod health;
pub mod leads_config;
pub mod limits;
pub mod quotes;
pub mod request_log;
pub mod site;
pub mod store;
pub mod vapi;
