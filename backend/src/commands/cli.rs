//! The command line: clap parses the arguments, then `serve` (the default) or one command runs.

use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};

use super::assistant_push::{self, AssistantCommand};
use super::backup::{self, BackupArgs};
use super::check;
use super::export::{self, ExportArgs};
use super::hash_password;
use super::import::{self, ImportArgs};
use super::records::{self, RecordsCommand};
use super::send_test_email;
use crate::app;
use crate::http::request_log;
use crate::settings::Config;
use crate::store::{self, QuoteStore};

/// The health insurance broker's site: the quote API, the voice webhook, the admin API and the
/// built front end. Settings come from the environment (README, "Configuration").
#[derive(Parser)]
#[command(name = "backend", version = super::version::VERSION)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the site and the API (what runs without a command).
    Serve,
    /// Print the stored quote requests, oldest first, from DATABASE_URL read-only.
    Export(ExportArgs),
    /// Read the inbox password from standard input and print its ADMIN_PASSWORD_HASH line.
    HashPassword,
    /// Send one test message through SMTP_URL to LEAD_EMAIL_TO and print the relay's answer.
    SendTestEmail,
    /// Copy the SQLite database at DATABASE_URL to PATH (mode 0600) while the server runs.
    Backup(BackupArgs),
    /// Copy every lead, with its call report and delivery state, from SOURCE_URL into
    /// DATABASE_URL, keeping ids; leads already there are left as they are.
    Import(ImportArgs),
    /// The consent records kept with every lead (`verify`: check their hash chain).
    #[command(subcommand)]
    Records(RecordsCommand),
    /// The voice assistant at the provider (`push`: create or update it from the content folder).
    #[command(subcommand)]
    Assistant(AssistantCommand),
    /// List every example value still in the content folder (CONTENT_DIR, default content/),
    /// each by its key; fails while any is left.
    Check,
    /// Print the API's OpenAPI document (what GET /api/openapi.json answers), from which the
    /// inbox's API types are made (frontend/scripts/api-types.mjs).
    Openapi,
}

/// The binary's `main`. Here rather than in `main.rs` so that the server's async code is compiled
/// once, in this crate: a release build has the binary compile again whatever async code its own
/// `main` polls (docs/figures.md, "Set-up").
#[tokio::main]
pub async fn main() -> ExitCode {
    // --help and --version print and exit 0 here; a bad argument exits 2 with clap's message.
    let cli = Cli::parse();
    request_log::init();
    match run(cli.command.unwrap_or(Command::Serve)).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Serve => serve().await,
        Command::Export(args) => {
            let store = read_only_store().await?;
            let result = export::run(store.as_ref(), &args, &mut std::io::stdout().lock()).await;
            store.close().await;
            result.map_err(|e| e.to_string())
        }
        Command::HashPassword => hash_password::run(),
        Command::SendTestEmail => send_test_email::run().await,
        Command::Backup(args) => backup::run(&config()?.database, &args).await,
        Command::Import(args) => {
            import::run(&config()?.database, &args, &mut std::io::stdout().lock()).await
        }
        Command::Records(command) => {
            let store = read_only_store().await?;
            let out = &mut std::io::stdout().lock();
            let result = match command {
                RecordsCommand::Verify(args) => {
                    records::verify_chain(store.as_ref(), &args, out).await
                }
                RecordsCommand::Export(args) => {
                    records::export_copy(store.as_ref(), &args, out).await
                }
            };
            store.close().await;
            result
        }
        Command::Assistant(command) => assistant_push::run(&command).await,
        Command::Check => check::run(),
        Command::Openapi => {
            println!("{}", crate::routes::openapi::document());
            Ok(())
        }
    }
}

async fn serve() -> Result<(), String> {
    let config = config()?;
    let server = app::start(&config).await.map_err(|e| e.to_string())?;
    let leads = &config.leads;
    tracing::info!(
        voice_webhook = leads.voice_events_secret.is_some(),
        admin_api = leads.admin_token.is_some(),
        admin_inbox = config.inbox.password_hash.is_some(),
        lead_retention_days = config.inbox.retention.map(|r| r.as_secs() / 86_400),
        // The host only: the URL may carry credentials.
        lead_forwarding = leads.forwarding.as_ref().and_then(|f| f.url.host_str()),
        // The relay's URL with its password replaced.
        lead_email = config.email.as_ref().map(|e| e.relay.to_string()),
        "lead endpoints"
    );
    // Scripts and tests read this line to learn the port when PORT=0.
    println!("Listening on http://{}", server.addr);
    shutdown_signal().await;
    tracing::info!("shutting down");
    server.shutdown().await;
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("installing the SIGTERM handler");
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}

fn config() -> Result<Config, String> {
    Config::from_env().map_err(|e| e.to_string())
}

/// The configured database, opened so that a command reading it cannot change it.
async fn read_only_store() -> Result<Arc<dyn QuoteStore>, String> {
    store::open_read_only(&config()?.database)
        .await
        .map_err(|e| e.to_string())
}
