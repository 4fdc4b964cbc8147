//! How every setting is read from the environment: a value is trimmed, and a blank one is unset
//! (so `VAR=` in a unit file switches a part off or restores its default). The one exception,
//! `TRUSTED_PROXIES` (blank trusts no proxy), reads its raw value (`raw`).

use std::str::FromStr;

use secrecy::SecretString;
use url::Url;

use super::error::ConfigError;

pub struct Env<'a> {
    get: &'a dyn Fn(&str) -> Option<String>,
}

impl<'a> Env<'a> {
    pub fn new(get: &'a dyn Fn(&str) -> Option<String>) -> Env<'a> {
        Env { get }
    }

    /// The value as set, untrimmed, `None` only when unset.
    pub fn raw(&self, variable: &str) -> Option<String> {
        (self.get)(variable)
    }

    /// The trimmed value; `None` when unset or blank.
    pub fn value(&self, variable: &str) -> Option<String> {
        self.raw(variable)
            .map(|value| value.trim().to_owned())
            .filter(|value| !value.is_empty())
    }

    /// A value that must never be shown (`Debug` prints it redacted).
    pub fn secret(&self, variable: &str) -> Option<SecretString> {
        self.value(variable).map(SecretString::from)
    }

    /// The value parsed as `T`; `expected` is the form the start-up error names.
    pub fn parse<T: FromStr>(
        &self,
        variable: &'static str,
        expected: &str,
    ) -> Result<Option<T>, ConfigError> {
        self.value(variable)
            .map(|value| {
                value
                    .parse()
                    .map_err(|_| ConfigError::new(variable, value, "cannot be read", expected))
            })
            .transpose()
    }

    /// The value parsed as `T`, refused with `problem` (the error showing it as parsed) when
    /// `allowed` says it is out of bounds.
    pub fn parse_within<T: FromStr + ToString>(
        &self,
        variable: &'static str,
        expected: &str,
        problem: &str,
        allowed: impl Fn(&T) -> bool,
    ) -> Result<Option<T>, ConfigError> {
        match self.parse(variable, expected)? {
            Some(n) if !allowed(&n) => {
                Err(ConfigError::new(variable, n.to_string(), problem, expected))
            }
            n => Ok(n),
        }
    }

    /// A variable no longer read: when it is still set, start-up stops with one line naming
    /// `replacement`, so a setting that would now silently do nothing is never left in place.
    pub fn retired(
        &self,
        variable: &'static str,
        replacement: impl Into<String>,
    ) -> Result<(), ConfigError> {
        match self.value(variable) {
            Some(value) => Err(ConfigError::new(
                variable,
                value,
                "is no longer read",
                replacement,
            )),
            None => Ok(()),
        }
    }

    /// An `http://` or `https://` URL with a host, as the `url` crate reads it.
    pub fn http_url(
        &self,
        variable: &'static str,
        expected: &str,
    ) -> Result<Option<Url>, ConfigError> {
        self.value(variable)
            .map(|value| {
                Url::parse(&value)
                    .ok()
                    .filter(|url| {
                        matches!(url.scheme(), "http" | "https")
                            && url.host_str().is_some_and(|host| !host.is_empty())
                    })
                    .ok_or_else(|| {
                        ConfigError::new(variable, value, "has no http(s) host", expected)
                    })
            })
            .transpose()
    }
}

/// The environment a test describes, as `Env` reads it.
#[cfg(test)]
pub(crate) fn lookup<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
    move |k| {
        vars.iter()
            .find(|(key, _)| *key == k)
            .map(|(_, v)| v.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_trimmed_and_blank_is_unset() {
        let vars = lookup(&[("A", " x "), ("B", "  "), ("C", "")]);
        let env = Env::new(&vars);
        assert_eq!(env.value("A").as_deref(), Some("x"));
        assert_eq!(env.value("B"), None);
        assert_eq!(env.value("C"), None);
        assert_eq!(env.value("D"), None);
        assert_eq!(env.raw("B").as_deref(), Some("  "));
    }

    #[test]
    fn a_retired_variable_set_names_its_replacement_and_unset_or_blank_passes() {
        let vars = lookup(&[("OLD", " 1 "), ("GONE", " ")]);
        let env = Env::new(&vars);
        assert_eq!(
            env.retired("OLD", "NEW, read the same way")
                .unwrap_err()
                .to_string(),
            "OLD=\"1\" is no longer read; expected NEW, read the same way"
        );
        assert_eq!(env.retired("GONE", "NEW"), Ok(()));
        assert_eq!(env.retired("NEVER_SET", "NEW"), Ok(()));
    }

    #[test]
    fn parsed_values_and_urls_fail_as_one_line() {
        let vars = lookup(&[
            ("N", "ten"),
            ("U", "ftp://x"),
            ("H", " https://x.example/a "),
        ]);
        let env = Env::new(&vars);
        assert_eq!(
            env.parse::<u32>("N", "a whole number")
                .unwrap_err()
                .to_string(),
            "N=\"ten\" cannot be read; expected a whole number"
        );
        assert_eq!(env.parse::<u32>("M", "a whole number"), Ok(None));
        assert_eq!(
            env.http_url("U", "an http(s) URL").unwrap_err().to_string(),
            "U=\"ftp://x\" has no http(s) host; expected an http(s) URL"
        );
        let trimmed = env.http_url("H", "").unwrap().unwrap();
        assert_eq!(trimmed.as_str(), "https://x.example/a");
        for bad in ["https://", "not a url", "x.example"] {
            let pairs = [("U", bad)];
            let vars = lookup(&pairs);
            assert!(Env::new(&vars).http_url("U", "").is_err(), "{bad}");
        }
    }
}
