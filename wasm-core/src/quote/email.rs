//! What "a valid e-mail address" means here, for the browser and the server alike.
//!
//! The rule is the WHATWG HTML "valid e-mail address" (the one browsers apply to
//! `<input type=email>`), after trimming surrounding white space, plus three limits a mail
//! system imposes anyway:
//!
//! * local part: one or more of `A-Z a-z 0-9 . ! # $ % & ' * + / = ? ^ _ ` { | } ~ -`,
//!   at most 64 bytes (RFC 5321);
//! * exactly one `@`;
//! * domain: dot-separated labels of 1 to 63 ASCII letters, digits and hyphens, neither starting
//!   nor ending with a hyphen, and at least two labels (`ana@localhost` cannot receive mail from
//!   the internet, so it is almost always a typo for a real domain);
//! * the whole address at most 254 bytes (RFC 5321 path limit).
//!
//! Quoted local parts, comments, IP-literal domains and non-ASCII characters are rejected, as
//! browsers reject them.

/// Longest address accepted, in bytes (RFC 5321).
pub const MAX_EMAIL_LEN: usize = 254;
/// Longest local part accepted, in bytes (RFC 5321).
pub const MAX_LOCAL_PART_LEN: usize = 64;
/// Longest domain label accepted, in bytes (RFC 1035).
const MAX_LABEL_LEN: usize = 63;
/// Punctuation allowed in a local part besides letters and digits (WHATWG).
const LOCAL_PUNCTUATION: &[u8] = b".!#$%&'*+/=?^_`{|}~-";

/// A trimmed e-mail address that satisfies the rule above.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Option<Email> {
        let address = raw.trim();
        is_valid(address).then(|| Email(address.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn is_valid(address: &str) -> bool {
    if address.len() > MAX_EMAIL_LEN {
        return false;
    }
    match address.split_once('@') {
        Some((local, domain)) => is_valid_local_part(local) && is_valid_domain(domain),
        None => false,
    }
}

fn is_valid_local_part(local: &str) -> bool {
    !local.is_empty()
        && local.len() <= MAX_LOCAL_PART_LEN
        && local
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || LOCAL_PUNCTUATION.contains(&b))
}

fn is_valid_domain(domain: &str) -> bool {
    let mut labels = 0;
    for label in domain.split('.') {
        if !is_valid_label(label) {
            return false;
        }
        labels += 1;
    }
    labels >= 2
}

fn is_valid_label(label: &str) -> bool {
    let bytes = label.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            bytes.len() <= MAX_LABEL_LEN
                && first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> bool {
        Email::parse(s).is_some()
    }

    #[test]
    fn accepts_ordinary_addresses() {
        assert!(ok("ana@example.com"));
        assert!(ok("first.last+tag@mail.example.co.uk"));
        assert!(ok("o'brien@example.ie"));
        assert!(ok("x@a-b.io"));
    }

    #[test]
    fn rejects_structural_mistakes() {
        for bad in [
            "",
            "plain",
            "@example.com",
            "ana@",
            "ana@@example.com",
            "a@b@example.com",
            "ana@example",
            "ana@.example.com",
            "ana@example..com",
            "ana@-example.com",
            "ana@example-.com",
            "ana @example.com",
            "ana@exa mple.com",
            "\"ana\"@example.com",
            "ana@[127.0.0.1]",
            "añа@example.com",
            "ana@exämple.com",
        ] {
            assert!(!ok(bad), "{bad:?} must be rejected");
        }
    }

    #[test]
    fn enforces_length_limits_exactly() {
        let local64 = "a".repeat(MAX_LOCAL_PART_LEN);
        assert!(ok(&format!("{local64}@example.com")));
        assert!(!ok(&format!("a{local64}@example.com")));

        let label63 = "b".repeat(MAX_LABEL_LEN);
        assert!(ok(&format!("a@{label63}.com")));
        assert!(!ok(&format!("a@b{label63}.com")));

        let domain = format!("{0}.{0}.{0}.{1}.com", "c".repeat(60), "d".repeat(58));
        let longest = format!("{}@{domain}", "e".repeat(MAX_EMAIL_LEN - 1 - domain.len()));
        assert_eq!(longest.len(), MAX_EMAIL_LEN);
        assert!(ok(&longest));
        assert!(!ok(&format!("e{longest}")));
    }

    #[test]
    fn trims_surrounding_white_space_only() {
        assert_eq!(
            Email::parse("\n ana@example.com \t").unwrap().as_str(),
            "ana@example.com"
        );
    }
}
