//! `backend backup` while the server takes leads, and `backend import` from another store, run
//! as the binary is run.

use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::common::postgres::TestDatabase;
use crate::common::TestApp;
use backend::store::DatabaseUrl;

fn backend(args: &[&str], database_url: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_backend"))
        .args(args)
        .env("DATABASE_URL", database_url)
        .env("RUST_LOG", "error")
        .output()
        .expect("the backend binary runs")
}

fn sqlite_url(database: &DatabaseUrl) -> String {
    let DatabaseUrl::Sqlite(path) = database else {
        unreachable!("the test app runs on SQLite")
    };
    format!("sqlite://{path}")
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
    let url = sqlite_url(&app.database);
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
    let source = sqlite_url(&app.database);
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
    let sqlite = sqlite_url(&app.database);
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
