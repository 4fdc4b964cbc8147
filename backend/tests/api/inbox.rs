//! The broker's inbox API: password sign-in, its session cookie and known-browser mark, the
//! limit on wrong passwords, cross-site refusals, filters, status, deletion and retention. Every
//! scenario runs on SQLite and (ignored unless TEST_DATABASE_URL is set) on PostgreSQL.

use serde_json::{json, Value};

use crate::common::postgres::TestDatabase;
use crate::common::voice::{post_voice_event, quote_call, tool_calls};
use crate::common::{cookie_parts, TestApp};
use backend::store::{Channel, DatabaseUrl};

/// Made by `backend hash-password` from `PASSWORD`.
const HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$/BOc58QKv6BSgngjj2kfaQ$vf23gmdJyzg4h0K/ftw/Ob5zyCQnF3ZK37k2NeSSJ28";
const PASSWORD: &str = "inbox-test-password-1";
/// ADMIN_TOKEN needs 32 characters or more.
const TOKEN: &str = "inbox-admin-token-0123456789abcdef";
const VOICE_SECRET: &str = "inbox-voice-secret-0123456789abcdef";

#[derive(Clone, Copy)]
enum Db {
    Sqlite,
    Postgres,
}

/// The app with the password, the token and the voice events on, and the database it uses.
struct Inbox {
    app: TestApp,
    database: Option<TestDatabase>,
}

impl Inbox {
    async fn start(db: Db, env: &[(&str, &str)]) -> Inbox {
        let database = match db {
            Db::Sqlite => None,
            Db::Postgres => Some(TestDatabase::create().await),
        };
        let mut vars = vec![
            ("ADMIN_PASSWORD_HASH", HASH),
            ("ADMIN_TOKEN", TOKEN),
            ("VAPI_WEBHOOK_SECRET", VOICE_SECRET),
        ];
        vars.extend_from_slice(env);
        let mut spawn = TestApp::spawn().env(&vars);
        if let Some(database) = &database {
            spawn = spawn.database(DatabaseUrl::Postgres(database.url.clone()));
        }
        Inbox {
            app: spawn.start().await,
            database,
        }
    }

    async fn stop(self) {
        self.app.stop().await;
        if let Some(database) = self.database {
            database.drop().await;
        }
    }

    fn origin(&self) -> String {
        format!("http://{}", self.app.addr)
    }

    /// A request from the inbox page itself: same origin, with the cookie when there is one.
    fn page_request(
        &self,
        method: reqwest::Method,
        path: &str,
        cookie: Option<&str>,
    ) -> reqwest::RequestBuilder {
        let mut request = self
            .app
            .client
            .request(method, self.app.url(path))
            .header("origin", self.origin())
            .header("sec-fetch-site", "same-origin");
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        request
    }

    async fn sign_in(&self, password: &str) -> reqwest::Response {
        self.page_request(reqwest::Method::POST, "/api/admin/session", None)
            .json(&json!({ "password": password }))
            .send()
            .await
            .unwrap()
    }

    /// Signs in and returns the `name=value` to send back as `Cookie`.
    async fn session(&self) -> String {
        let response = self.sign_in(PASSWORD).await;
        assert_eq!(response.status(), 200);
        set_cookie(&response).split(';').next().unwrap().to_owned()
    }

    async fn get(&self, path: &str, cookie: &str) -> reqwest::Response {
        self.page_request(reqwest::Method::GET, path, Some(cookie))
            .send()
            .await
            .unwrap()
    }

    /// Whether `cookie` still signs in: the session check answers who is asking, and
    /// `{"via": null}` (still 200) for nobody.
    async fn signed_in_with(&self, cookie: &str) -> bool {
        let who = self.get("/api/admin/session", cookie).await;
        assert_eq!(who.status(), 200);
        !who.json::<Value>().await.unwrap()["via"].is_null()
    }

    async fn web_lead(&self, product: &str, email: &str) -> String {
        self.app.post_lead(product, email).await
    }

    /// A spoken lead in `call_id`, then the call's end-of-call report with a transcript.
    async fn voice_lead(&self, call_id: &str, tool_call_id: &str, email: &str) {
        let quote = tool_calls(
            call_id,
            json!([quote_call(tool_call_id, "medicare", email)]),
        );
        assert_eq!(
            post_voice_event(&self.app, Some(VOICE_SECRET), &quote)
                .await
                .status(),
            200
        );
        let report = json!({"message": {"type": "end-of-call-report", "call": {"id": call_id},
            "endedReason": "customer-ended-call", "analysis": {"summary": "Wants Medicare."},
            "artifact": {"transcript": "AI: Hola.\nUser: Medicare, please."}}});
        assert_eq!(
            post_voice_event(&self.app, Some(VOICE_SECRET), &report)
                .await
                .status(),
            200
        );
    }

    async fn list(&self, cookie: &str, query: &str) -> Vec<Value> {
        let response = self
            .get(&format!("/api/admin/quote-requests{query}"), cookie)
            .await;
        assert_eq!(response.status(), 200, "{query}");
        response.json::<Value>().await.unwrap()["quote_requests"]
            .as_array()
            .unwrap()
            .clone()
    }
}

fn set_cookie(response: &reqwest::Response) -> String {
    response.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_owned()
}

async fn code(response: reqwest::Response) -> String {
    response.json::<Value>().await.unwrap()["code"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Runs the scenario `$name(Db)` once per store.
macro_rules! on_both_stores {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test]
            async fn sqlite() {
                super::$name(super::Db::Sqlite).await;
            }

            #[tokio::test]
            #[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
            async fn postgres() {
                super::$name(super::Db::Postgres).await;
            }
        }
    )*};
}

on_both_stores!(
    signing_in_and_out_with_a_strict_http_only_cookie,
    the_sixth_wrong_password_in_15_minutes_is_refused_429,
    wrong_passwords_from_many_64s_of_one_48_meet_a_429,
    a_good_sign_in_marks_the_browser_and_no_sign_out_unmarks_it,
    an_idle_session_expires_after_12_hours,
    a_session_ends_7_days_after_sign_in_however_much_it_is_used,
    a_new_password_hash_ends_every_session,
    signing_out_everywhere_ends_every_session,
    cross_site_requests_are_refused_403_and_change_nothing,
    no_admin_data_without_a_session_or_the_token,
    the_token_keeps_working_beside_the_password,
    filters_search_and_csv,
    marking_contacted_and_back,
    a_note_is_kept_with_the_lead_and_in_the_csv,
    deleting_a_lead_removes_its_outbox_row_and_key_and_keeps_its_conversation,
    retention_deletes_old_leads_at_start,
);

async fn signing_in_and_out_with_a_strict_http_only_cookie(db: Db) {
    let inbox = Inbox::start(db, &[]).await;
    let wrong = inbox.sign_in("not the password").await;
    assert_eq!(wrong.status(), 401);
    assert!(wrong.headers().get("set-cookie").is_none());
    let body: Value = wrong.json().await.unwrap();
    assert_eq!(
        (body["code"].as_str(), body["message"].as_str()),
        (Some("wrong_password"), Some("The password is wrong."))
    );

    let response = inbox.sign_in(PASSWORD).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "no-store");
    let cookie = set_cookie(&response);
    let (pair, attributes) = cookie_parts(&cookie);
    let (name, id) = pair.split_once('=').unwrap();
    assert_eq!(name, "inbox_session", "no __Host- prefix over plain http");
    assert_eq!(id.len(), 64, "256 random bits in hex");
    assert_eq!(attributes, ["HttpOnly", "Path=/", "SameSite=Strict"]);
    assert_eq!(
        inbox.app.count("SELECT count(*) FROM admin_sessions").await,
        1,
        "held in the database"
    );
    assert_eq!(
        inbox
            .app
            .count(&format!(
                "SELECT count(*) FROM admin_sessions WHERE id_hash = '{id}'"
            ))
            .await,
        0,
        "only a hash of the id is stored"
    );

    let who = inbox.get("/api/admin/session", pair).await;
    assert_eq!(
        who.json::<Value>().await.unwrap(),
        json!({"via": "session"})
    );
    assert!(inbox.list(pair, "").await.is_empty());

    // The session lives in the database: a restarted server still knows it.
    let mut inbox = inbox;
    inbox.app.restart().await;
    assert!(inbox.list(pair, "").await.is_empty());

    let out = inbox
        .page_request(reqwest::Method::DELETE, "/api/admin/session", Some(pair))
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), 204);
    assert_eq!(
        cookie_parts(&set_cookie(&out)),
        (
            "inbox_session=",
            vec!["HttpOnly", "Max-Age=0", "Path=/", "SameSite=Strict"]
        )
    );
    let after = inbox.get("/api/admin/quote-requests", pair).await;
    assert_eq!(after.status(), 401);
    assert_eq!(
        inbox.app.count("SELECT count(*) FROM admin_sessions").await,
        0
    );
    inbox.stop().await;
}

async fn the_sixth_wrong_password_in_15_minutes_is_refused_429(db: Db) {
    let inbox = Inbox::start(db, &[]).await;
    for attempt in 1..=5 {
        let response = inbox.sign_in(&format!("guess number {attempt}")).await;
        assert_eq!(response.status(), 401, "attempt {attempt}");
    }
    for password in ["guess number 6", PASSWORD] {
        let response = inbox.sign_in(password).await;
        assert_eq!(response.status(), 429);
        let retry_after: u64 = response.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((800..=900).contains(&retry_after), "{retry_after}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], "too_many_failed_attempts");
    }
    inbox.stop().await;
}

async fn wrong_passwords_from_many_64s_of_one_48_meet_a_429(db: Db) {
    let inbox = Inbox::start(db, &[]).await;
    // The test's loopback connection is the trusted proxy; X-Forwarded-For names the client.
    let sign_in_from = |client: &str, password: &str| {
        inbox
            .page_request(reqwest::Method::POST, "/api/admin/session", None)
            .header("x-forwarded-for", client)
            .json(&json!({ "password": password }))
            .send()
    };
    // Wrong tokens count with wrong passwords and cost no Argon2 check (a debug build's are
    // slow): 15 from 15 /64s of one /48, then 5 wrong passwords from 5 more.
    for n in 0..15 {
        let wrong_token = inbox
            .app
            .client
            .get(inbox.app.url("/api/admin/quote-requests"))
            .header("x-forwarded-for", format!("2001:db8:30:{n:x}::1"))
            .bearer_auth("a guessed token")
            .send()
            .await
            .unwrap();
        assert_eq!(wrong_token.status(), 401, "{n}");
    }
    for n in 15..20 {
        let client = format!("2001:db8:30:{n:x}::1");
        let response = sign_in_from(&client, "a guess").await.unwrap();
        assert_eq!(code(response).await, "wrong_password", "{n}");
    }
    // The /48's 20 failures are spent: every fresh /64 of it meets a 429, right or wrong.
    for (n, password) in [(20, "a guess"), (21, PASSWORD), (0xffff, PASSWORD)] {
        let response = sign_in_from(&format!("2001:db8:30:{n:x}::1"), password)
            .await
            .unwrap();
        assert_eq!(response.status(), 429, "{n}");
        assert!(response.headers().contains_key("retry-after"));
        assert_eq!(code(response).await, "too_many_failed_attempts");
    }
    // The broker, elsewhere, is not refused.
    let broker = sign_in_from("2001:db8:31::1", PASSWORD).await.unwrap();
    assert_eq!(broker.status(), 200);
    inbox.stop().await;
}

async fn a_good_sign_in_marks_the_browser_and_no_sign_out_unmarks_it(db: Db) {
    let inbox = Inbox::start(db, &[]).await;
    let set_cookies = |response: &reqwest::Response| -> Vec<String> {
        let values = response.headers().get_all("set-cookie").iter();
        values.map(|v| v.to_str().unwrap().to_owned()).collect()
    };
    let signed_in = inbox.sign_in(PASSWORD).await;
    assert_eq!(signed_in.status(), 200);
    let cookies = set_cookies(&signed_in);
    assert_eq!(cookies.len(), 2, "{cookies:?}");
    let session = cookies[0].split(';').next().unwrap().to_owned();
    let (mark, attributes) = cookie_parts(&cookies[1]);
    assert!(mark.starts_with("inbox_known="), "{mark}");
    assert_eq!(
        attributes,
        [
            "HttpOnly",
            "Max-Age=34560000",
            "Path=/api/admin/session",
            "SameSite=Strict"
        ]
    );
    assert_eq!(
        inbox
            .app
            .count("SELECT count(*) FROM site_keys WHERE name = 'inbox_known'")
            .await,
        1,
        "signed with a key every instance shares"
    );

    // Signing out, here or everywhere, clears the session's cookie only.
    let out = inbox
        .page_request(
            reqwest::Method::DELETE,
            "/api/admin/session",
            Some(&session),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), 204);
    assert_eq!(set_cookies(&out).len(), 1);
    let cleared = set_cookie(&out);
    let (pair, attributes) = cookie_parts(&cleared);
    assert_eq!(pair, "inbox_session=");
    assert!(attributes.contains(&"Max-Age=0"), "{attributes:?}");
    let session = inbox.session().await;
    let everywhere = inbox
        .page_request(
            reqwest::Method::DELETE,
            "/api/admin/sessions",
            Some(&session),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(everywhere.status(), 204);
    assert_eq!(set_cookies(&everywhere).len(), 1);

    // The marked browser signs in again (and is marked anew) ...
    let with_mark = |password: &str| {
        inbox
            .page_request(reqwest::Method::POST, "/api/admin/session", Some(mark))
            .json(&json!({ "password": password }))
            .send()
    };
    let again = with_mark(PASSWORD).await.unwrap();
    assert_eq!(again.status(), 200);
    assert!(set_cookies(&again)[1].starts_with("inbox_known="));
    // ... and its wrong passwords count as anyone's: a stolen mark is no way round the limit.
    for attempt in 1..=5 {
        let wrong = with_mark(&format!("guess number {attempt}")).await.unwrap();
        assert_eq!(code(wrong).await, "wrong_password", "attempt {attempt}");
    }
    let refused = with_mark(PASSWORD).await.unwrap();
    assert_eq!(code(refused).await, "too_many_failed_attempts");
    inbox.stop().await;
}

async fn an_idle_session_expires_after_12_hours(db: Db) {
    let inbox = Inbox::start(db, &[]).await;
    let cookie = inbox.session().await;
    assert!(inbox.list(&cookie, "").await.is_empty());
    let idle_for = |hours: i64| {
        let at = time::OffsetDateTime::now_utc() - time::Duration::hours(hours);
        format!(
            "UPDATE admin_sessions SET last_seen_at = '{}'",
            backend::store::format_timestamp(at)
        )
    };
    // Eleven hours idle is still in, and the request counts as use again.
    inbox.app.sql(&idle_for(11)).await;
    assert!(inbox.list(&cookie, "").await.is_empty());
    inbox.app.sql(&idle_for(13)).await;
    let expired = inbox.get("/api/admin/quote-requests", &cookie).await;
    assert_eq!(expired.status(), 401);
    assert_eq!(code(expired).await, "unauthorized");
    let who = inbox.get("/api/admin/session", &cookie).await;
    assert_eq!(who.status(), 200, "asking is no error");
    assert_eq!(who.json::<Value>().await.unwrap(), json!({"via": null}));
    inbox.stop().await;
}

async fn a_session_ends_7_days_after_sign_in_however_much_it_is_used(db: Db) {
    let inbox = Inbox::start(db, &[]).await;
    let cookie = inbox.session().await;
    let signed_in = |days_ago: i64| {
        let at = time::OffsetDateTime::now_utc() - time::Duration::days(days_ago);
        format!(
            "UPDATE admin_sessions SET created_at = '{}'",
            backend::store::format_timestamp(at)
        )
    };
    // Used a minute ago, as every request makes it: only the sign-in's age ends it.
    inbox.app.sql(&signed_in(6)).await;
    assert!(inbox.list(&cookie, "").await.is_empty());
    inbox.app.sql(&signed_in(7)).await;
    let ended = inbox
        .get("/api/admin/quote-requests?format=csv", &cookie)
        .await;
    assert_eq!(ended.status(), 401);
    assert_eq!(code(ended).await, "unauthorized");
    // The next round of the retention (at start, then daily) deletes its row.
    let mut inbox = inbox;
    inbox.app.restart().await;
    assert_eq!(
        inbox.app.count("SELECT count(*) FROM admin_sessions").await,
        0
    );
    inbox.stop().await;

    let one_day = Inbox::start(db, &[("ADMIN_SESSION_DAYS", "1")]).await;
    let cookie = one_day.session().await;
    one_day.app.sql(&signed_in(1)).await;
    assert!(!one_day.signed_in_with(&cookie).await);
    one_day.stop().await;
}

async fn a_new_password_hash_ends_every_session(db: Db) {
    let mut inbox = Inbox::start(db, &[]).await;
    let cookie = inbox.session().await;
    assert!(inbox.list(&cookie, "").await.is_empty());
    // The same password hashed again (a new salt) is a new hash too.
    let new_hash = backend::routes::admin::password::hash(PASSWORD).unwrap();
    inbox
        .app
        .restart_with(|config| config.inbox.password_hash = Some(new_hash.into()))
        .await;
    assert!(!inbox.signed_in_with(&cookie).await);
    for path in [
        "/api/admin/quote-requests",
        "/api/admin/quote-requests?format=csv",
    ] {
        let old = inbox.get(path, &cookie).await;
        assert_eq!(old.status(), 401, "{path}");
    }
    let fresh = inbox.session().await;
    assert!(inbox.list(&fresh, "").await.is_empty());
    inbox.stop().await;
}

async fn signing_out_everywhere_ends_every_session(db: Db) {
    let inbox = Inbox::start(db, &[]).await;
    let (phone, desktop) = (inbox.session().await, inbox.session().await);
    let everywhere = |cookie: Option<&str>| {
        inbox
            .page_request(reqwest::Method::DELETE, "/api/admin/sessions", cookie)
            .send()
    };
    assert_eq!(everywhere(None).await.unwrap().status(), 401);
    // From another site the cookie's request is refused and ends nothing.
    let cross_site = inbox
        .app
        .client
        .delete(inbox.app.url("/api/admin/sessions"))
        .header("cookie", &phone)
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(cross_site.status(), 403);
    assert!(inbox.list(&desktop, "").await.is_empty());

    let out = everywhere(Some(&phone)).await.unwrap();
    assert_eq!(out.status(), 204);
    assert_eq!(
        cookie_parts(&set_cookie(&out)),
        (
            "inbox_session=",
            vec!["HttpOnly", "Max-Age=0", "Path=/", "SameSite=Strict"]
        )
    );
    for cookie in [&phone, &desktop] {
        assert!(!inbox.signed_in_with(cookie).await);
    }
    assert_eq!(
        inbox.app.count("SELECT count(*) FROM admin_sessions").await,
        0
    );
    // A script with the token may end them too (a lost phone, found out at a desk).
    let tablet = inbox.session().await;
    let by_token = inbox
        .app
        .client
        .delete(inbox.app.url("/api/admin/sessions"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(by_token.status(), 204);
    assert!(!inbox.signed_in_with(&tablet).await);
    let get = inbox.get("/api/admin/sessions", &tablet).await;
    assert_eq!(get.status(), 405);
    inbox.stop().await;
}

async fn cross_site_requests_are_refused_403_and_change_nothing(db: Db) {
    let inbox = Inbox::start(db, &[]).await;
    let cookie = inbox.session().await;
    let id = inbox.web_lead("family", "ana@example.com").await;
    let lead = format!("/api/admin/quote-requests/{id}");
    let evil = |method: reqwest::Method, path: &str, how: &str| {
        let request = inbox
            .app
            .client
            .request(method, inbox.app.url(path))
            .header("cookie", &cookie);
        match how {
            "origin" => request.header("origin", "https://evil.example"),
            "fetch-site" => request.header("sec-fetch-site", "cross-site"),
            _ => request,
        }
    };
    for how in ["origin", "fetch-site", "no evidence"] {
        let attempts = [
            evil(reqwest::Method::POST, "/api/admin/session", how)
                .json(&json!({ "password": PASSWORD })),
            evil(reqwest::Method::DELETE, "/api/admin/session", how),
            evil(reqwest::Method::PATCH, &lead, how).json(&json!({"status": "contacted"})),
            evil(reqwest::Method::DELETE, &lead, how),
        ];
        for attempt in attempts {
            let response = attempt.send().await.unwrap();
            assert_eq!(response.status(), 403, "{how}");
            assert!(response.headers().get("set-cookie").is_none());
            assert_eq!(code(response).await, "cross_site_request");
        }
    }
    let rows = inbox.list(&cookie, "").await;
    assert_eq!(rows.len(), 1, "not deleted");
    assert_eq!(rows[0]["status"], "new", "not marked");
    assert_eq!(
        inbox.app.count("SELECT count(*) FROM admin_sessions").await,
        1,
        "neither signed out nor a new session"
    );
    inbox.stop().await;
}

async fn no_admin_data_without_a_session_or_the_token(db: Db) {
    let inbox = Inbox::start(db, &[]).await;
    let id = inbox.web_lead("family", "ana@example.com").await;
    let lead = format!("/api/admin/quote-requests/{id}");
    let forged = format!("inbox_session={}", "ab".repeat(32));
    for cookie in [None, Some(forged.as_str()), Some("inbox_session=short")] {
        for (method, path) in [
            (reqwest::Method::GET, "/api/admin/quote-requests"),
            (reqwest::Method::GET, "/api/admin/quote-requests?format=csv"),
            (reqwest::Method::GET, lead.as_str()),
            (reqwest::Method::PATCH, lead.as_str()),
            (reqwest::Method::DELETE, lead.as_str()),
            (reqwest::Method::DELETE, "/api/admin/session"),
        ] {
            let response = inbox
                .page_request(method.clone(), path, cookie)
                .json(&json!({"status": "contacted"}))
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 401, "{method} {path} {cookie:?}");
            assert_eq!(response.headers()["cache-control"], "no-store");
            let body = response.text().await.unwrap();
            assert!(!body.contains("ana@example.com"), "{body}");
        }
    }
    for cookie in [None, Some(forged.as_str())] {
        let who = inbox
            .page_request(reqwest::Method::GET, "/api/admin/session", cookie)
            .send()
            .await
            .unwrap();
        assert_eq!(who.status(), 200, "{cookie:?}");
        assert_eq!(who.json::<Value>().await.unwrap(), json!({"via": null}));
    }
    let wrong_token = inbox
        .app
        .client
        .get(inbox.app.url("/api/admin/quote-requests"))
        .bearer_auth("guess")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_token.status(), 401);
    assert_eq!(
        inbox.app.count("SELECT count(*) FROM quote_requests").await,
        1
    );
    inbox.stop().await;
}

async fn the_token_keeps_working_beside_the_password(db: Db) {
    let inbox = Inbox::start(db, &[]).await;
    let id = inbox.web_lead("family", "ana@example.com").await;
    let lead = inbox.app.url(&format!("/api/admin/quote-requests/{id}"));
    let client = &inbox.app.client;
    // A script sends no Origin: the token, not a cookie, speaks for it.
    let marked = client
        .patch(&lead)
        .bearer_auth(TOKEN)
        .json(&json!({"status": "contacted"}))
        .send()
        .await
        .unwrap();
    assert_eq!(marked.status(), 200);
    assert_eq!(marked.json::<Value>().await.unwrap()["status"], "contacted");
    let who = client
        .get(inbox.app.url("/api/admin/session"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(who.json::<Value>().await.unwrap(), json!({"via": "token"}));
    let deleted = client
        .delete(&lead)
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 204);
    let again = client
        .delete(&lead)
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 404);
    inbox.stop().await;

    // The token alone, without a password: the API works, sessions and /admin do not exist.
    let app = TestApp::spawn()
        .env(&[("ADMIN_TOKEN", TOKEN)])
        .start()
        .await;
    let list = app
        .client
        .get(app.url("/api/admin/quote-requests"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(list.status(), 200);
    assert_eq!(app.get("/api/admin/session").await.status(), 404);
    assert_eq!(app.get("/admin").await.status(), 404);
    app.stop().await;
}

async fn filters_search_and_csv(db: Db) {
    let inbox = Inbox::start(db, &[]).await;
    let cookie = inbox.session().await;
    inbox.web_lead("family", "Ana_Web@Example.com").await;
    inbox.web_lead("individual", "anaxweb@example.com").await;
    inbox.voice_lead("call-1", "t1", "bob@example.com").await;
    let emails = |rows: Vec<Value>| -> Vec<String> {
        rows.iter()
            .map(|r| r["email"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        emails(inbox.list(&cookie, "").await),
        [
            "bob@example.com",
            "anaxweb@example.com",
            "Ana_Web@Example.com"
        ],
        "newest first"
    );
    assert_eq!(
        emails(inbox.list(&cookie, "?source=voice").await),
        ["bob@example.com"]
    );
    assert_eq!(
        emails(inbox.list(&cookie, "?product=family").await),
        ["Ana_Web@Example.com"]
    );
    assert_eq!(
        emails(inbox.list(&cookie, "?email=ANA_").await),
        ["Ana_Web@Example.com"],
        "any case, and _ is itself"
    );
    assert_eq!(inbox.list(&cookie, "?status=contacted").await.len(), 0);
    assert_eq!(inbox.list(&cookie, "?status=new").await.len(), 3);
    assert_eq!(inbox.list(&cookie, "?until=2000-01-01").await.len(), 0);
    assert_eq!(
        inbox
            .list(&cookie, "?since=2000-01-01&until=2999-01-01")
            .await
            .len(),
        3
    );
    let page = inbox.list(&cookie, "?limit=1&source=web").await;
    assert_eq!(emails(page), ["anaxweb@example.com"]);
    let voice = &inbox.list(&cookie, "?source=voice").await[0];
    assert_eq!(voice["status"], "new");
    assert_eq!(voice["call_summary"], "Wants Medicare.");

    let csv = inbox
        .get("/api/admin/quote-requests?format=csv&source=web", &cookie)
        .await;
    assert_eq!(csv.headers()["content-type"], "text/csv; charset=utf-8");
    let disposition = csv.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_owned();
    // The day itself is the handler's unit test's (this one may run across midnight).
    assert!(
        disposition.starts_with("attachment; filename=\"leads-20")
            && disposition.ends_with(".csv\""),
        "{disposition}"
    );
    let csv = csv.text().await.unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(csv.contains("\"Ana_Web@Example.com\"") && !csv.contains("bob@"));

    let bad = inbox
        .get("/api/admin/quote-requests?source=phone", &cookie)
        .await;
    assert_eq!(bad.status(), 400);
    assert_eq!(code(bad).await, "invalid_parameter");
    inbox.stop().await;
}

async fn marking_contacted_and_back(db: Db) {
    let inbox = Inbox::start(db, &[]).await;
    let cookie = inbox.session().await;
    inbox.voice_lead("call-1", "t1", "bob@example.com").await;
    let id = inbox.list(&cookie, "").await[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("/api/admin/quote-requests/{id}");
    let lead: Value = inbox.get(&path, &cookie).await.json().await.unwrap();
    assert_eq!(
        lead["call_transcript"],
        "AI: Hola.\nUser: Medicare, please."
    );
    assert_eq!(lead["call_ended_reason"], "customer-ended-call");
    assert_eq!(lead["call_ended"], "The caller hung up");
    assert_eq!(lead["status_changed_at"], Value::Null);
    let mark = |status: &str| {
        inbox
            .page_request(reqwest::Method::PATCH, &path, Some(&cookie))
            .json(&json!({ "status": status }))
            .send()
    };
    let contacted: Value = mark("contacted").await.unwrap().json().await.unwrap();
    assert_eq!(contacted["status"], "contacted");
    assert!(contacted["status_changed_at"]
        .as_str()
        .unwrap()
        .ends_with('Z'));
    assert_eq!(inbox.list(&cookie, "?status=contacted").await.len(), 1);
    let back: Value = mark("new").await.unwrap().json().await.unwrap();
    assert_eq!(back["status"], "new");
    let bad = mark("done").await.unwrap();
    assert_eq!(bad.status(), 400);
    let text = inbox
        .page_request(reqwest::Method::PATCH, &path, Some(&cookie))
        .body("status=new")
        .send()
        .await
        .unwrap();
    assert_eq!(text.status(), 415);
    let unknown = inbox
        .page_request(
            reqwest::Method::PATCH,
            "/api/admin/quote-requests/0195a3b0-0000-7000-8000-000000000000",
            Some(&cookie),
        )
        .json(&json!({"status": "new"}))
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 404);
    inbox.stop().await;
}

async fn a_note_is_kept_with_the_lead_and_in_the_csv(db: Db) {
    let inbox = Inbox::start(db, &[]).await;
    let cookie = inbox.session().await;
    let id = inbox.web_lead("family", "ana@example.com").await;
    let path = format!("/api/admin/quote-requests/{id}");
    let patch = |body: Value| {
        inbox
            .page_request(reqwest::Method::PATCH, &path, Some(&cookie))
            .json(&body)
            .send()
    };
    let noted: Value = patch(json!({"note": "  Call back Tuesday, \"after 5\"\nSpanish.  "}))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(noted["note"], "Call back Tuesday, \"after 5\"\nSpanish.");
    assert_eq!(noted["status"], "new", "the status is left as it was");
    let lead: Value = inbox.get(&path, &cookie).await.json().await.unwrap();
    assert_eq!(lead["note"], noted["note"]);
    assert_eq!(inbox.list(&cookie, "").await[0]["note"], noted["note"]);
    let csv = inbox
        .get("/api/admin/quote-requests?format=csv", &cookie)
        .await
        .text()
        .await
        .unwrap();
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .contains(",\"note\",\"language\",\"consent_channel\",\"consent_notice_sha256\",\"consent_notice\","),
        "{csv}"
    );
    assert!(
        csv.contains("\"Call back Tuesday, \"\"after 5\"\"\nSpanish.\""),
        "{csv}"
    );

    let both: Value = patch(json!({"status": "contacted", "note": "Sent the plan."}))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        (both["status"].as_str(), both["note"].as_str()),
        (Some("contacted"), Some("Sent the plan."))
    );
    let too_long = patch(json!({"note": "x".repeat(2001)})).await.unwrap();
    assert_eq!(too_long.status(), 400);
    assert_eq!(code(too_long).await, "invalid_parameter");
    // PostgreSQL's text holds no NUL: refused before the store, on either database.
    let nul = patch(json!({"note": "a\u{0}b"})).await.unwrap();
    assert_eq!(nul.status(), 400);
    assert_eq!(code(nul).await, "invalid_parameter");
    let lead: Value = inbox.get(&path, &cookie).await.json().await.unwrap();
    assert_eq!(
        lead["note"], "Sent the plan.",
        "the refused note changed nothing"
    );
    let search = inbox
        .get("/api/admin/quote-requests?email=ana%00", &cookie)
        .await;
    assert_eq!(search.status(), 400);
    assert_eq!(code(search).await, "invalid_parameter");
    for nothing in [
        json!({}),
        json!({"colour": "red"}),
        json!({"note": "", "status": null}),
    ] {
        let refused = patch(nothing).await.unwrap();
        assert_eq!(refused.status(), 400);
    }
    let lead: Value = inbox.get(&path, &cookie).await.json().await.unwrap();
    assert_eq!(
        lead["note"], "Sent the plan.",
        "a refused change keeps the note"
    );
    let cleared: Value = patch(json!({"note": " "}))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(cleared["note"], Value::Null);
    inbox.stop().await;
}

async fn deleting_a_lead_removes_its_outbox_row_and_key_and_keeps_its_conversation(db: Db) {
    // Forwarding on (to a closed port), so each lead has an outbox row.
    let inbox = Inbox::start(db, &[("LEAD_WEBHOOK_URL", "http://127.0.0.1:9/leads")]).await;
    let cookie = inbox.session().await;
    inbox.voice_lead("call-1", "t1", "bob@example.com").await;
    inbox
        .voice_lead("call-1", "t2", "bob.two@example.com")
        .await;
    let keyed = inbox
        .app
        .client
        .post(inbox.app.url("/api/quote-requests"))
        .header("idempotency-key", "key-1")
        .json(&json!({"product": "family", "email": "ana@example.com"}))
        .send()
        .await
        .unwrap();
    let web_id = keyed.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // The worker takes each lead into the outbox before its first attempt.
    inbox
        .app
        .wait_for_rows("a first attempt at each lead", |rows| {
            rows.len() == 3
                && rows.iter().all(|r| {
                    r.delivery_on(Channel::Webhook)
                        .is_some_and(|d| d.attempts > 0)
                })
        })
        .await;
    assert_eq!(inbox.app.count("SELECT count(*) FROM lead_outbox").await, 3);
    let delete = |id: String| {
        inbox
            .page_request(
                reqwest::Method::DELETE,
                &format!("/api/admin/quote-requests/{id}"),
                Some(&cookie),
            )
            .send()
    };
    assert_eq!(delete(web_id.clone()).await.unwrap().status(), 204);
    assert_eq!(inbox.app.count("SELECT count(*) FROM lead_outbox").await, 2);
    // The key went with the row: the same key now makes a new lead instead of a conflict.
    let reused = inbox
        .app
        .client
        .post(inbox.app.url("/api/quote-requests"))
        .header("idempotency-key", "key-1")
        .json(&json!({"product": "medicare", "email": "other@example.com"}))
        .send()
        .await
        .unwrap();
    assert_eq!(reused.status(), 201);
    assert_ne!(reused.json::<Value>().await.unwrap()["id"], web_id.as_str());

    let voice: Vec<String> = inbox
        .list(&cookie, "?source=voice")
        .await
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(delete(voice[0].clone()).await.unwrap().status(), 204);
    let reports = "SELECT count(*) FROM voice_calls";
    assert_eq!(
        inbox.app.count(reports).await,
        1,
        "another lead still refers to the call"
    );
    let left: Value = inbox
        .get(&format!("/api/admin/quote-requests/{}", voice[1]), &cookie)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        left["call_transcript"],
        "AI: Hola.\nUser: Medicare, please."
    );
    assert_eq!(delete(voice[1].clone()).await.unwrap().status(), 204);
    assert_eq!(
        inbox.app.count(reports).await,
        1,
        "the conversation is kept after its last lead (CONVERSATION_RETENTION_DAYS)"
    );
    assert_eq!(
        inbox
            .app
            .count("SELECT count(*) FROM consent_records")
            .await,
        4,
        "and every lead's consent record"
    );
    assert_eq!(delete(voice[1].clone()).await.unwrap().status(), 404);
    assert_eq!(delete("not-an-id".into()).await.unwrap().status(), 404);
    inbox.stop().await;
}

async fn retention_deletes_old_leads_at_start(db: Db) {
    let mut inbox = Inbox::start(db, &[("LEAD_RETENTION_DAYS", "30")]).await;
    let old = inbox.web_lead("family", "old@example.com").await;
    inbox.web_lead("family", "young@example.com").await;
    inbox
        .voice_lead("call-old", "t1", "old.voice@example.com")
        .await;
    inbox
        .app
        .sql(&format!(
            "UPDATE quote_requests SET created_at = '2001-01-01T00:00:00.000Z'
             WHERE id = '{old}' OR email = 'old.voice@example.com';
             UPDATE voice_calls SET reported_at = '2001-01-01T00:00:00.000Z';"
        ))
        .await;
    assert_eq!(
        inbox.app.count("SELECT count(*) FROM quote_requests").await,
        3
    );
    inbox.app.restart().await;
    let cookie = inbox.session().await;
    let rows = inbox.list(&cookie, "").await;
    let emails: Vec<_> = rows.iter().map(|r| r["email"].as_str().unwrap()).collect();
    assert_eq!(emails, ["young@example.com"]);
    assert_eq!(inbox.app.count("SELECT count(*) FROM voice_calls").await, 0);
    inbox.stop().await;
}

#[tokio::test]
async fn https_behind_a_trusted_proxy_gets_a_secure_host_prefixed_cookie() {
    let inbox = Inbox::start(Db::Sqlite, &[]).await;
    let host = inbox.app.addr.to_string();
    // The test client connects from loopback, which TRUSTED_PROXIES trusts by default: it
    // plays the TLS-terminating proxy.
    let response = inbox
        .app
        .client
        .post(inbox.app.url("/api/admin/session"))
        .header("x-forwarded-proto", "https")
        .header("origin", format!("https://{host}"))
        .json(&json!({ "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let cookie = set_cookie(&response);
    let (pair, attributes) = cookie_parts(&cookie);
    assert!(pair.starts_with("__Host-inbox_session="), "{cookie}");
    assert_eq!(
        attributes,
        ["HttpOnly", "Path=/", "SameSite=Strict", "Secure"]
    );
    // Over https only the prefixed cookie is read.
    let https = |cookie: String| {
        inbox
            .app
            .client
            .get(inbox.app.url("/api/admin/session"))
            .header("x-forwarded-proto", "https")
            .header("cookie", cookie)
            .send()
    };
    let via = |response: reqwest::Response| async move {
        assert_eq!(response.status(), 200);
        response.json::<Value>().await.unwrap()["via"].clone()
    };
    assert_eq!(via(https(pair.to_owned()).await.unwrap()).await, "session");
    let unprefixed = pair.replacen("__Host-", "", 1);
    assert_eq!(via(https(unprefixed).await.unwrap()).await, Value::Null);
    // The http origin is another site for an https page.
    let downgraded = inbox
        .app
        .client
        .post(inbox.app.url("/api/admin/session"))
        .header("x-forwarded-proto", "https")
        .header("origin", format!("http://{host}"))
        .json(&json!({ "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(downgraded.status(), 403);
    inbox.stop().await;
}

#[tokio::test]
async fn the_admin_page_is_noindex_and_only_there_with_a_password() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(site.join("index.html"), "home").unwrap();
    std::fs::write(site.join("404.html"), "not found").unwrap();
    std::fs::write(site.join("admin.html"), "<title>Inbox</title>").unwrap();
    let with = TestApp::spawn()
        .env(&[("ADMIN_PASSWORD_HASH", HASH)])
        .static_dir(site.clone())
        .start()
        .await;
    let page = with.get("/admin").await;
    assert_eq!(page.status(), 200);
    assert_eq!(page.headers()["x-robots-tag"], "noindex, nofollow");
    assert_eq!(page.headers()["cache-control"], "no-store");
    assert_eq!(page.text().await.unwrap(), "<title>Inbox</title>");
    let by_file_name = with.get("/admin.html").await;
    assert_eq!(by_file_name.status(), 404);
    assert_eq!(by_file_name.text().await.unwrap(), "not found");
    with.stop().await;
    let without = TestApp::spawn().static_dir(site).start().await;
    let page = without.get("/admin").await;
    assert_eq!(page.status(), 404);
    assert_eq!(page.text().await.unwrap(), "not found");
    assert_eq!(without.get("/api/admin/session").await.status(), 404);
    without.stop().await;
}

/// Runs `backend hash-password` with `stdin` piped in (not a terminal: read as one line).
fn hash_password(stdin: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_backend"))
        .arg("hash-password")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn hash_password_prints_the_line_for_the_environment_file() {
    let output = hash_password("correct horse battery staple\n");
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let hash = stdout
        .trim_end()
        .strip_prefix("ADMIN_PASSWORD_HASH='")
        .and_then(|rest| rest.strip_suffix('\''))
        .unwrap_or_else(|| panic!("{stdout:?}"));
    assert!(hash.starts_with("$argon2id$v=19$"), "{hash}");
    assert!(backend::routes::admin::password::verify(
        hash,
        "correct horse battery staple"
    ));
    assert!(
        !stdout.contains("horse") && !String::from_utf8_lossy(&output.stderr).contains("horse")
    );

    let short = hash_password("hunter2\n");
    assert!(!short.status.success());
    assert!(short.stdout.is_empty());
    let message = String::from_utf8(short.stderr).unwrap();
    assert_eq!(
        message,
        "error: the password must be at least 12 characters long\n"
    );
}
