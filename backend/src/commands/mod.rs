//! The command line's commands besides `serve` (`cli.rs` parses them with clap): each runs once
//! and exits, reading the same settings as the server.

pub mod assistant_push;
pub mod backup;
pub mod check;
pub mod cli;
pub mod export;
pub mod hash_password;
pub mod import;
pub mod records;
pub mod send_test_email;
pub mod version;
