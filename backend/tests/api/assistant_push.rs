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
/// example's), everything else as it is.
fn live_content() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let example = repository().join("content");
    std::fs::create_dir(dir.path().join("es")).unwrap();
    for file in ["es/site.yaml", "assistant.yaml"] {
        std::fs::copy(example.join(file), dir.path().join(file)).unwrap();
    }
    let site = std::fs::read_to_string(example.join("site.yaml")).unwrap();
    std::fs::write(
        dir.path().join("site.yaml"),
        site.replace(EXAMPLE_URL, "https://www.harborline.test/"),
    )
    .unwrap();
    dir
}

const EXAMPLE_URL: &str = "https://www.clearharbor.example/";

/// `backend assistant push ARGS` against the stand-in, with the example content at a live address.
/// It blocks its thread: the tests run on a multi-threaded runtime so the stand-in keeps answering.
fn push(provider: &VapiRest, args: &[&str], env: &[(&str, &str)]) -> Run {
    let content = live_content();
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

const FIXTURES: [&str; 4] = [
    "1-create-tool.json",
    "2-create-assistant.json",
    "3-update-tool.json",
    "4-update-assistant.json",
];

#[tokio::test(flavor = "multi_thread")]
async fn push_creates_then_updates_one_tool_and_one_assistant_sending_the_sdk_checked_bodies() {
    let provider = VapiRest::start(KEY).await;
    let first = push(&provider, &[], &[]);
    assert!(first.ok, "{}", first.stderr);
    assert_eq!(
        first.stdout,
        "Created the request_quote tool: tool-1\n\
         Created the assistant \"Clearharbor Health assistant\": assistant-1\n\
         Put this line in the server's environment, then restart it:\n\
         VAPI_ASSISTANT_ID=assistant-1\n"
    );
    let second = push(&provider, &[], &[]);
    assert!(second.ok, "{}", second.stderr);
    assert!(second.stdout.starts_with(
        "Updated the request_quote tool: tool-1\nUpdated the assistant \"Clearharbor Health assistant\": assistant-1\n"
    ));
    assert!(second.stdout.ends_with("VAPI_ASSISTANT_ID=assistant-1\n"));
    assert_eq!(
        (provider.tools().len(), provider.assistants().len()),
        (1, 1)
    );
    let assistant = &provider.assistants()[0];
    assert_eq!(assistant["model"]["toolIds"], json!(["tool-1"]));
    assert_eq!(
        assistant["server"],
        json!({ "url": "https://www.broker.test/api/vapi/webhook", "headers": { "x-vapi-secret": SECRET } })
    );
    assert_eq!(provider.tools()[0]["server"], assistant["server"]);

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
        .contains("\"<the id of the tool created above>\""));
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
    assert!(stdout.contains("\"<the id of the tool created above>\""));
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
