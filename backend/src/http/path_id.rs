//! An id taken from a request's path. Warp hands a path segment over as it was sent, so an id
//! holding reserved characters (a call id `a/b c%`, sent as `a%2Fb%20c%25`) is decoded before it
//! is looked up; one that does not decode to UTF-8 names nothing, and its route answers 404.

use std::str::{FromStr, Utf8Error};

use percent_encoding::percent_decode_str;

/// A path segment, percent-decoded: `warp::path!(... / PathId)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathId(pub String);

impl FromStr for PathId {
    type Err = Utf8Error;

    fn from_str(segment: &str) -> Result<PathId, Utf8Error> {
        let decoded = percent_decode_str(segment).decode_utf8()?;
        Ok(PathId(decoded.into_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_characters_are_decoded() {
        assert_eq!(
            "a%2Fb%20c%25".parse::<PathId>().unwrap(),
            PathId("a/b c%".into())
        );
        assert_eq!("call-1".parse::<PathId>().unwrap(), PathId("call-1".into()));
    }

    #[test]
    fn a_segment_that_is_not_utf_8_names_nothing() {
        assert!("%FF".parse::<PathId>().is_err());
    }
}
