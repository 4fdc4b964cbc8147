//! `backend backup` while the server takes leads, and `backend import` from another store, run
//! as the binary is run: the consent chain continued or the import refused, and the rows an
//! older release stored taken, cleaned as the server cleans them.

use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::common::postgres::TestDatabase;
use crate::common::{first_value, TestApp};
use crate::consent_records::head;
use backend::store::DatabaseUrl;

fn backend(args: &[&str], database_url: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_backend"))
        .args(args)
        .env("DATABASE_URL", database_url)
        .env("RUST_LOG", "error")
        .output()
        .expect("the backend binary runs")
}

fn url_of(database: &DatabaseUrl) -> String {
    match database {
        DatabaseUrl::Sqlite(path) => format!("sqlite://{path}"),
        DatabaseUrl::Postgres(url) => url.clone(),
    }
}

fn success(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

#[tokio::test]
async fn a_backup_taken_while_leads_arrive_holds_them_and_only_its_owner_reads_it() {
    let app = Arc::new(TestApp::start().await);
    for i in 0..20 {
        app.post_lead("family", &format!("before{i}@example.com"))
            .await;
    }
    let posting = Arc::new(AtomicBool::new(true));
    let writer = tokio::spawn({
        let (app, posting) = (Arc::clone(&app), Arc::clone(&posting));
        async move {
            let mut posted = 0;
            while posting.load(Ordering::Relaxed) {
                app.post_lead("medicare", &format!("during{posted}@example.com"))
                    .await;
                posted += 1;
            }
            posted
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("quotes-backup.db");
    let url = url_of(&app.database);
    let path = copy.to_str().unwrap().to_owned();
    let (first, second) = tokio::task::spawn_blocking(move || {
        let args = ["backup", path.as_str()];
        (backend(&args, &url), backend(&args, &url))
    })
    .await
    .unwrap();
    posting.store(false, Ordering::Relaxed);
    let posted_during = writer.await.unwrap();
    success(&first);
    let said = success(&second);
    assert!(said.starts_with("backed up "), "{said}");
    assert!(posted_during > 0, "leads arrived during the backups");

    let mode = std::fs::metadata(&copy).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "readable by its owner only");
    let export = success(&backend(
        &["export", "--format", "jsonl"],
        &format!("sqlite://{}", copy.display()),
    ));
    let leads = export.lines().count();
    assert!(leads >= 20, "the copy holds the leads before it: {leads}");
    assert!(
        said.contains(&format!("({leads} quote requests,")),
        "the count said is the copy's: {said}"
    );
}

#[tokio::test]
async fn backup_of_a_postgresql_database_points_to_pg_dump() {
    let output = backend(
        &["backup", "/tmp/never.db"],
        "postgres://quotes@db.invalid/quotes",
    );
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("pg_dump"));
    assert!(!std::path::Path::new("/tmp/never.db").exists());
}

#[tokio::test]
async fn import_copies_the_leads_once_and_says_what_it_did() {
    let app = TestApp::start().await;
    for i in 0..3 {
        app.post_lead("family", &format!("i{i}@example.com")).await;
    }
    let source = url_of(&app.database);
    let dir = tempfile::tempdir().unwrap();
    let target = format!("sqlite://{}", dir.path().join("new.db").display());
    let first = success(&backend(&["import", &source], &target));
    assert!(
        first.contains("quote requests: 3 copied, 0 already there"),
        "{first}"
    );
    let again = success(&backend(&["import", &source], &target));
    assert!(
        again.contains("quote requests: 0 copied, 3 already there"),
        "{again}"
    );
    let exported = |url: &str| success(&backend(&["export", "--format", "jsonl"], url));
    assert_eq!(exported(&target), exported(&source));

    let same = backend(&["import", &source], &source);
    assert!(!same.status.success());
    assert!(String::from_utf8_lossy(&same.stderr).contains("nothing to copy"));
    let missing = backend(&["import", "sqlite:///nonexistent/q.db"], &target);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no database at"));
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn import_moves_the_leads_to_postgresql_and_back() {
    let app = TestApp::start().await;
    for i in 0..3 {
        app.post_lead("medicare", &format!("m{i}@example.com"))
            .await;
    }
    let sqlite = url_of(&app.database);
    let database = TestDatabase::create().await;
    let postgres = database.url.clone();
    for copied in ["3 copied, 0 already there", "0 copied, 3 already there"] {
        let said = success(&backend(&["import", &sqlite], &postgres));
        assert!(
            said.contains(&format!("quote requests: {copied}")),
            "{said}"
        );
    }
    let exported = |url: &str| success(&backend(&["export", "--format", "jsonl"], url));
    assert_eq!(exported(&postgres), exported(&sqlite));
    let dir = tempfile::tempdir().unwrap();
    let back = format!("sqlite://{}", dir.path().join("back.db").display());
    let said = success(&backend(&["import", &postgres], &back));
    assert!(said.contains("quote requests: 3 copied"), "{said}");
    assert_eq!(exported(&back), exported(&sqlite));
    database.drop().await;
}

/// The review's column: a name that closes the column list and selects the site's signing key
/// into a lead. SQLite and PostgreSQL both take it quoted.
const HOSTILE_COLUMN: &str = r#"language") SELECT id, product, email, source, user_agent, created_at, call_id, tool_call_id, idempotency_key, status, status_changed_at, queued_channels, (SELECT group_concat(name||'='||value) FROM site_keys), spam, language FROM quote_requests --"#;

/// The import refuses `source`, says why (`said` in its message), and writes nothing into
/// `target`.
async fn refused_and_nothing_written(source: &str, target: &str, said: &str) {
    let output = backend(&["import", source], target);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.contains(said), "{stderr}");
    let exported = backend(&["export", "--format", "jsonl"], target);
    let leads = String::from_utf8_lossy(&exported.stdout);
    assert!(leads.trim().is_empty(), "nothing was copied: {leads}");
}

/// A server's database with one lead, then `change`d by hand with SQLite.
async fn hostile_sqlite(change: &str) -> (TestApp, String) {
    let app = TestApp::start().await;
    app.post_lead("family", "ana@example.com").await;
    let source = url_of(&app.database);
    let DatabaseUrl::Sqlite(path) = &app.database else {
        unreachable!()
    };
    rusqlite::Connection::open(path)
        .unwrap()
        .execute_batch(change)
        .unwrap();
    (app, source)
}

fn hostile_changes() -> [(String, &'static str); 3] {
    let column = HOSTILE_COLUMN.replace('"', "\"\"");
    [
        (
            format!("ALTER TABLE quote_requests ADD COLUMN \"{column}\" TEXT"),
            r#"quote_requests."language\") SELECT id"#,
        ),
        (
            "UPDATE quote_requests SET id = id || char(13, 10) || 'Bcc: x'".into(),
            r#"quote_requests row 1 (id ""#,
        ),
        (
            "UPDATE quote_requests SET email = 'not an address'".into(),
            r#"email is "not an address", not a valid e-mail address"#,
        ),
    ]
}

#[tokio::test]
async fn import_refuses_a_hostile_source_naming_what_is_wrong_and_copies_nothing() {
    for (change, said) in hostile_changes() {
        let (_app, source) = hostile_sqlite(&change).await;
        let dir = tempfile::tempdir().unwrap();
        let target = format!("sqlite://{}", dir.path().join("new.db").display());
        refused_and_nothing_written(&source, &target, said).await;
    }
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn import_refuses_a_hostile_source_from_or_into_postgresql() {
    for (change, said) in hostile_changes() {
        // From SQLite into PostgreSQL.
        let (_app, source) = hostile_sqlite(&change).await;
        let database = TestDatabase::create().await;
        refused_and_nothing_written(&source, &database.url, said).await;
        database.drop().await;

        // From PostgreSQL, changed by hand there, into SQLite.
        let app = TestApp::start().await;
        app.post_lead("family", "ana@example.com").await;
        let database = TestDatabase::create().await;
        success(&backend(&["import", &url_of(&app.database)], &database.url));
        let (client, connection) = tokio_postgres::connect(&database.url, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(connection);
        let change = change.replace("char(13, 10)", "chr(13) || chr(10)");
        client.batch_execute(&change).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let target = format!("sqlite://{}", dir.path().join("new.db").display());
        refused_and_nothing_written(&database.url, &target, said).await;
        drop(client);
        database.drop().await;
    }
}

/// `backend import SOURCE` into `target` fails with one line saying `said`, and copies nothing.
fn import_refused(source: &str, target: &str, said: &str) {
    let exported = |url: &str| success(&backend(&["export", "--format", "jsonl"], url));
    let before = exported(target);
    let output = backend(&["import", source], target);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(said), "{stderr}");
    assert_eq!(exported(target), before, "nothing was copied");
}

/// The review's first way: a target whose server took leads of its own.
async fn import_refuses_a_target_with_consent_records_of_its_own(target: TestApp) {
    let source = TestApp::start().await;
    source.post_lead("family", "ana@example.com").await;
    target.post_lead("medicare", "own@example.com").await;
    import_refused(
        &url_of(&source.database),
        &url_of(&target.database),
        "the source's consent record 1 is not the record the target holds under that number",
    );
    head(&target.database);
    head(&source.database);
    target.stop().await;
    source.stop().await;
}

#[tokio::test]
async fn import_refuses_a_target_with_consent_records_of_its_own_on_sqlite() {
    import_refuses_a_target_with_consent_records_of_its_own(TestApp::start().await).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn import_refuses_a_target_with_consent_records_of_its_own_on_postgresql() {
    let database = TestDatabase::create().await;
    let target = TestApp::spawn()
        .database(DatabaseUrl::Postgres(database.url.clone()))
        .start()
        .await;
    import_refuses_a_target_with_consent_records_of_its_own(target).await;
    database.drop().await;
}

/// The review's second way: the same source imported again, after the target's server took a
/// lead of its own. Until then, importing again continues the chain.
async fn import_again_continues_the_chain_until_the_target_goes_its_own_way(target: DatabaseUrl) {
    let source = TestApp::start().await;
    source.post_lead("family", "a1@example.com").await;
    let (from, to) = (url_of(&source.database), url_of(&target));
    success(&backend(&["import", &from], &to));
    source.post_lead("family", "a2@example.com").await;
    let said = success(&backend(&["import", &from], &to));
    assert!(
        said.contains("consent records: 1 copied, 1 already there"),
        "{said}"
    );
    assert_eq!(head(&target), head(&source.database), "the chain goes on");

    let own = TestApp::spawn().database(target.clone()).start().await;
    own.post_lead("medicare", "own@example.com").await;
    source.post_lead("family", "a3@example.com").await;
    import_refused(
        &from,
        &to,
        "the source's consent record 3 is not the record the target holds under that number",
    );
    assert_eq!(
        head(&target).0,
        3,
        "the target's chain holds, its own lead last"
    );
    own.stop().await;
    source.stop().await;
}

#[tokio::test]
async fn import_again_continues_the_chain_until_the_target_goes_its_own_way_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let target = DatabaseUrl::Sqlite(dir.path().join("new.db").to_string_lossy().into());
    import_again_continues_the_chain_until_the_target_goes_its_own_way(target).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn import_again_continues_the_chain_until_the_target_goes_its_own_way_on_postgresql() {
    let database = TestDatabase::create().await;
    let target = DatabaseUrl::Postgres(database.url.clone());
    import_again_continues_the_chain_until_the_target_goes_its_own_way(target).await;
    database.drop().await;
}

/// The review's rows, as a release before the shared text rules stored them: a tab and a C1
/// control in a lead's User-Agent and in its consent record's (under the hash it was stored
/// with), C1 controls in a chat's transcript and summary. The import takes them, cleaned as the
/// server now cleans what it stores; the consent record as it is, its chain holding.
async fn import_takes_the_rows_an_older_release_stored(target: DatabaseUrl) {
    let source = TestApp::start().await;
    source.post_lead("family", "ana@example.com").await;
    source
        .sql(
            "UPDATE quote_requests
                SET user_agent = 'Mozilla/5.0' || char(9) || '(X11)' || char(133), call_id = 'chat-1';
            INSERT INTO voice_calls (call_id, summary, transcript, reported_at, channel)
                VALUES ('chat-1', 'Wants' || char(155) || ' cover',
                    'User: hi' || char(133) || char(10) || 'AI:' || char(9) || 'hello',
                    '2026-11-27T10:00:00.000Z', 'chat');",
        )
        .await;
    let store = backend::store::open_read_only(&source.database)
        .await
        .unwrap();
    let mut record = store.consent_chain(0, 1).await.unwrap().remove(0).link;
    store.close().await;
    record.user_agent = Some("Mozilla/5.0\t(X11)\u{85}".into());
    source
        .sqlite()
        .execute(
            "UPDATE consent_records SET user_agent = ?1, hash = ?2 WHERE seq = 1",
            [record.user_agent.clone().unwrap(), record.hash()],
        )
        .unwrap();
    let source_head = head(&source.database);

    let said = success(&backend(
        &["import", &url_of(&source.database)],
        &url_of(&target),
    ));
    assert!(said.contains("conversations: 1 copied"), "{said}");
    let read = |sql: &'static str| first_value::<String>(&target, sql);
    assert_eq!(
        read("SELECT user_agent FROM quote_requests").await,
        "Mozilla/5.0 (X11)"
    );
    assert_eq!(
        read("SELECT transcript FROM voice_calls").await,
        "User: hi \nAI: hello"
    );
    assert_eq!(
        read("SELECT summary FROM voice_calls").await,
        "Wants  cover"
    );
    assert_eq!(
        read("SELECT user_agent FROM consent_records").await,
        "Mozilla/5.0\t(X11)\u{85}",
        "kept as its hash covers it"
    );
    assert_eq!(head(&target), source_head);
    source.stop().await;
}

#[tokio::test]
async fn import_takes_the_rows_an_older_release_stored_into_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let target = DatabaseUrl::Sqlite(dir.path().join("new.db").to_string_lossy().into());
    import_takes_the_rows_an_older_release_stored(target).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn import_takes_the_rows_an_older_release_stored_into_postgresql() {
    let database = TestDatabase::create().await;
    import_takes_the_rows_an_older_release_stored(DatabaseUrl::Postgres(database.url.clone()))
        .await;
    database.drop().await;
}
