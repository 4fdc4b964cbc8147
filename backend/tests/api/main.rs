//! The API's integration tests: one binary (one link, one build), a module per area, all starting
//! the real application through `common::TestApp`.

mod common;

mod admin_api;
mod assistant_push;
mod bad_setting;
mod client_config;
mod command_line;
mod email;
mod export_command;
mod hardening;
mod idempotency;
mod inbox;
mod lead_forwarding;
mod locked_database;
mod postgres_outage;
mod quote_api;
mod quote_form;
mod site_and_health;
mod voice_server_sdk;
mod voice_webhook;
