//! One module per endpoint (or group of endpoints), each a warp filter `app.rs` puts together.

pub mod admin;
pub mod booking;
pub mod booking_manage;
pub mod calendar_feed;
pub mod chat_consent;
pub mod client_config;
pub mod consent_page;
pub mod form_token_cookie;
pub mod health;
pub mod link_page;
pub mod notice_acceptance;
pub mod openapi;
pub mod opt_out;
pub mod quote_result;
pub mod quotes;
pub mod site;
pub mod voice_events;
