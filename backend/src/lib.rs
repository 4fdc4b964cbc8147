//! The quote-request server: a warp application over a `QuoteStore`.

pub mod admin;
pub mod app;
pub mod auth;
pub mod client_config;
pub mod client_ip;
pub mod connections;
pub mod error;
pub mod export;
pub mod forward;
pub mod health;
pub mod limits;
pub mod openapi;
pub mod quotes;
pub mod rate_limit;
pub mod request_log;
pub mod security_headers;
pub mod settings;
pub mod site;
pub mod store;
pub mod vapi;
