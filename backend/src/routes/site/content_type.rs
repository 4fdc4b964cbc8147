//! The Content-Type of a file the site serves: `mime_guess` by extension, text as UTF-8 (the
//! build writes UTF-8).

use mime_guess::mime;

/// Where `mime_guess` follows an older registration than browsers and tools expect:
/// JavaScript modules are `text/javascript` (RFC 9239), source maps are JSON, XML is
/// `application/xml` (RFC 7303 prefers it to `text/xml`).
const CURRENT_TYPES: [(&str, &str); 3] = [
    ("mjs", "text/javascript"),
    ("map", "application/json"),
    ("xml", "application/xml"),
];

pub fn for_path(path: &str) -> String {
    let guess = mime_guess::from_path(path).first_or_octet_stream();
    let extension = path
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase());
    let current = CURRENT_TYPES
        .iter()
        .find(|(ext, _)| Some(*ext) == extension.as_deref());
    let essence = current.map_or(guess.essence_str(), |(_, essence)| essence);
    if essence.starts_with(mime::TEXT.as_str()) {
        format!("{essence}; charset=utf-8")
    } else {
        essence.to_owned()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_and_unknown_extensions() {
        assert_eq!(
            super::for_path("/assets/app-1a2b.JS"),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(
            super::for_path("/assets/worker.mjs"),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(super::for_path("/index.html"), "text/html; charset=utf-8");
        assert_eq!(super::for_path("/assets/app.css.map"), "application/json");
        assert_eq!(super::for_path("/assets/core_bg.wasm"), "application/wasm");
        assert_eq!(super::for_path("/icon.svg"), "image/svg+xml");
        assert_eq!(super::for_path("/LICENSE"), "application/octet-stream");
    }
}
