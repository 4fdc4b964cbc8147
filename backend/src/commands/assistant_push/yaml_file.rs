//! Reads a YAML file of the content folder into a typed structure, a mistake reported on one line
//! that names the file and the key (`content/assistant.yaml: model.provider: invalid type ...`).

use std::path::Path;

use serde::de::DeserializeOwned;

pub fn read<T: DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("{}: cannot be read: {error}", path.display()))?;
    parse(path, &text)
}

pub fn parse<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, String> {
    // The parser's message starts with the key's path (`model.provider: ...`).
    serde_norway::from_str(text).map_err(|error| {
        let problem = error.to_string().replace('\n', " ");
        format!("{}: {problem}", path.display())
    })
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Outer {
        inner: Inner,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Inner {
        seconds: u32,
    }

    fn error(text: &str) -> String {
        parse::<Outer>(Path::new("content/x.yaml"), text).unwrap_err()
    }

    #[test]
    fn a_valid_file_is_read() {
        let outer: Outer = parse(Path::new("x.yaml"), "inner: { seconds: 5 }").unwrap();
        assert_eq!(outer.inner.seconds, 5);
    }

    #[test]
    fn a_mistake_names_the_file_and_the_key_on_one_line() {
        let wrong_type = error("inner:\n  seconds: soon\n");
        assert!(
            wrong_type.starts_with("content/x.yaml: inner.seconds: invalid type: string \"soon\""),
            "{wrong_type}"
        );
        let unknown = error("inner:\n  seconds: 1\n  minutes: 2\n");
        assert!(
            unknown.starts_with("content/x.yaml: inner: unknown field `minutes`"),
            "{unknown}"
        );
        assert!(error("{}").starts_with("content/x.yaml: missing field `inner`"));
        for message in [wrong_type, unknown, error("inner: [\n")] {
            assert!(!message.contains('\n'), "{message}");
        }
    }

    #[test]
    fn a_missing_file_is_named() {
        let missing = read::<Outer>(Path::new("/nonexistent/assistant.yaml")).unwrap_err();
        assert!(
            missing.starts_with("/nonexistent/assistant.yaml: cannot be read:"),
            "{missing}"
        );
    }
}
