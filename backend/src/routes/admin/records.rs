//! `/api/admin/quote-requests/{id}/records`: the lead's audit copy (`leads::audit_copy`) as a
//! ZIP the broker hands an auditor, the files stored as they are (the recording is compressed
//! already, the rest is small).

use std::io::{Cursor, Write};
use std::sync::Arc;

use warp::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use warp::http::HeaderValue;
use warp::reply::Response;
use warp::Rejection;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use crate::http::error::ApiError;
use crate::leads::audit_copy::{audit_copy, AuditCopy};
use crate::store::QuoteStore;

/// The caller is already checked.
pub async fn download(store: Arc<dyn QuoteStore>, id: String) -> Result<Response, Rejection> {
    let copy = audit_copy(store.as_ref(), &id).await.map_err(|error| {
        tracing::error!(%error, "reading a lead's records failed");
        warp::reject::custom(ApiError::from(error))
    })?;
    let Some(copy) = copy else {
        return Err(warp::reject::custom(ApiError::NotFound));
    };
    let archive = zipped(&id, copy).map_err(|error| {
        tracing::error!(%error, "writing a lead's records failed");
        warp::reject::custom(ApiError::Storage)
    })?;
    let mut response = Response::new(archive.into());
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/zip"));
    // The id is a lowercase UUID, so the name needs no quoting beyond its quotes.
    if let Ok(disposition) =
        HeaderValue::from_str(&format!("attachment; filename=\"lead-{id}-records.zip\""))
    {
        headers.insert(CONTENT_DISPOSITION, disposition);
    }
    Ok(response)
}

/// The files in a folder named for the lead, so unpacking the copy never mixes two leads.
fn zipped(id: &str, copy: AuditCopy) -> zip::result::ZipResult<Vec<u8>> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Stored);
    for (name, bytes) in copy.files {
        zip.start_file(format!("lead-{id}/{name}"), options)?;
        zip.write_all(&bytes)?;
    }
    Ok(zip.finish()?.into_inner())
}
