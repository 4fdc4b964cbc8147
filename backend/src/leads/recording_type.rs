//! The type a call's recording is kept and served as: one of a fixed list of audio types, or
//! `application/octet-stream`. The type comes from the recording's host, and a browser given
//! `text/html`, `image/svg+xml` or a script type from the site's own origin would run what it
//! holds with the broker's session.

/// The audio types the provider records in (WAV, MP3, FLAC) and the others a browser plays.
const AUDIO_TYPES: [&str; 11] = [
    "audio/wav",
    "audio/x-wav",
    "audio/wave",
    "audio/vnd.wave",
    "audio/mpeg",
    "audio/flac",
    "audio/x-flac",
    "audio/ogg",
    "audio/webm",
    "audio/mp4",
    "audio/aac",
];

/// Bytes a browser neither renders nor runs.
pub const OPAQUE: &str = "application/octet-stream";

/// `given`'s type (without parameters) when it is on the list, else `OPAQUE`.
pub fn audio_type(given: &str) -> &'static str {
    let essence = given.split(';').next().unwrap_or_default().trim();
    AUDIO_TYPES
        .into_iter()
        .find(|known| known.eq_ignore_ascii_case(essence))
        .unwrap_or(OPAQUE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audio_is_kept_and_anything_else_is_opaque() {
        assert_eq!(audio_type("audio/wav"), "audio/wav");
        assert_eq!(audio_type("Audio/MPEG; charset=binary"), "audio/mpeg");
        assert_eq!(audio_type(" audio/flac "), "audio/flac");
        for other in [
            "text/html",
            "text/html; charset=utf-8",
            "image/svg+xml",
            "application/javascript",
            "text/javascript",
            "application/xhtml+xml",
            "text/xml",
            "video/mp4",
            "audio/wav, text/html",
            "",
        ] {
            assert_eq!(audio_type(other), OPAQUE, "{other}");
        }
    }
}
