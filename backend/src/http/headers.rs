//! Reading one request header, or one cookie, as a filter, without copying the whole header map.

use std::convert::Infallible;

use warp::http::{header, HeaderMap, HeaderValue};
use warp::Filter;

/// The value of header `name`, if the request has one.
pub fn optional_header(
    name: &'static str,
) -> impl Filter<Extract = (Option<HeaderValue>,), Error = Infallible> + Clone {
    warp::header::value(name)
        .map(Some)
        .or(warp::any().map(|| None))
        .unify()
}

/// The value of cookie `name`, read in place from the request's `Cookie` line (warp's cookie
/// filter first parses the header into a typed one, on every quote post). A browser sends one
/// `Cookie` line (RFC 6265, section 5.4), and this server speaks HTTP/1.1 only.
pub fn optional_cookie(
    name: &'static str,
) -> impl Filter<Extract = (Option<String>,), Error = Infallible> + Clone {
    optional_header("cookie").map(move |line: Option<HeaderValue>| {
        let line = line?;
        cookie_in(line.to_str().ok()?, name).map(str::to_owned)
    })
}

/// `name`'s value among the `name=value` pairs of a `Cookie` line, as the `headers` crate reads
/// them (each trimmed, the first of a repeated name).
fn cookie_in<'a>(line: &'a str, name: &'a str) -> Option<&'a str> {
    values_in(line, name).next()
}

/// Every value of cookie `name` in the request's `Cookie` lines, in order: a browser sends a
/// name more than once when cookies of several paths share it.
pub fn cookie_values<'a>(
    headers: &'a HeaderMap,
    name: &'a str,
) -> impl Iterator<Item = &'a str> + 'a {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|line| line.to_str().ok())
        .flat_map(move |line| values_in(line, name))
}

fn values_in<'a>(line: &'a str, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    line.split(';')
        .filter_map(|pair| pair.split_once('='))
        .filter(move |(key, _)| key.trim() == name)
        .map(|(_, value)| value.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cookie_is_read_as_the_headers_crate_reads_it() {
        let line = "a=1; form_token = 17.ab ;b=2; form_token=second; bare";
        assert_eq!(cookie_in(line, "form_token"), Some("17.ab"));
        assert_eq!(cookie_in(line, "b"), Some("2"));
        assert_eq!(cookie_in(line, "bare"), None);
        assert_eq!(cookie_in(line, "c"), None);
        assert_eq!(cookie_in("", "a"), None);
    }

    #[test]
    fn every_value_of_a_repeated_name_in_every_line() {
        let mut headers = HeaderMap::new();
        headers.append(header::COOKIE, HeaderValue::from_static("a=1; mark=x"));
        headers.append(header::COOKIE, HeaderValue::from_static("mark = y ;b=2"));
        let values: Vec<&str> = cookie_values(&headers, "mark").collect();
        assert_eq!(values, ["x", "y"]);
        assert_eq!(cookie_values(&headers, "c").count(), 0);
    }

    #[tokio::test]
    async fn the_filter_reads_the_cookie_line() {
        let read = |request: warp::test::RequestBuilder| async move {
            request
                .filter(&optional_cookie("form_token"))
                .await
                .unwrap()
        };
        let with = warp::test::request().header("cookie", "x=1; form_token=9.cd");
        assert_eq!(read(with).await.as_deref(), Some("9.cd"));
        assert_eq!(read(warp::test::request()).await, None);
    }
}
