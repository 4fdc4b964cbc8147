//! `backend assistant push`: the voice assistant as code. Its definition (`assistant.yaml`) and the
//! site's content (`site.yaml`, for the prompt) from the content folder become the provider's
//! `request_quote` tool and assistant, created the first time and updated in place after, so
//! pushing twice leaves one of each.

mod definition;
mod prompt;
mod provider;
mod requests;
mod site_content;
mod yaml_file;

use secrecy::ExposeSecret;
use serde_json::Value;
use url::Url;

use crate::routes::voice_events::REQUEST_QUOTE_TOOL;
use crate::settings::assistant_push::AssistantPushSettings;
use definition::AssistantDefinition;
use provider::ProviderApi;
use requests::VoiceEvents;
use site_content::SiteContent;

const TOOL: &str = "tool";
const ASSISTANT: &str = "assistant";
/// What a dry run shows in place of the voice events' secret.
const HIDDEN_SECRET: &str = "<VAPI_WEBHOOK_SECRET>";
/// What a dry run shows in place of the id of a tool it would create.
const NEW_TOOL_ID: &str = "<the id of the tool created above>";

/// `backend assistant`'s commands.
#[derive(Debug, clap::Subcommand)]
pub enum AssistantCommand {
    /// Create or update the voice assistant and its request_quote tool at the provider, from
    /// the content folder (CONTENT_DIR, default content/): assistant.yaml and site.yaml.
    Push(PushArgs),
}

#[derive(Debug, clap::Args)]
pub struct PushArgs {
    /// Print what would be sent, and send nothing that changes anything.
    #[arg(long)]
    pub dry_run: bool,
}

pub async fn run(command: &AssistantCommand) -> Result<(), String> {
    let AssistantCommand::Push(args) = command;
    let settings = AssistantPushSettings::from_env().map_err(|e| e.to_string())?;
    push(&settings, args.dry_run).await
}

async fn push(settings: &AssistantPushSettings, dry_run: bool) -> Result<(), String> {
    let definition = AssistantDefinition::load(&settings.content_dir)?;
    let content = SiteContent::load(&settings.content_dir)?;
    let site_url = match &settings.site_url {
        Some(url) => url.clone(),
        None => Url::parse(&content.brand.url).map_err(|error| {
            let file = settings.content_dir.join(site_content::FILE);
            format!("{}: brand.url: {error}", file.display())
        })?,
    };
    let secret = if dry_run {
        HIDDEN_SECRET
    } else {
        settings.voice_events_secret.expose_secret()
    };
    let voice_events = VoiceEvents::at(&site_url, secret);
    let api = ProviderApi::new(
        settings.api_base_url.clone(),
        settings.private_key.clone(),
        settings.voice_events_secret.clone(),
    );

    let tools = api.list(TOOL).await?;
    let tool_id = tools
        .iter()
        .find(|tool| tool["type"] == "function" && tool["function"]["name"] == REQUEST_QUOTE_TOOL)
        .and_then(id_of);
    let assistant_id = match &settings.assistant_id {
        Some(id) => Some(id.clone()),
        None => api
            .list(ASSISTANT)
            .await?
            .iter()
            .find(|assistant| assistant["name"] == definition.name.as_str())
            .and_then(id_of),
    };

    let tool_body = requests::tool(&content, &voice_events);
    if dry_run {
        show(&api, TOOL, tool_id.as_deref(), &tool_body);
        let tool_id = tool_id.as_deref().unwrap_or(NEW_TOOL_ID);
        let assistant_body = requests::assistant(&definition, &content, tool_id, &voice_events);
        show(&api, ASSISTANT, assistant_id.as_deref(), &assistant_body);
        println!(
            "Dry run: nothing was sent. The webhook's secret is sent in place of {HIDDEN_SECRET}."
        );
        return Ok(());
    }
    let saved_tool = api.save(TOOL, tool_id.as_deref(), &tool_body).await?;
    println!(
        "{} the {REQUEST_QUOTE_TOOL} tool: {saved_tool}",
        done(&tool_id)
    );
    let assistant_body = requests::assistant(&definition, &content, &saved_tool, &voice_events);
    let saved_assistant = api
        .save(ASSISTANT, assistant_id.as_deref(), &assistant_body)
        .await?;
    println!(
        "{} the assistant \"{}\": {saved_assistant}",
        done(&assistant_id),
        definition.name
    );
    println!("Put this line in the server's environment, then restart it:");
    println!("VAPI_ASSISTANT_ID={saved_assistant}");
    Ok(())
}

fn id_of(found: &Value) -> Option<String> {
    found["id"].as_str().map(str::to_owned)
}

fn done(existing: &Option<String>) -> &'static str {
    if existing.is_some() {
        "Updated"
    } else {
        "Created"
    }
}

/// A dry run's account of one request it would send.
fn show(api: &ProviderApi, kind: &str, id: Option<&str>, body: &Value) {
    let (method, path) = match id {
        Some(id) => ("PATCH", format!("{kind}/{id}")),
        None => ("POST", kind.to_owned()),
    };
    let body = serde_json::to_string_pretty(body).expect("JSON values serialise");
    println!("{method} {}\n{body}\n", api.url(&path));
}
