//! Routes put together: the first that takes a request answers it, and a route that is off
//! answers like any unknown path.

use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::Filter;

/// A route's filter, as each route module gives it.
pub type Route = BoxedFilter<(Response,)>;

/// The first of `routes` that takes the request; a request none takes gets the most telling of
/// their refusals, as `Filter::or` gives it.
pub fn first_of(routes: impl IntoIterator<Item = Route>) -> Route {
    routes
        .into_iter()
        .reduce(|all, next| all.or(next).unify().boxed())
        .unwrap_or_else(off)
}

/// A route that is off: not mounted at all, it answers like any unknown path.
pub fn off() -> Route {
    warp::any()
        .and_then(|| async { Err::<Response, _>(warp::reject::not_found()) })
        .boxed()
}
