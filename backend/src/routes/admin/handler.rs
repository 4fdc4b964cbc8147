use std::sync::Arc;

use serde::Serialize;
use time::macros::format_description;
use time::OffsetDateTime;
use warp::http::{header, HeaderMap, HeaderValue};
use warp::reply::Response;
use warp::{Rejection, Reply};

use super::params::{self, Format};
use crate::http::error::{store_failed, ApiError};
use crate::http::error_answers::{AdminErrors, BadRequest};
use crate::leads::csv::write_csv;
use crate::leads::licence;
use crate::settings::site::SiteSettings;
use crate::store::{Inbox, LeadQuery, StoredQuote};

/// Where the CSV answer puts the cursor of the next page (the JSON answer has it in the body).
pub const NEXT_CURSOR_HEADER: &str = "x-next-cursor";

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = QuoteRequestPage)]
#[serde(deny_unknown_fields)]
struct Page<'a> {
    quote_requests: &'a [StoredQuote],
    /// Pass as cursor for the next page; null on the last one.
    #[schema(required = true, format = Uuid)]
    next_cursor: Option<&'a str>,
}

/// `attachment; filename="leads-2026-11-26.csv"`: the download is named with the day (UTC) it
/// was taken, so several downloads do not overwrite each other or read as the same.
fn csv_attachment(now: OffsetDateTime) -> HeaderValue {
    let day = now
        .date()
        .format(format_description!("[year]-[month]-[day]"))
        .unwrap_or_default();
    HeaderValue::from_str(&format!("attachment; filename=\"leads-{day}.csv\""))
        .unwrap_or_else(|_| HeaderValue::from_static("attachment; filename=\"leads.csv\""))
}

/// The leads, newest first, filtered, a page at a time, as JSON or CSV.
///
/// CSV is answered when format=csv, or when format is absent and the Accept header names
/// text/csv. Any other query parameter is refused with 400. The method and the caller are
/// already checked.
#[utoipa::path(
    get,
    path = "/api/admin/quote-requests",
    operation_id = "listQuoteRequests",
    params(params::Described),
    responses(
        (status = 200,
         description = "One page. In CSV the cursor of the next page is the X-Next-Cursor header, absent on the last page. A CSV page is a header line, then one line per row; cells that a spreadsheet would run as formulas are escaped.",
         content(
            (Page = "application/json"),
            (String = "text/csv"),
         ),
         headers(
            ("X-Next-Cursor" = Uuid, description = "CSV: the next page's cursor; absent on the last page."),
            ("Content-Disposition" = String, description = "CSV only: attachment; filename=\"leads-YYYY-MM-DD.csv\" (the day in UTC)."),
         )),
        AdminErrors, BadRequest
    )
)]
pub async fn page(
    store: Arc<dyn Inbox>,
    site: Arc<SiteSettings>,
    headers: HeaderMap,
    query: String,
) -> Result<Response, Rejection> {
    let params = params::parse(&query, &headers)?;
    // One row beyond the page tells whether another page follows.
    let mut rows = store
        .find_leads(LeadQuery {
            filter: params.filter,
            after: params.cursor,
            limit: params.limit + 1,
        })
        .await
        .map_err(store_failed("listing quote requests failed"))?;
    let more = rows.len() > params.limit;
    rows.truncate(params.limit);
    licence::check(&site, &mut rows);
    let next_cursor = if more {
        rows.last().map(|row| row.id.as_str())
    } else {
        None
    };
    match params.format {
        Format::Json => Ok(warp::reply::json(&Page {
            quote_requests: &rows,
            next_cursor,
        })
        .into_response()),
        Format::Csv => {
            let mut body = Vec::new();
            write_csv(&rows, &mut body).map_err(|_| warp::reject::custom(ApiError::Storage))?;
            let mut response = Response::new(body.into());
            let headers = response.headers_mut();
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/csv; charset=utf-8"),
            );
            headers.insert(
                header::CONTENT_DISPOSITION,
                csv_attachment(OffsetDateTime::now_utc()),
            );
            if let Some(cursor) = next_cursor.and_then(|c| HeaderValue::from_str(c).ok()) {
                headers.insert(NEXT_CURSOR_HEADER, cursor);
            }
            Ok(response)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_csv_is_named_with_the_day() {
        assert_eq!(
            csv_attachment(time::macros::datetime!(2026-11-26 23:59 UTC)),
            "attachment; filename=\"leads-2026-11-26.csv\""
        );
    }
}
