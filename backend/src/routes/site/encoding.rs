use warp::http::{header, HeaderMap};

/// The compressed form of a file to send, chosen from `Accept-Encoding`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

impl Encoding {
    /// Prefers brotli (smaller) over gzip; ignores q-values other than an explicit `q=0`.
    pub fn choose(headers: &HeaderMap, has_brotli: bool, has_gzip: bool) -> Encoding {
        let accepted = |name: &str| {
            headers
                .get_all(header::ACCEPT_ENCODING)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .any(|v| {
                    v.split(',').any(|item| {
                        let mut parts = item.split(';').map(str::trim);
                        parts
                            .next()
                            .is_some_and(|coding| coding.eq_ignore_ascii_case(name))
                            && !parts.any(|p| p.replace(' ', "") == "q=0")
                    })
                })
        };
        if has_brotli && accepted("br") {
            Encoding::Brotli
        } else if has_gzip && accepted("gzip") {
            Encoding::Gzip
        } else {
            Encoding::Identity
        }
    }

    pub fn header_value(self) -> Option<&'static str> {
        match self {
            Encoding::Brotli => Some("br"),
            Encoding::Gzip => Some("gzip"),
            Encoding::Identity => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_ENCODING, value.parse().unwrap());
        headers
    }

    #[test]
    fn prefers_brotli_then_gzip_then_identity() {
        assert_eq!(
            Encoding::choose(&with("gzip, deflate, br"), true, true),
            Encoding::Brotli
        );
        assert_eq!(
            Encoding::choose(&with("gzip, br;q=0"), true, true),
            Encoding::Gzip
        );
        assert_eq!(
            Encoding::choose(&with("br"), false, true),
            Encoding::Identity
        );
        assert_eq!(
            Encoding::choose(&HeaderMap::new(), true, true),
            Encoding::Identity
        );
    }
}
