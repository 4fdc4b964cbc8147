//! `backend assistant push` against a stand-in of the provider's REST API: it creates the tool and
//! the assistant, updates them in place on the next run (one of each), changes nothing with
//! `--dry-run` (which needs no key, secret or network, and prints the first message in each
//! language), and never prints the private key or the webhook's secret. The bodies it sends are
//! exactly the fixtures in `tests/vapi-server-sdk/assistant-push/`, which
//! `tests/contract/vapi-assistant-push.test.mjs` type-checks against
//! `@vapi-ai/server-sdk`'s declarations. After a deliberate change of what is sent (or of the
//! example content the prompt is written from), rewrite them with `BLESS_VAPI_FIXTURES=1`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};
use warp::http::Method;

use crate::common::vapi_rest::{Recorded, VapiRest};

const KEY: &str = "sk-private-test-key-0123456789";
const SECRET: &str = "webhook-secret-test-9876543210";

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
}

/// A copy of the example content whose `brand.url` is a live address (a push refuses the
/// example's), with booking on when `booking`, everything else as it is.
fn live_content(booking: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let example = repository().join("content");
    std::fs::create_dir(dir.path().join("es")).unwrap();
    std::fs::copy(
        example.join("assistant.yaml"),
        dir.path().join("assistant.yaml"),
    )
    .unwrap();
    let read = |file: &str| std::fs::read_to_string(example.join(file)).unwrap();
    let (mut site, mut spanish) = (read("site.yaml"), read("es/site.yaml"));
    site = site.replace(EXAMPLE_URL, "https://www.harborline.test/");
    if booking {
        site.push_str(BOOKING);
        spanish.push_str(BOOKING_ES);
    }
    std::fs::write(dir.path().join("site.yaml"), site).unwrap();
    std::fs::write(dir.path().join("es/site.yaml"), spanish).unwrap();
    dir
}

/// `booking` as a broker turns it on (docs/product.md §13), in `site.yaml` and `es/site.yaml`.
const BOOKING: &str = r#"
booking:
  timeZone: America/Chicago
  hours:
    mon: ["09:00-12:00", "13:00-17:00"]
    wed: ["09:00-17:00"]
  slotMinutes: 30
  noticeHours: 24
  daysAhead: 21
  link: Book a call
  title: Book a call with a licensed agent
  intro: Pick a time and a licensed agent calls you.
  slotLabel: Choose a time
  shownInZone: "Times are in {zone}."
  shownInYourZone: "Times are in your time zone ({zone})."
  noTimes: No times are open just now.
  nameLabel: Full name
  emailLabel: Email
  soaHeading: What we may talk about
  soaProducts:
    medicareAdvantage: Medicare Advantage (Part C)
    partD: Prescription drug plans (Part D)
    medicareSupplement: Medicare Supplement (Medigap)
    dentalVisionHearing: Dental, vision and hearing
  soaStatement: "I agree to talk with a licensed agent of {broker} about the product types I chose. The agent may be paid based on my enrollment, does not work for the federal government and is not connected with Medicare. Agreeing does not oblige me to enroll."
  submit: Book the call
  success: { title: Booked, description: A licensed agent will call you then. }
  errors: { slot: Choose a time, name: Write your full name, email: Write a valid email, soa: Choose at least one, taken: That time was just taken. }
"#;
const BOOKING_ES: &str = r#"
booking:
  link: Reserve una llamada
  title: Reserve una llamada con un agente con licencia
  intro: Elija una hora y un agente con licencia le llamará.
  slotLabel: Elija una hora
  shownInZone: "Horas en {zone}."
  shownInYourZone: "Horas en su zona horaria ({zone})."
  noTimes: No hay horas libres ahora.
  nameLabel: Nombre completo
  emailLabel: Correo electrónico
  soaHeading: De qué podemos hablar
  soaProducts:
    medicareAdvantage: Medicare Advantage (Parte C)
    partD: Planes de medicamentos recetados (Parte D)
    medicareSupplement: Medicare Supplement (Medigap)
    dentalVisionHearing: Dental, visión y audición
  soaStatement: "Acepto hablar con un agente con licencia de {broker} sobre los tipos de productos que elegí. El agente puede recibir un pago según mi inscripción, no trabaja para el gobierno federal y no está vinculado con Medicare. Aceptar no me obliga a inscribirme."
  submit: Reservar la llamada
  success: { title: Reservada, description: Un agente con licencia le llamará entonces. }
  errors: { slot: Elija una hora, name: Escriba su nombre completo, email: Escriba un correo válido, soa: Elija al menos uno, taken: Esa hora se acaba de ocupar. }
"#;

const EXAMPLE_URL: &str = "https://www.clearharbor.example/";

/// `backend assistant push ARGS` against the stand-in, with the example content at a live address.
/// It blocks its thread: the tests run on a multi-threaded runtime so the stand-in keeps answering.
fn push(provider: &VapiRest, args: &[&str], env: &[(&str, &str)]) -> Run {
    push_content(provider, &live_content(false), args, env)
}

/// `push` with booking on.
fn push_booking(provider: &VapiRest, args: &[&str]) -> Run {
    push_content(provider, &live_content(true), args, &[])
}

fn push_content(
    provider: &VapiRest,
    content: &tempfile::TempDir,
    args: &[&str],
    env: &[(&str, &str)],
) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_backend"));
    command
        .current_dir(std::env::temp_dir())
        .env_remove("VAPI_ASSISTANT_ID")
        .env("VAPI_PRIVATE_KEY", KEY)
        .env("VAPI_WEBHOOK_SECRET", SECRET)
        .env("VAPI_API_BASE_URL", &provider.base_url)
        .env("SITE_URL", "https://www.broker.test/")
        .env("CONTENT_DIR", content.path())
        .envs(env.iter().copied());
    run(command, args)
}

/// `backend assistant push ARGS` in the repository (whose `content/` is the default content
/// folder) with nothing in its environment but `env`: no key, no secret, no provider.
fn push_with_only(args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_backend"));
    command
        .current_dir(repository())
        .env_clear()
        .envs(env.iter().copied());
    run(command, args)
}

fn run(mut command: Command, args: &[&str]) -> Run {
    let Output {
        status,
        stdout,
        stderr,
    } = command
        .args(["assistant", "push"])
        .args(args)
        .output()
        .expect("the backend binary runs");
    let run = Run {
        ok: status.success(),
        stdout: String::from_utf8(stdout).unwrap(),
        stderr: String::from_utf8(stderr).unwrap(),
    };
    for secret in [KEY, SECRET] {
        assert!(
            !run.stdout.contains(secret) && !run.stderr.contains(secret),
            "a secret was printed:\n{}\n{}",
            run.stdout,
            run.stderr
        );
    }
    run
}

/// The requests that change something, as fixtures: method, path and body.
fn changes(requests: &[Recorded]) -> Vec<Value> {
    requests
        .iter()
        .filter(|request| request.method != Method::GET)
        .map(|request| {
            json!({
                "method": request.method.as_str(),
                "path": request.path,
                "body": request.body,
            })
        })
        .collect()
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vapi-server-sdk/assistant-push")
}

/// With booking on (the example content has it off), so every tool is held to the SDK.
const FIXTURES: [&str; 8] = [
    "1-create-tool-request_quote.json",
    "2-create-tool-available_times.json",
    "3-create-tool-book_call.json",
    "4-create-assistant.json",
    "5-update-tool-request_quote.json",
    "6-update-tool-available_times.json",
    "7-update-tool-book_call.json",
    "8-update-assistant.json",
];

#[tokio::test(flavor = "multi_thread")]
async fn push_creates_then_updates_its_tools_and_one_assistant_sending_the_sdk_checked_bodies() {
    let provider = VapiRest::start(KEY).await;
    let first = push_booking(&provider, &[]);
    assert!(first.ok, "{}", first.stderr);
    assert_eq!(
        first.stdout,
        "Created the request_quote tool: tool-1\n\
         Created the available_times tool: tool-2\n\
         Created the book_call tool: tool-3\n\
         Created the assistant \"Clearharbor Health assistant\": assistant-1\n\
         Put this line in the server's environment, then restart it:\n\
         VAPI_ASSISTANT_ID=assistant-1\n"
    );
    let second = push_booking(&provider, &[]);
    assert!(second.ok, "{}", second.stderr);
    assert!(second.stdout.starts_with(
        "Updated the request_quote tool: tool-1\nUpdated the available_times tool: tool-2\n\
         Updated the book_call tool: tool-3\n\
         Updated the assistant \"Clearharbor Health assistant\": assistant-1\n"
    ));
    assert!(second.stdout.ends_with("VAPI_ASSISTANT_ID=assistant-1\n"));
    assert_eq!(
        (provider.tools().len(), provider.assistants().len()),
        (3, 1)
    );
    let assistant = &provider.assistants()[0];
    assert_eq!(
        assistant["model"]["toolIds"],
        json!(["tool-1", "tool-2", "tool-3"])
    );
    // The Scope of Appointment the assistant reads is the content's, the broker named.
    let prompt = assistant["model"]["messages"][0]["content"]
        .as_str()
        .unwrap();
    assert!(prompt.contains(
        "  - en: \"I agree to talk with a licensed agent of Clearharbor Health about the product types I chose."
    ), "{prompt}");
    assert!(
        prompt.contains(
            "  - es: \"Acepto hablar con un agente con licencia de Clearharbor Health sobre"
        ),
        "{prompt}"
    );
    assert_eq!(
        assistant["server"],
        json!({ "url": "https://www.broker.test/api/vapi/webhook", "headers": { "x-vapi-secret": SECRET } })
    );
    assert!(provider
        .tools()
        .iter()
        .all(|tool| tool["server"] == assistant["server"]));

    let sent = changes(&provider.requests());
    assert_eq!(sent.len(), FIXTURES.len());
    let dir = fixtures_dir();
    if std::env::var_os("BLESS_VAPI_FIXTURES").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        for (name, request) in FIXTURES.iter().zip(&sent) {
            let text = serde_json::to_string_pretty(request).unwrap() + "\n";
            std::fs::write(dir.join(name), text).unwrap();
        }
    }
    for (name, request) in FIXTURES.iter().zip(&sent) {
        let fixture: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
        assert_eq!(
            request, &fixture,
            "{name} differs from what the command sends (BLESS_VAPI_FIXTURES=1 rewrites it)"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_booking_tools_are_pushed_only_while_booking_is_on() {
    let provider = VapiRest::start(KEY).await;
    let off = push(&provider, &[], &[]);
    assert!(off.ok, "{}", off.stderr);
    assert!(
        off.stdout
            .starts_with("Created the request_quote tool: tool-1\nCreated the assistant"),
        "{}",
        off.stdout
    );
    let prompt = |provider: &VapiRest| {
        provider.assistants()[0]["model"]["messages"][0]["content"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let tool_ids = |provider: &VapiRest| provider.assistants()[0]["model"]["toolIds"].clone();
    assert_eq!(provider.tools().len(), 1);
    assert_eq!(tool_ids(&provider), json!(["tool-1"]));
    assert!(!prompt(&provider).contains("book_call"));
    // Turned on later: the booking tools join the quote's, the assistant uses all three.
    assert!(push_booking(&provider, &[]).ok);
    assert_eq!(tool_ids(&provider), json!(["tool-1", "tool-2", "tool-3"]));
    assert!(prompt(&provider).contains("call `book_call` once"));
    // Off again: the assistant no longer uses them (the server refuses their calls too).
    assert!(push(&provider, &[], &[]).ok);
    assert_eq!(tool_ids(&provider), json!(["tool-1"]));
    assert!(!prompt(&provider).contains("book_call"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_dry_run_prints_what_it_would_send_and_changes_nothing() {
    let provider = VapiRest::start(KEY).await;
    let before = push(&provider, &["--dry-run"], &[]);
    assert!(before.ok, "{}", before.stderr);
    let base = &provider.base_url;
    assert!(
        before.stdout.starts_with(&format!("POST {base}/tool\n{{")),
        "{}",
        before.stdout
    );
    assert!(before.stdout.contains(&format!("POST {base}/assistant\n")));
    assert!(before
        .stdout
        .contains("\"x-vapi-secret\": \"<VAPI_WEBHOOK_SECRET>\""));
    assert!(before
        .stdout
        .contains("\"<the id of the request_quote tool created above>\""));
    assert!(before.stdout.ends_with("Dry run: nothing was sent. The webhook's secret is sent in place of <VAPI_WEBHOOK_SECRET>.\n"));
    assert!(!before.stdout.contains("VAPI_ASSISTANT_ID="));
    // With the key, the provider was asked what it has.
    assert!(!before.stdout.contains("Without VAPI_PRIVATE_KEY"));
    assert_eq!(changes(&provider.requests()), Vec::<Value>::new());
    assert!(provider.tools().is_empty() && provider.assistants().is_empty());

    assert!(push(&provider, &[], &[]).ok);
    let sent = provider.requests().len();
    let after = push(&provider, &["--dry-run"], &[]);
    assert!(
        after
            .stdout
            .starts_with(&format!("PATCH {base}/tool/tool-1\n")),
        "{}",
        after.stdout
    );
    assert!(after
        .stdout
        .contains(&format!("PATCH {base}/assistant/assistant-1\n")));
    assert!(
        after
            .stdout
            .contains("\"toolIds\": [\n      \"tool-1\"\n    ]"),
        "{}",
        after.stdout
    );
    let later = provider.requests();
    assert!(later[sent..]
        .iter()
        .all(|request| request.method == Method::GET));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_assistant_named_by_vapi_assistant_id_is_updated_and_refusals_are_one_line() {
    let provider = VapiRest::start(KEY).await;
    assert!(push(&provider, &[], &[]).ok);
    // Found by its id even when renamed in the dashboard: not created again.
    let by_id = push(&provider, &[], &[("VAPI_ASSISTANT_ID", "assistant-1")]);
    assert!(
        by_id.stdout.contains("Updated the assistant"),
        "{}",
        by_id.stdout
    );
    assert_eq!(provider.assistants().len(), 1);

    let unknown = push(&provider, &[], &[("VAPI_ASSISTANT_ID", "assistant-9")]);
    assert!(!unknown.ok);
    let base = &provider.base_url;
    assert_eq!(
        unknown.stderr,
        format!("error: PATCH {base}/assistant/assistant-9 answered 404 Not Found: {{\"message\":\"Not Found\"}}\n")
    );
    let wrong_key = push(&provider, &[], &[("VAPI_PRIVATE_KEY", "sk-wrong-key")]);
    assert!(!wrong_key.ok);
    assert!(
        wrong_key.stderr.starts_with(&format!(
            "error: GET {base}/tool?limit=1000 answered 401 Unauthorized"
        )),
        "{}",
        wrong_key.stderr
    );
    assert!(!wrong_key.stderr.contains("sk-wrong-key"));
    let no_key = push(&provider, &[], &[("VAPI_PRIVATE_KEY", " ")]);
    assert!(
        no_key
            .stderr
            .starts_with("error: VAPI_PRIVATE_KEY=\"\" is required"),
        "{}",
        no_key.stderr
    );
    // The example's own address is no place to send the provider's events: refused, nothing sent.
    let before = provider.requests().len();
    let example = repository().join("content");
    let example_url = push(
        &provider,
        &[],
        &[("CONTENT_DIR", example.to_str().unwrap())],
    );
    assert!(!example_url.ok);
    assert!(
        example_url.stderr.contains(&format!(
            "site.yaml: brand.url is the example's address ({EXAMPLE_URL})"
        )),
        "{}",
        example_url.stderr
    );
    assert_eq!(provider.requests().len(), before, "nothing sent");
    let bad_content = push(&provider, &[], &[("CONTENT_DIR", "/nonexistent")]);
    assert!(
        bad_content
            .stderr
            .starts_with("error: /nonexistent/assistant.yaml: cannot be read:"),
        "{}",
        bad_content.stderr
    );
}

/// The first message in each language, as the dry run prints it for the broker to read.
fn first_messages(stdout: &str) -> (String, String) {
    let line = |prefix: &str| {
        stdout
            .lines()
            .find_map(|line| line.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} line in:\n{stdout}"))
            .to_owned()
    };
    (line("English (en): "), line("Spanish (es): "))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_dry_run_with_no_environment_at_all_prints_every_body_and_each_languages_first_message() {
    let offline = push_with_only(&["--dry-run"], &[]);
    assert!(offline.ok, "{}", offline.stderr);
    assert_eq!(offline.stderr, "");
    let stdout = &offline.stdout;
    // The provider's default address, never reached: the content's own address for the webhook.
    assert!(
        stdout.starts_with("POST https://api.vapi.ai/tool\n{"),
        "{stdout}"
    );
    assert!(stdout.contains("\nPOST https://api.vapi.ai/assistant\n{"));
    assert!(stdout.contains("\"url\": \"https://www.clearharbor.example/api/vapi/webhook\""));
    assert!(stdout.contains("\"x-vapi-secret\": \"<VAPI_WEBHOOK_SECRET>\""));
    assert!(stdout.contains("\"<the id of the request_quote tool created above>\""));
    assert!(stdout.contains("\"recordingEnabled\": true"));
    assert!(stdout.contains("Without VAPI_PRIVATE_KEY the provider was not asked what it has"));
    assert!(stdout.ends_with(
        "Dry run: nothing was sent. The webhook's secret is sent in place of <VAPI_WEBHOOK_SECRET>.\n"
    ));

    let (english, spanish) = first_messages(stdout);
    // The recording notice first, then the greeting and the disclaimer before anything about plans.
    assert!(
        english.starts_with(
            "This call is being recorded. Hello, I am the virtual assistant of Clearharbor \
             Health. We do not offer every plan"
        ),
        "{english}"
    );
    assert!(english.contains(
        "A licensed insurance agent of Clearharbor Health will contact you about your quote. How can I help you today?"
    ));
    assert!(
        spanish.starts_with(
            "Esta llamada se está grabando. Hola, soy el asistente virtual de Clearharbor \
             Health. No ofrecemos todos los planes"
        ),
        "{spanish}"
    );
    assert!(spanish.contains("Un agente de seguros con licencia de Clearharbor Health"));
    // The body carries both, the page's language choosing (JSON-escaped in the printed body).
    let escaped = |text: &str| serde_json::to_string(text).unwrap();
    let first_message = format!(
        "\"firstMessage\": {}",
        escaped(&format!(
            "{{% if language == \"es\" %}}{spanish}{{% else %}}{english}{{% endif %}}"
        ))
    );
    assert!(stdout.contains(&first_message), "{stdout}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_dry_run_without_a_key_asks_the_provider_nothing() {
    let provider = VapiRest::start(KEY).await;
    let base = provider.base_url.clone();
    let offline = push_with_only(
        &["--dry-run"],
        &[
            ("VAPI_API_BASE_URL", &base),
            ("VAPI_ASSISTANT_ID", "assistant-7"),
        ],
    );
    assert!(offline.ok, "{}", offline.stderr);
    assert!(offline.stdout.starts_with(&format!("POST {base}/tool\n")));
    // The assistant named in the environment is the one a push would update.
    assert!(offline
        .stdout
        .contains(&format!("\nPATCH {base}/assistant/assistant-7\n")));
    assert!(provider.requests().is_empty(), "{:?}", provider.requests());
    // A push that would send needs both the key and the secret.
    let no_secret = push_with_only(
        &[],
        &[("VAPI_PRIVATE_KEY", KEY), ("VAPI_API_BASE_URL", &base)],
    );
    assert!(!no_secret.ok);
    assert!(
        no_secret
            .stderr
            .starts_with("error: VAPI_WEBHOOK_SECRET=\"\" is required"),
        "{}",
        no_secret.stderr
    );
    assert!(provider.requests().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_first_message_follows_the_content_disclaimer_and_recording() {
    let content = tempfile::tempdir().unwrap();
    let example = repository().join("content");
    std::fs::create_dir(content.path().join("es")).unwrap();
    std::fs::copy(
        example.join("es/site.yaml"),
        content.path().join("es/site.yaml"),
    )
    .unwrap();
    let site = std::fs::read_to_string(example.join("site.yaml")).unwrap();
    assert!(site.contains("\n  variant: some\n"));
    std::fs::write(
        content.path().join("site.yaml"),
        site.replace("\n  variant: some\n", "\n  variant: none\n"),
    )
    .unwrap();
    let assistant = std::fs::read_to_string(example.join("assistant.yaml")).unwrap();
    assert!(assistant.contains("\nrecording: true\n"));
    std::fs::write(
        content.path().join("assistant.yaml"),
        assistant.replace("\nrecording: true\n", "\nrecording: false\n"),
    )
    .unwrap();
    let dir = content.path().to_str().unwrap();
    let refused = push_with_only(&["--dry-run"], &[("CONTENT_DIR", dir)]);
    assert!(
        !refused.ok,
        "an unrecorded assistant is pushed only when told to"
    );
    assert!(
        refused.stderr.contains("recording: false")
            && refused.stderr.contains("422.2274(g)(2)(ii)")
            && refused.stderr.contains("--without-recording"),
        "{}",
        refused.stderr
    );
    let quiet = push_with_only(
        &["--dry-run", "--without-recording"],
        &[("CONTENT_DIR", dir)],
    );
    assert!(quiet.ok, "{}", quiet.stderr);
    let (english, spanish) = first_messages(&quiet.stdout);
    assert_eq!(
        english,
        "Hello, I am the virtual assistant of Clearharbor Health. A licensed insurance agent of \
         Clearharbor Health will contact you about your quote. How can I help you today?"
    );
    assert_eq!(
        spanish,
        "Hola, soy el asistente virtual de Clearharbor Health. Un agente de seguros con licencia \
         de Clearharbor Health se pondrá en contacto con usted sobre su cotización. ¿En qué le \
         puedo ayudar hoy?"
    );
    assert!(quiet.stdout.contains("\"recordingEnabled\": false"));
    assert!(!quiet.stdout.contains("Medicare.gov"));
}
