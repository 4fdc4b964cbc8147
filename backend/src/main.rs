use std::process::ExitCode;

use backend::export::{self, ExportArgs};
use backend::hash_password;
use backend::http::request_log;
use backend::settings::Config;
use backend::{app, store};

#[tokio::main]
async fn main() -> ExitCode {
    request_log::init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None | Some("serve") => serve().await,
        Some("export") => run_export(&args[1..]).await,
        Some("hash-password") => hash_password::run(),
        Some(other) => Err(format!(
            "unknown command {other:?}\nusage: backend [serve | export | hash-password]"
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn serve() -> Result<(), String> {
    let config = Config::from_env().map_err(|e| e.to_string())?;
    let server = app::start(&config).await.map_err(|e| e.to_string())?;
    let leads = &config.leads;
    tracing::info!(
        voice_webhook = leads.vapi_webhook_secret.is_some(),
        admin_api = leads.admin_token.is_some(),
        admin_inbox = config.inbox.password_hash.is_some(),
        lead_retention_days = config.inbox.retention.map(|r| r.as_secs() / 86_400),
        // The host only: the URL may carry credentials.
        lead_forwarding = leads.forwarding.as_ref().and_then(|f| f.url.host_str()),
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

async fn run_export(args: &[String]) -> Result<(), String> {
    let args = ExportArgs::parse(args).map_err(|e| format!("{e}\n{}", export::USAGE))?;
    let config = Config::from_env().map_err(|e| e.to_string())?;
    let store = store::open(&config.database)
        .await
        .map_err(|e| e.to_string())?;
    let result = export::run(store.as_ref(), &args, &mut std::io::stdout().lock()).await;
    store.close().await;
    result.map_err(|e| e.to_string())
}
