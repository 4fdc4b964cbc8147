//! `/api/admin/quote-requests/{id}/records` and `/api/admin/consent-records/{seq}/records`: a
//! lead's or a consent record's audit copy (`leads::audit_copy`) as a ZIP the broker hands an
//! auditor, the files stored as they are (the recording is compressed
//! already, the rest is small).

use std::io::{Cursor, Write};
use std::sync::Arc;

use warp::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use warp::http::HeaderValue;
use warp::reply::Response;
use warp::Rejection;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use crate::http::error::{store_failed, ApiError};
use crate::http::error_answers::{AdminErrors, NotFound};
use crate::leads::audit_copy::{audit_copy, record_copy, AuditCopy};
use crate::store::schema::Binary;
use crate::store::{QuoteStore, StoreError};

/// The lead's audit copy: a ZIP holding, in a folder lead-{id}/, lead.json, consent.json and
/// notice.txt (and phone-disclosure.txt with a number), conversation.json and the recording
/// when there are, and manifest.json with each file's SHA-256. The caller is already checked.
#[utoipa::path(
    get,
    path = "/api/admin/quote-requests/{id}/records",
    operation_id = "getLeadRecords",
    params(("id" = String, Path)),
    responses(
        (status = 200, description = "The ZIP.", content((Binary = "application/zip")),
         headers(("Content-Disposition" = String, description = "attachment; filename=\"lead-{id}-records.zip\""))),
        AdminErrors, NotFound
    )
)]
pub async fn download(store: Arc<dyn QuoteStore>, id: String) -> Result<Response, Rejection> {
    let copy = audit_copy(store.as_ref(), &id).await;
    // The id is a lowercase UUID, so the name needs no quoting beyond its quotes.
    answer(copy, &format!("lead-{id}"))
}

/// One consent record's audit copy, its lead deleted or not: a ZIP holding, in a folder
/// consent-record-{seq}/, consent.json (the record as stored, with its hash), notice.txt and
/// phone-disclosure.txt (the texts it refers to), lead.json while the lead is kept,
/// conversation.json and the recording while they are kept, and manifest.json with each file's
/// SHA-256, the record's number and whether its lead is deleted.
///
/// `leads::audit_copy::record_copy`. The caller is already checked.
#[utoipa::path(
    get,
    path = "/api/admin/consent-records/{seq}/records",
    operation_id = "getConsentRecordRecords",
    params(("seq" = i64, Path, minimum = 1, description = "The record's number (link.seq in the person's records).")),
    responses(
        (status = 200, description = "The ZIP.", content((Binary = "application/zip")),
         headers(("Content-Disposition" = String, description = "attachment; filename=\"consent-record-{seq}-records.zip\""))),
        AdminErrors, NotFound
    )
)]
pub async fn download_record(
    store: Arc<dyn QuoteStore>,
    seq: String,
) -> Result<Response, Rejection> {
    // Records are numbered from 1; anything else names none.
    let seq = seq
        .parse::<i64>()
        .ok()
        .filter(|seq| *seq > 0)
        .ok_or_else(|| warp::reject::custom(ApiError::NotFound))?;
    let copy = record_copy(store.as_ref(), seq).await;
    answer(copy, &format!("consent-record-{seq}"))
}

/// The copy as a ZIP named `{name}-records.zip`, its files in the folder `name`; 404 for none.
fn answer(copy: Result<Option<AuditCopy>, StoreError>, name: &str) -> Result<Response, Rejection> {
    let copy = copy.map_err(store_failed("reading the records failed"))?;
    let Some(copy) = copy else {
        return Err(warp::reject::custom(ApiError::NotFound));
    };
    let archive = zipped(name, copy).map_err(|error| {
        tracing::error!(%error, "writing the records failed");
        warp::reject::custom(ApiError::Storage)
    })?;
    let mut response = Response::new(archive.into());
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/zip"));
    if let Ok(disposition) =
        HeaderValue::from_str(&format!("attachment; filename=\"{name}-records.zip\""))
    {
        headers.insert(CONTENT_DISPOSITION, disposition);
    }
    Ok(response)
}

/// The files in a folder named for the lead or record, so unpacking a copy never mixes two.
fn zipped(folder: &str, copy: AuditCopy) -> zip::result::ZipResult<Vec<u8>> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Stored);
    for (name, bytes) in copy.files {
        zip.start_file(format!("{folder}/{name}"), options)?;
        zip.write_all(&bytes)?;
    }
    Ok(zip.finish()?.into_inner())
}
