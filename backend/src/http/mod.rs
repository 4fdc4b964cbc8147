//! The HTTP layer under the routes: the error body and the one `recover`, the filters every route
//! shares (methods, JSON body with a limit, client address, rate limit, auth, request log), and
//! the accept loop with the request ids. The security headers' map is `settings::security_headers`,
//! added to each response in `security_headers.rs`.

pub mod address_cap;
pub mod auth;
pub mod body;
pub mod client_ip;
pub mod connections;
pub mod cookies;
pub mod error;
pub mod error_answers;
pub mod failure_limit;
pub mod forwarded_proto;
pub mod head_size;
pub mod headers;
pub mod methods;
pub mod page_reply;
pub mod path_id;
pub mod rate_limit;
pub mod recent_clients;
pub mod request_id;
pub mod request_log;
pub mod request_target;
pub mod route_list;
pub mod same_site;
pub mod security_headers;
pub mod send_deadline;
