//! `GET /api/client-config`: the voice assistant's deployment settings, handed to the page at run
//! time so one build serves every deployment.

use serde::Serialize;
use warp::filters::BoxedFilter;
use warp::http::HeaderValue;
use warp::reply::Response;
use warp::Filter;

use crate::http::methods::methods;
use crate::http::page_reply::no_store;
use crate::settings::voice::VoiceSettings;

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = ClientConfig)]
#[serde(deny_unknown_fields)]
struct ClientConfigBody<'a> {
    /// null when no voice assistant is configured.
    #[schema(required = true)]
    voice: Option<&'a VoiceSettings>,
}

/// The voice assistant's deployment settings for the page (public values only); never cached.
#[utoipa::path(
    get,
    path = "/api/client-config",
    operation_id = "clientConfig",
    responses((status = 200, description = "The settings; voice is null when no voice assistant is configured.", body = ClientConfigBody))
)]
pub fn routes(voice: Option<VoiceSettings>) -> BoxedFilter<(Response,)> {
    let body = serde_json::to_vec(&ClientConfigBody {
        voice: voice.as_ref(),
    })
    .expect("plain strings serialize");
    warp::path!("api" / "client-config")
        .and(methods("GET, HEAD"))
        .map(move || {
            let mut response = Response::new(body.clone().into());
            let json = HeaderValue::from_static("application/json");
            response.headers_mut().insert("content-type", json);
            // A redeploy with new settings must reach the next page load.
            no_store(response)
        })
        .boxed()
}
