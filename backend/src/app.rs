//! The whole application: its routes, and a server that can start on any port and stop cleanly.

use std::net::SocketAddr;
use std::sync::Arc;

use secrecy::ExposeSecret;
use tokio::net::TcpListener;
use tokio::runtime::Handle;
use warp::{Filter, Reply};

use crate::forward::{BookingParts, Task, Workers};
use crate::http::error::recover;
use crate::http::failure_limit::FailureLimit;
use crate::http::route_list::{first_of, off};
use crate::http::{connections, head_size, request_log, request_target, security_headers};
use crate::leads::booking_link::BookingLinks;
use crate::leads::booking_ref::BookingRefs;
use crate::leads::booking_words::BookingWords;
use crate::leads::consent_link::ConsentLinks;
use crate::leads::notice::LeadNotices;
use crate::leads::retention;
use crate::routes::booking::BookingSite;
use crate::routes::booking_manage::BookingManage;
use crate::routes::consent_page::{ConsentPage, ConsentPages, ConsentParts};
use crate::routes::opt_out::OptOutPages;
use crate::routes::quote_result::ResultPages;
use crate::routes::quotes::limits::PostLimits;
use crate::routes::site::{PrivacyFacts, Site};
use crate::routes::{
    admin, booking, booking_manage, calendar_feed, chat_consent, client_config, consent_page,
    health, notice_acceptance, openapi, opt_out, quote_result, quotes, site, voice_events,
};
use crate::settings::Config;
use crate::spam::FormTokens;
use crate::store::{self, QuoteStore, StoreError, StoreOptions};

/// How long a graceful shutdown may take before in-flight requests are abandoned.
const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

/// The pages the server fills or writes for the forms a browser posts itself: the quote's
/// results, the opt-out's, and the booking page when booking is on.
pub struct FormPages {
    pub results: Arc<ResultPages>,
    pub opt_out: Arc<OptOutPages>,
    pub booking: Option<BookingSite>,
    /// The words of a booking's e-mails and of the page its link opens.
    pub booking_words: Option<Arc<BookingWords>>,
    /// With booking on, the quote's reference to its lead on the booking page.
    pub booking_refs: Option<Arc<BookingRefs>>,
}

pub fn routes(
    store: Arc<dyn QuoteStore>,
    site: Arc<Site>,
    pages: FormPages,
    tokens: Arc<FormTokens>,
    notices: Arc<LeadNotices>,
    consent: ConsentParts,
    config: &Config,
) -> impl Filter<Extract = (impl Reply,), Error = std::convert::Infallible> + Clone {
    let limits = Arc::new(PostLimits::new(
        config.rate_limit,
        config.trusted_proxies.clone(),
    ));
    // One count of failed sign-ins per client, shared by every secret there is to guess (the
    // admin token, the inbox's password and the voice events' secret).
    let sign_in_failures = Arc::new(FailureLimit::default());
    // An endpoint without its secret is off: it answers like any unknown path.
    let voice_events = match &config.leads.voice_events_secret {
        Some(secret) => voice_events::routes(
            Arc::clone(&store),
            Arc::clone(&notices),
            pages.booking.clone(),
            secret.expose_secret().to_owned(),
            Arc::clone(&sign_in_failures),
            config.trusted_proxies.clone(),
        ),
        None => off(),
    };
    let admin = if admin::enabled(config) {
        admin::routes(
            Arc::clone(&store),
            config,
            sign_in_failures,
            Arc::clone(&consent.links),
            Arc::clone(&notices),
        )
    } else {
        off()
    };
    let manage = match (&pages.booking, &pages.booking_words) {
        (Some(site), Some(words)) => Some(BookingManage {
            store: Arc::clone(&store) as _,
            site: site.clone(),
            words: Arc::clone(words),
            links: Arc::clone(&consent.booking_links),
            limits: Arc::clone(&limits),
        }),
        _ => None,
    };
    let consent_page = consent_page::routes(Arc::new(ConsentPage {
        store: Arc::clone(&store),
        links: consent.links,
        notices: Arc::clone(&notices),
        pages: consent.pages,
        limits: Arc::clone(&limits),
    }));
    let api = first_of!(
        voice_events,
        admin,
        chat_consent::route(
            Arc::clone(&store) as _,
            Arc::clone(&limits),
            Arc::clone(&notices),
        ),
        notice_acceptance::route(
            Arc::clone(&store) as _,
            Arc::clone(&limits),
            Arc::clone(&notices),
        ),
        quotes::routes(
            Arc::clone(&store) as _,
            Arc::clone(&limits),
            Arc::clone(&tokens),
            Arc::clone(&notices),
            pages.booking_refs.clone(),
        ),
        openapi::routes(),
        client_config::routes(config.voice.clone()),
    )
    .recover(recover)
    .unify();
    let all = first_of!(
        health::routes(Arc::clone(&store), config.alerts.after),
        under_api().and(api),
        site::admin_page(Arc::clone(&site), config.inbox.password_hash.is_some()),
        quote_result::routes(pages.results),
        opt_out::routes(Arc::clone(&store) as _, Arc::clone(&limits), pages.opt_out),
        booking::routes(
            Arc::clone(&store) as _,
            pages.booking,
            notices,
            limits,
            pages.booking_refs,
        ),
        booking_manage::routes(manage),
        calendar_feed::routes(Arc::clone(&store) as _, Arc::clone(&store) as _),
        consent_page,
        site::routes(site, tokens),
    );
    let headers = Arc::new(config.security_headers.header_map());
    request_target::paths_only()
        .and(head_size::within_cap())
        .and(all)
        .recover(recover)
        .unify()
        .map(move |reply| security_headers::unless_set(reply, &headers))
        .with(request_log::log())
}

/// Paths under `/api/`: what their routes refuse (an unknown path, a wrong method, missing
/// credentials) is answered by `recover` there and never falls through to the site's pages.
fn under_api() -> impl Filter<Extract = (), Error = warp::Rejection> + Clone {
    warp::path::peek()
        .and_then(|path: warp::path::Peek| async move {
            match path.segments().next() {
                Some("api") => Ok(()),
                _ => Err(warp::reject::not_found()),
            }
        })
        .untuple_one()
}

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("cannot open the database: {0}")]
    Store(#[from] StoreError),
    #[error("cannot read the front end: {0}")]
    Site(std::io::Error),
    #[error("cannot delete old leads: {0}")]
    LeadRetention(StoreError),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
}

/// A server accepting connections; `addr` is the real address (useful with port 0).
pub struct RunningServer {
    pub addr: SocketAddr,
    connections: Task,
    store: Arc<dyn QuoteStore>,
    workers: Option<Workers>,
    retention: Option<Task>,
}

pub async fn start(config: &Config) -> Result<RunningServer, StartError> {
    let options = StoreOptions {
        forward_leads: config.leads.forwarding.is_some(),
        email_leads: config.email.is_some(),
    };
    if let Some(warning) = config.inbox.short_conversation_retention() {
        tracing::warn!("{warning}");
    }
    let store = store::open_with(&config.database, options).await?;
    let site =
        Site::load(&config.static_dir, &PrivacyFacts::of(config)).map_err(StartError::Site)?;
    // The first round before serving, so no lead past the limit is shown or forwarded.
    let plan = retention::Plan {
        leads: config.inbox.retention,
        sessions: config
            .inbox
            .password_hash
            .as_ref()
            .map(|_| config.inbox.session_lifetime),
        conversations: config.inbox.conversation_retention,
    };
    let deleted = retention::daily_round(store.as_ref(), plan, time::OffsetDateTime::now_utc())
        .await
        .map_err(StartError::LeadRetention)?;
    if deleted > 0 {
        tracing::info!(deleted, "leads past LEAD_RETENTION_DAYS deleted");
    }
    let result_pages = ResultPages::load(&config.static_dir).map_err(StartError::Site)?;
    let opt_out_pages = OptOutPages::load(&config.static_dir).map_err(StartError::Site)?;
    let notices = LeadNotices::load(&config.static_dir).map_err(StartError::Site)?;
    let booking = BookingSite::load(&config.static_dir).map_err(StartError::Site)?;
    let booking_refs = match booking {
        Some(_) => Some(Arc::new(BookingRefs::load(store.as_ref()).await?)),
        None => None,
    };
    let pages = FormPages {
        results: Arc::new(result_pages),
        opt_out: Arc::new(opt_out_pages),
        booking,
        booking_words: BookingWords::load(&config.static_dir)
            .map_err(StartError::Site)?
            .map(Arc::new),
        booking_refs,
    };
    let booking_words = pages.booking_words.clone();
    let mut server = serve(
        config,
        Arc::clone(&store),
        Arc::new(site),
        pages,
        Arc::new(notices),
    )
    .await?;
    let retained = Arc::clone(&store);
    server.retention = Some(Task::spawn(&Handle::current(), |stopped| {
        retention::run(retained, plan, stopped)
    }));
    let booking = BookingParts {
        words: booking_words,
        links: Arc::new(BookingLinks::load(store.as_ref()).await?),
    };
    server.workers = Some(Workers::start(
        store,
        &config.leads,
        config.email.as_ref(),
        &config.site,
        config.alerts,
        &config.recordings,
        booking,
    ));
    Ok(server)
}

pub async fn serve(
    config: &Config,
    store: Arc<dyn QuoteStore>,
    site: Arc<Site>,
    pages: FormPages,
    notices: Arc<LeadNotices>,
) -> Result<RunningServer, StartError> {
    let addr = config.addr;
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|source| StartError::Bind { addr, source })?;
    let addr = listener
        .local_addr()
        .map_err(|source| StartError::Bind { addr, source })?;
    let tokens = Arc::new(FormTokens::load(store.as_ref(), config.spam.min_fill).await?);
    let consent = ConsentParts {
        links: Arc::new(ConsentLinks::load(store.as_ref()).await?),
        pages: Arc::new(ConsentPages::load(&config.static_dir).map_err(StartError::Site)?),
        booking_links: Arc::new(BookingLinks::load(store.as_ref()).await?),
    };
    let routes = routes(
        Arc::clone(&store),
        site,
        pages,
        tokens,
        notices,
        consent,
        config,
    );
    let proxies = config.trusted_proxies.clone();
    let connections = Task::spawn(&Handle::current(), |stopped| {
        connections::serve(
            listener,
            routes,
            connections::connection_cap(),
            proxies,
            async {
                let _ = stopped.await;
            },
        )
    });
    Ok(RunningServer {
        addr,
        connections,
        store,
        workers: None,
        retention: None,
    })
}

impl RunningServer {
    /// How many rounds the background loop named `name` has finished (`alerts`, `digest`, a
    /// channel's worker such as `email`): what a test waits on to know that a check has run.
    pub fn rounds_finished(&self, name: &str) -> Option<u64> {
        self.workers.as_ref()?.rounds_finished(name)
    }

    /// Stops accepting, lets in-flight requests finish (within a bound), then flushes the store.
    pub async fn shutdown(self) {
        if tokio::time::timeout(SHUTDOWN_GRACE, self.connections.stop())
            .await
            .is_err()
        {
            tracing::warn!("in-flight requests did not finish in time");
        }
        if let Some(retention) = self.retention {
            retention.stop().await;
        }
        if let Some(workers) = self.workers {
            workers.stop().await;
        }
        self.store.close().await;
    }
}
