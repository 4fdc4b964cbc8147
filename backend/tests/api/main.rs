//! The API's integration tests: one binary (one link, one build), a module per area, all starting
//! the real application through `common::TestApp`.

mod common;

mod admin_api;
mod assistant_books;
mod assistant_push;
mod backup_and_import;
mod bad_setting;
mod booking;
mod callable_leads;
mod check_content;
mod client_config;
mod command_line;
mod consent_page;
mod consent_records;
mod conversation_consent;
mod conversations;
mod delivery_alerts;
mod email;
mod env_file;
mod export_command;
mod hardening;
mod idempotency;
mod inbox;
mod lead_forwarding;
mod locked_database;
mod opt_out;
mod postgres_outage;
mod postgres_start;
mod quote_api;
mod quote_form;
mod recordings;
mod request_id;
mod send_test_email;
mod site_and_health;
mod spam;
mod voice_events;
mod voice_server_sdk;
