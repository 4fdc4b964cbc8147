//! A stand-in of the voice provider's REST API (the one boundary the tests cannot reach): tools
//! and assistants listed, created (`POST /tool`, `POST /assistant`) and updated
//! (`PATCH /{kind}/{id}`) in memory, every request recorded with its body. A request without the
//! expected bearer key gets 401, an unknown id 404, as the provider answers.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use serde_json::{json, Value};
use warp::http::{Method, StatusCode};
use warp::path::FullPath;
use warp::Filter;

#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: Method,
    pub path: String,
    pub body: Option<Value>,
}

#[derive(Default)]
struct State {
    tools: Vec<Value>,
    assistants: Vec<Value>,
    requests: Vec<Recorded>,
}

pub struct VapiRest {
    pub base_url: String,
    state: Arc<Mutex<State>>,
}

impl VapiRest {
    pub async fn start(key: &'static str) -> VapiRest {
        let state = Arc::new(Mutex::new(State::default()));
        let shared = Arc::clone(&state);
        let route = warp::method()
            .and(warp::path::full())
            .and(warp::header::optional::<String>("authorization"))
            .and(warp::body::bytes())
            .map(
                move |method: Method, path: FullPath, auth: Option<String>, body: Bytes| {
                    let (status, answer) = if auth.as_deref() == Some(&format!("Bearer {key}")) {
                        let body = (!body.is_empty())
                            .then(|| serde_json::from_slice(&body).expect("a JSON body"));
                        answer(&mut shared.lock().unwrap(), method, path.as_str(), body)
                    } else {
                        (
                            StatusCode::UNAUTHORIZED,
                            json!({ "message": "Invalid Key." }),
                        )
                    };
                    warp::reply::with_status(warp::reply::json(&answer), status)
                },
            );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr: SocketAddr = listener.local_addr().unwrap();
        tokio::spawn(warp::serve(route).incoming(listener).run());
        VapiRest {
            base_url: format!("http://{addr}"),
            state,
        }
    }

    /// The requests received so far, in order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.state.lock().unwrap().requests.clone()
    }

    pub fn tools(&self) -> Vec<Value> {
        self.state.lock().unwrap().tools.clone()
    }

    pub fn assistants(&self) -> Vec<Value> {
        self.state.lock().unwrap().assistants.clone()
    }
}

fn answer(
    state: &mut State,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    state.requests.push(Recorded {
        method: method.clone(),
        path: path.to_owned(),
        body: body.clone(),
    });
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let (kind, id) = match segments[..] {
        [kind] => (kind, None),
        [kind, id] => (kind, Some(id)),
        _ => return (StatusCode::NOT_FOUND, json!({ "message": "Not Found" })),
    };
    let items = match kind {
        "tool" => &mut state.tools,
        "assistant" => &mut state.assistants,
        _ => return (StatusCode::NOT_FOUND, json!({ "message": "Not Found" })),
    };
    match (method, id, body) {
        (Method::GET, None, None) => (StatusCode::OK, Value::Array(items.clone())),
        (Method::POST, None, Some(mut body)) => {
            body["id"] = json!(format!("{kind}-{}", items.len() + 1));
            items.push(body.clone());
            (StatusCode::CREATED, body)
        }
        (Method::PATCH, Some(id), Some(changes)) => {
            let Some(item) = items.iter_mut().find(|item| item["id"] == id) else {
                return (StatusCode::NOT_FOUND, json!({ "message": "Not Found" }));
            };
            for (key, value) in changes.as_object().expect("an object") {
                item[key] = value.clone();
            }
            (StatusCode::OK, item.clone())
        }
        _ => (StatusCode::BAD_REQUEST, json!({ "message": "Bad Request" })),
    }
}
