//! The bodies sent to the provider, in its REST shapes (held to `@vapi-ai/server-sdk`'s
//! declarations by the fixtures in `backend/tests/vapi-server-sdk/assistant-push/`): the
//! function tools (`POST /tool`, `PATCH /tool/{id}`): `request_quote`, and with booking on
//! `available_times` and `book_call`; and the assistant (`POST /assistant`,
//! `PATCH /assistant/{id}`), which uses them by their ids.

use serde_json::{json, Value};
use url::Url;

use crate::routes::voice_events::{
    AVAILABLE_TIMES_TOOL, BOOK_CALL_TOOL, REQUEST_QUOTE_TOOL, SECRET_HEADER,
};
use crate::store::Language;

use super::definition::AssistantDefinition;
use super::first_message::{FirstMessage, LANGUAGES};
use super::prompt::system_prompt;
use super::site_content::SiteContent;

/// The voice events' path under the site's address.
const VOICE_EVENTS_PATH: &str = "api/vapi/webhook";
/// The messages the voice events' route reads (`backend/src/routes/voice_events/`).
const SERVER_MESSAGES: [&str; 3] = ["end-of-call-report", "tool-calls", "chat.created"];

/// Where the provider sends the tool's calls and the assistant's messages.
pub struct VoiceEvents<'a> {
    pub url: Url,
    /// The value of the voice events' secret header.
    pub secret: &'a str,
}

impl<'a> VoiceEvents<'a> {
    pub fn at(site_url: &Url, secret: &'a str) -> VoiceEvents<'a> {
        // Relative to the site's address as a folder, so a site under a path keeps it.
        let mut base = site_url.clone();
        if !base.path().ends_with('/') {
            base.set_path(&format!("{}/", base.path()));
        }
        VoiceEvents {
            url: base.join(VOICE_EVENTS_PATH).expect("a relative path joins"),
            secret,
        }
    }

    fn server(&self) -> Value {
        json!({ "url": self.url.as_str(), "headers": { SECRET_HEADER: self.secret } })
    }
}

/// The tools the assistant uses, each with its name: `request_quote`, and with booking on
/// `available_times` and `book_call`.
pub fn tools(content: &SiteContent, voice_events: &VoiceEvents) -> Vec<(&'static str, Value)> {
    let mut tools = vec![(REQUEST_QUOTE_TOOL, request_quote(content, voice_events))];
    if content.booking_on() {
        tools.push((AVAILABLE_TIMES_TOOL, available_times(voice_events)));
        tools.push((BOOK_CALL_TOOL, book_call(content, voice_events)));
    }
    tools
}

/// A function tool the provider calls at the voice events, answered there before the
/// assistant goes on.
fn function(voice_events: &VoiceEvents, function: Value) -> Value {
    json!({
        "type": "function",
        "async": false,
        "function": function,
        "server": voice_events.server(),
    })
}

fn available_times(voice_events: &VoiceEvents) -> Value {
    function(
        voice_events,
        json!({
            "name": AVAILABLE_TIMES_TOOL,
            "description": "Answers the next times open to book a call with a licensed agent, on the broker's clock, each with the value book_call takes as slot. Give from for the times from that day on.",
            "parameters": {
                "type": "object",
                "properties": {
                    "from": {
                        "type": "string",
                        "format": "date",
                        "description": "A date of the broker's calendar such as 2026-03-09, when the caller wants times from that day on; leave it out for the next ones.",
                    },
                },
            },
        }),
    )
}

fn book_call(content: &SiteContent, voice_events: &VoiceEvents) -> Value {
    let (values, meanings) = product_enum(&content.soa_products(Language::En));
    let mut properties = json!({
        "slot": {
            "type": "string",
            "format": "date-time",
            "description": "The chosen time's value, exactly as available_times gave it, for example 2026-03-09T15:30:00Z.",
        },
        "name": {
            "type": "string",
            "description": "The caller's full name as they gave it: their signature for the Scope of Appointment.",
        },
        "email": {
            "type": "string",
            "description": "The caller's e-mail address, read back to them letter by letter, for example ana@example.com",
        },
        "products": {
            "type": "array",
            "items": { "type": "string", "enum": values },
            "description": format!("The product types the caller agreed to discuss, one or more: {meanings}"),
        },
        "language": {
            "type": "string",
            "enum": LANGUAGES.map(Language::as_str),
            "description": "The language of the Scope of Appointment you read to the caller: en or es.",
        },
    });
    phone_properties(content, &mut properties);
    function(
        voice_events,
        json!({
            "name": BOOK_CALL_TOOL,
            "description": "Books the chosen time for a call with a licensed agent, with the Scope of Appointment the caller agreed to. Call it once, only after you read them the Scope of Appointment in the prompt word for word and they said yes. If the result is an error, tell the caller what it says; if the time was just taken, offer the times it gives.",
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": ["slot", "name", "email", "products", "language"],
            },
        }),
    )
}

/// A product property's allowed values and what each means to the assistant
/// (`medicare = Medicare, ...`).
fn product_enum(products: &[(&'static str, &str)]) -> (Vec<&'static str>, String) {
    let values = products.iter().map(|(value, _)| *value).collect();
    let meanings: Vec<String> = products
        .iter()
        .map(|(value, label)| format!("{value} = {label}"))
        .collect();
    (values, meanings.join(", "))
}

/// The caller's number and their answer to the consent question, when the page asks for a phone
/// number.
fn phone_properties(content: &SiteContent, properties: &mut Value) {
    if content.asks_phone() {
        properties["phone"] = json!({
            "type": "string",
            "description": "The caller's US phone number, ten digits with the area code, for example 555-555-0123; leave it out if they would rather not give one.",
        });
        properties["may_call"] = json!({
            "type": "boolean",
            "description": "true only when the caller said yes to the consent question about being called at that number; otherwise false.",
        });
    }
}

fn request_quote(content: &SiteContent, voice_events: &VoiceEvents) -> Value {
    let (values, meanings) = product_enum(&content.products());
    let mut properties = json!({
        "product": {
            "type": "string",
            "enum": values,
            "description": meanings,
        },
        "email": {
            "type": "string",
            "description": "The caller's e-mail address, for example ana@example.com",
        },
    });
    // The fields the broker added to the form, optional here: a caller may decline them.
    phone_properties(content, &mut properties);
    if content.asks_zip() {
        properties["zip"] = json!({
            "type": "string",
            "description": "The caller's 5-digit ZIP code, for example 78701; leave it out if they would rather not give it.",
        });
    }
    function(
        voice_events,
        json!({
            "name": REQUEST_QUOTE_TOOL,
            "description": "Saves the caller's request for a free health insurance quote. Call it once you know which product they want and have read their e-mail address back to them letter by letter. If the result is an error, tell the caller what it says and ask again.",
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": ["product", "email"],
            },
        }),
    )
}

pub fn assistant(
    definition: &AssistantDefinition,
    content: &SiteContent,
    first_message: &FirstMessage,
    tool_ids: &[String],
    voice_events: &VoiceEvents,
) -> Value {
    let prompt = system_prompt(content, definition.recording);
    let mut model = json!({
        "provider": definition.model.provider,
        "model": definition.model.model,
        "messages": [{ "role": "system", "content": prompt }],
        "toolIds": tool_ids,
    });
    if let Some(temperature) = definition.model.temperature {
        model["temperature"] = json!(temperature);
    }
    json!({
        "name": definition.name,
        // Said by the platform, in the page's language, before the model says anything.
        "firstMessage": first_message.template(),
        "model": model,
        "voice": {
            "provider": definition.voice.provider,
            "voiceId": definition.voice.voice_id,
        },
        "transcriber": {
            "provider": definition.transcriber.provider,
            "model": definition.transcriber.model,
            "language": definition.transcriber.language,
        },
        "maxDurationSeconds": definition.max_duration_seconds,
        // The provider's API has no silence timeout of its own any more: a hook ends the call
        // when the caller has not spoken for that long after the assistant stopped.
        "hooks": [{
            "on": "customer.speech.timeout",
            "options": { "timeoutSeconds": definition.silence_timeout_seconds, "triggerMaxCount": 1 },
            "do": [{ "type": "tool", "tool": { "type": "endCall" } }],
        }],
        "endCallMessage": definition.end_call_message,
        "endCallPhrases": definition.end_call_phrases,
        "artifactPlan": { "recordingEnabled": definition.recording },
        "serverMessages": SERVER_MESSAGES,
        "server": voice_events.server(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::site_content::{
        example_dir, example_with, example_with_booking, example_with_fields,
    };
    use super::*;

    fn voice_events() -> VoiceEvents<'static> {
        VoiceEvents::at(&Url::parse("https://www.broker.test/").unwrap(), "s")
    }

    #[test]
    fn the_voice_events_url_is_under_the_sites_address() {
        let at = |site: &str| {
            VoiceEvents::at(&Url::parse(site).unwrap(), "s")
                .url
                .to_string()
        };
        assert_eq!(
            at("https://broker.test"),
            "https://broker.test/api/vapi/webhook"
        );
        assert_eq!(
            at("https://broker.test/quotes"),
            "https://broker.test/quotes/api/vapi/webhook"
        );
    }

    #[test]
    fn the_tool_takes_wasm_cores_products_and_the_assistant_uses_it() {
        let content = SiteContent::load(&example_dir()).unwrap();
        let definition = AssistantDefinition::load(&example_dir()).unwrap();
        let voice_events = VoiceEvents::at(&Url::parse("https://broker.test/").unwrap(), "whs");
        let tools = tools(&content, &voice_events);
        assert_eq!(tools.len(), 1, "booking is off in the example");
        let (name, tool) = &tools[0];
        assert_eq!(*name, REQUEST_QUOTE_TOOL);
        let product = &tool["function"]["parameters"]["properties"]["product"];
        assert_eq!(
            product["enum"],
            json!(["medicare", "individual", "family", "medicaid", "employer"])
        );
        assert_eq!(
            tool["server"],
            json!({ "url": "https://broker.test/api/vapi/webhook", "headers": { "x-vapi-secret": "whs" } })
        );
        let first_message = FirstMessage::new(&definition, &content).unwrap();
        let assistant = assistant(
            &definition,
            &content,
            &first_message,
            &["tool-7".to_owned()],
            &voice_events,
        );
        assert_eq!(assistant["model"]["toolIds"], json!(["tool-7"]));
        assert_eq!(assistant["firstMessage"], first_message.template());
        assert_eq!(
            assistant["artifactPlan"],
            json!({ "recordingEnabled": true })
        );
        assert_eq!(
            assistant["serverMessages"],
            json!(["end-of-call-report", "tool-calls", "chat.created"])
        );
        assert_eq!(assistant["server"], tool["server"]);
    }

    #[test]
    fn with_the_phone_and_zip_fields_on_the_tool_takes_them_optionally() {
        let voice_events = voice_events();
        let off = request_quote(&example_with(|text| text), &voice_events);
        let properties = &off["function"]["parameters"]["properties"];
        assert!(properties.get("phone").is_none() && properties.get("zip").is_none());
        let on = example_with_fields("optional", "required");
        let tool = request_quote(&on, &voice_events);
        let parameters = &tool["function"]["parameters"];
        assert_eq!(parameters["properties"]["phone"]["type"], "string");
        assert_eq!(parameters["properties"]["may_call"]["type"], "boolean");
        assert_eq!(parameters["properties"]["zip"]["type"], "string");
        assert_eq!(parameters["required"], json!(["product", "email"]));
    }

    #[test]
    fn with_booking_on_the_booking_tools_take_the_scope_of_appointments_products() {
        let voice_events = voice_events();
        let content = example_with_booking();
        let tools = tools(&content, &voice_events);
        let names: Vec<&str> = tools.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, ["request_quote", "available_times", "book_call"]);
        let (_, times) = &tools[1];
        assert_eq!(
            times["function"]["parameters"]["properties"]["from"]["format"],
            "date"
        );
        let (_, book) = &tools[2];
        let parameters = &book["function"]["parameters"];
        let properties = &parameters["properties"];
        assert_eq!(
            properties["products"]["items"]["enum"],
            json!([
                "medicare_advantage",
                "part_d",
                "medicare_supplement",
                "dental_vision_hearing"
            ])
        );
        assert_eq!(properties["language"]["enum"], json!(["en", "es"]));
        assert!(properties.get("phone").is_none());
        assert_eq!(
            parameters["required"],
            json!(["slot", "name", "email", "products", "language"])
        );
        assert!(tools
            .iter()
            .all(|(_, tool)| tool["server"] == tools[0].1["server"]));
    }
}
