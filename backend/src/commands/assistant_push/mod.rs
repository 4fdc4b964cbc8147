//! `backend assistant push`: the voice assistant as code. Its definition (`assistant.yaml`) and the
//! site's content (`site.yaml` and `es/site.yaml`, for the prompt and the first message in each
//! language) from the content folder become the provider's `request_quote` tool (with booking on
//! also `available_times` and `book_call`) and assistant, created the first time and updated in
//! place after, so pushing twice leaves one of each.
//! `--dry-run` prints what would be sent, and needs no key, secret or network.

mod definition;
mod first_message;
mod prompt;
mod provider;
mod requests;
pub mod site_content;
mod yaml_file;

use secrecy::ExposeSecret;
use serde_json::Value;
use url::Url;

use crate::commands::check::is_example_address;
use crate::settings::assistant_push::AssistantPushSettings;
use definition::AssistantDefinition;
use first_message::FirstMessage;
use provider::ProviderApi;
use requests::VoiceEvents;
use site_content::SiteContent;

const TOOL: &str = "tool";
const ASSISTANT: &str = "assistant";
/// What a dry run shows in place of the voice events' secret.
const HIDDEN_SECRET: &str = "<VAPI_WEBHOOK_SECRET>";

/// `backend assistant`'s commands.
#[derive(Debug, clap::Subcommand)]
pub enum AssistantCommand {
    /// Create or update the voice assistant and its tools at the provider (request_quote, and
    /// with booking on available_times and book_call), from the content folder (CONTENT_DIR,
    /// default content/): assistant.yaml, site.yaml and es/site.yaml.
    Push(PushArgs),
}

#[derive(Debug, clap::Args)]
pub struct PushArgs {
    /// Print what would be sent, and send nothing that changes anything; needs no key, secret
    /// or network (with VAPI_PRIVATE_KEY set, it asks the provider what exists).
    #[arg(long)]
    pub dry_run: bool,
    /// Push an assistant whose calls are not recorded (`recording: false` in assistant.yaml),
    /// which the command otherwise refuses: CMS asks a broker to record Medicare marketing,
    /// sales and enrollment calls.
    #[arg(long)]
    pub without_recording: bool,
}

pub async fn run(command: &AssistantCommand) -> Result<(), String> {
    let AssistantCommand::Push(args) = command;
    let settings = AssistantPushSettings::from_env().map_err(|e| e.to_string())?;
    push(&settings, args).await
}

/// Why an assistant that does not record its calls is not pushed without being told to.
const UNRECORDED: &str = "recording: false in assistant.yaml: calls would not be recorded, \
    while CMS asks a broker to record Medicare marketing, sales and enrollment calls in their \
    entirety and keep them (42 CFR 422.2274(g)(2)(ii), 423.2274(g)(2)(ii)); turn recording on, \
    or give --without-recording to push it anyway (nothing was pushed)";

async fn push(settings: &AssistantPushSettings, args: &PushArgs) -> Result<(), String> {
    let dry_run = args.dry_run;
    // A dry run needs neither: it sends nothing, and asks the provider only when it has the key.
    let credentials = if dry_run {
        None
    } else {
        Some(settings.required().map_err(|e| e.to_string())?)
    };
    let definition = AssistantDefinition::load(&settings.content_dir)?;
    if !definition.recording && !args.without_recording {
        return Err(format!(
            "{}: {UNRECORDED}",
            settings.content_dir.join(definition::FILE).display()
        ));
    }
    let content = SiteContent::load(&settings.content_dir)?;
    if !dry_run && is_example_address(&content.brand.url) {
        let file = settings.content_dir.join(site_content::FILE);
        return Err(format!(
            "{}: brand.url is the example's address ({}): put your site's address there before \
             pushing (`backend check` lists every example value still in place; --dry-run \
             previews)",
            file.display(),
            content.brand.url
        ));
    }
    let first_message = FirstMessage::new(&definition, &content)?;
    let site_url = match &settings.site_url {
        Some(url) => url.clone(),
        None => Url::parse(&content.brand.url).map_err(|error| {
            let file = settings.content_dir.join(site_content::FILE);
            format!("{}: brand.url: {error}", file.display())
        })?,
    };
    let Some((key, secret)) = credentials else {
        return preview(settings, &definition, &content, &first_message, &site_url).await;
    };
    let voice_events = VoiceEvents::at(&site_url, secret.expose_secret());
    let api = ProviderApi::new(
        settings.api_base_url.clone(),
        key.clone(),
        Some(secret.clone()),
    );
    let (listed, assistant_id) = existing(&api, settings, &definition).await?;

    let mut tool_ids = Vec::new();
    for (name, body) in requests::tools(&content, &voice_events) {
        let tool_id = tool_named(&listed, name);
        let saved_tool = api.save(TOOL, tool_id.as_deref(), &body).await?;
        println!("{} the {name} tool: {saved_tool}", done(&tool_id));
        tool_ids.push(saved_tool);
    }
    let assistant_body = requests::assistant(
        &definition,
        &content,
        &first_message,
        &tool_ids,
        &voice_events,
    );
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

/// The tools the provider already has, and the id of the assistant it has, if any: the one
/// named by `VAPI_ASSISTANT_ID`, else the one with the definition's name.
async fn existing(
    api: &ProviderApi,
    settings: &AssistantPushSettings,
    definition: &AssistantDefinition,
) -> Result<(Vec<Value>, Option<String>), String> {
    let tools = api.list(TOOL).await?;
    let assistant_id = match &settings.assistant_id {
        Some(id) => Some(id.clone()),
        None => api
            .list(ASSISTANT)
            .await?
            .iter()
            .find(|assistant| assistant["name"] == definition.name.as_str())
            .and_then(id_of),
    };
    Ok((tools, assistant_id))
}

/// The id of the function tool named `name` among `listed`, if there is one.
fn tool_named(listed: &[Value], name: &str) -> Option<String> {
    listed
        .iter()
        .find(|tool| tool["type"] == "function" && tool["function"]["name"] == name)
        .and_then(id_of)
}

/// `--dry-run`: every request a push would send that changes something, with its body, and the
/// first message in each language as a visitor hears it. With `VAPI_PRIVATE_KEY` it asks the
/// provider (reading only) which tool and assistant exist; without, it makes no network call.
async fn preview(
    settings: &AssistantPushSettings,
    definition: &AssistantDefinition,
    content: &SiteContent,
    first_message: &FirstMessage,
    site_url: &Url,
) -> Result<(), String> {
    let voice_events = VoiceEvents::at(site_url, HIDDEN_SECRET);
    let (listed, assistant_id) = match &settings.private_key {
        Some(key) => {
            let api = ProviderApi::new(
                settings.api_base_url.clone(),
                key.clone(),
                settings.voice_events_secret.clone(),
            );
            existing(&api, settings, definition).await?
        }
        None => (Vec::new(), settings.assistant_id.clone()),
    };
    let base = &settings.api_base_url;
    let mut tool_ids = Vec::new();
    for (name, body) in requests::tools(content, &voice_events) {
        let tool_id = tool_named(&listed, name);
        show(base, TOOL, tool_id.as_deref(), &body);
        // In place of the id of a tool it would create.
        tool_ids
            .push(tool_id.unwrap_or_else(|| format!("<the id of the {name} tool created above>")));
    }
    let assistant_body =
        requests::assistant(definition, content, first_message, &tool_ids, &voice_events);
    show(base, ASSISTANT, assistant_id.as_deref(), &assistant_body);
    println!("The first message, as the visitors of each language's pages hear it:");
    for (language, text) in first_message.texts() {
        println!("{} ({}): {text}", language.label(), language.as_str());
    }
    println!();
    if settings.private_key.is_none() {
        println!(
            "Without VAPI_PRIVATE_KEY the provider was not asked what it has: a push updates the \
             tools and the assistant it finds there instead of creating them."
        );
    }
    println!(
        "Dry run: nothing was sent. The webhook's secret is sent in place of {HIDDEN_SECRET}."
    );
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
fn show(base: &Url, kind: &str, id: Option<&str>, body: &Value) {
    let (method, path) = match id {
        Some(id) => ("PATCH", format!("{kind}/{id}")),
        None => ("POST", kind.to_owned()),
    };
    let body = serde_json::to_string_pretty(body).expect("JSON values serialise");
    println!("{method} {}\n{body}\n", provider::url(base, &path));
}
