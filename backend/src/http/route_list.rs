//! Routes put together: the first that takes a request answers it, a route that is off answers
//! like any unknown path, and a handler is handed its shared state.

use std::convert::Infallible;
use std::sync::Arc;

use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::Filter;

/// A route's filter, as each route module gives it.
pub type Route = BoxedFilter<(Response,)>;

/// The first of the routes that takes the request; a request none takes gets the most telling
/// of their refusals, as `Filter::or` gives it. One chain, boxed once: a box at each step would
/// make a future a step for every request (7.9k more instructions a quote post, callgrind).
macro_rules! first_of {
    ($first:expr $(, $route:expr)* $(,)?) => {{
        use ::warp::Filter as _;
        $first$(.or($route).unify())*.boxed()
    }};
}
pub(crate) use first_of;

/// A route that is off: not mounted at all, it answers like any unknown path.
pub fn off() -> Route {
    warp::any()
        .and_then(|| async { Err::<Response, _>(warp::reject::not_found()) })
        .boxed()
}

/// A handler's shared state, handed to it with every request.
pub fn with<T: Send + Sync + ?Sized>(
    state: Arc<T>,
) -> impl Filter<Extract = (Arc<T>,), Error = Infallible> + Clone {
    warp::any().map(move || Arc::clone(&state))
}
