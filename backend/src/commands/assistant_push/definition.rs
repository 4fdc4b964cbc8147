//! The assistant's definition, `assistant.yaml` in the content folder: what the broker chooses
//! (name, the words of the first message in each language, model, voice, transcriber, call limits,
//! recording). The prompt is not in it: it is written from the site's content (`prompt.rs`); the
//! first message is put together in `first_message.rs`.

use std::path::Path;

use serde::Deserialize;

use super::yaml_file;
use crate::store::Language;

pub const FILE: &str = "assistant.yaml";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AssistantDefinition {
    pub name: String,
    /// The first message's opening words; `{broker}` stands for the broker's name.
    pub greeting: InEachLanguage,
    /// Said in the first message when `recording` is on.
    pub recording_notice: InEachLanguage,
    /// The first message's last words, after the notices.
    pub question: InEachLanguage,
    /// Whether calls are recorded: on unless the file says `false`.
    #[serde(default = "recorded")]
    pub recording: bool,
    pub end_call_message: String,
    pub end_call_phrases: Vec<String>,
    pub max_duration_seconds: u32,
    pub silence_timeout_seconds: u32,
    pub model: ModelChoice,
    pub voice: VoiceChoice,
    pub transcriber: TranscriberChoice,
}

/// A text in each language of the site: `en` for the pages at `/`, `es` for those at `/es/`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InEachLanguage {
    en: String,
    es: String,
}

impl InEachLanguage {
    pub fn get(&self, language: Language) -> &str {
        match language {
            Language::En => &self.en,
            Language::Es => &self.es,
        }
    }
}

fn recorded() -> bool {
    true
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ModelChoice {
    pub provider: String,
    pub model: String,
    pub temperature: Option<f32>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VoiceChoice {
    pub provider: String,
    pub voice_id: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TranscriberChoice {
    pub provider: String,
    pub model: String,
    pub language: String,
}

impl AssistantDefinition {
    pub fn load(content_dir: &Path) -> Result<AssistantDefinition, String> {
        yaml_file::read(&content_dir.join(FILE))
    }
}

#[cfg(test)]
mod tests {
    use super::super::site_content::example_dir as content;
    use super::*;

    fn example() -> AssistantDefinition {
        AssistantDefinition::load(&content()).unwrap()
    }

    /// The example's `assistant.yaml`, as text.
    fn example_text() -> String {
        std::fs::read_to_string(content().join(FILE)).unwrap()
    }

    #[test]
    fn the_example_understands_spanish_and_english() {
        let example = example();
        assert_eq!(example.name, "Clearharbor Health assistant");
        assert_eq!(example.transcriber.language, "multi");
        assert!(example.max_duration_seconds > 0 && example.silence_timeout_seconds > 0);
    }

    #[test]
    fn the_example_records_calls_and_has_its_words_in_english_and_spanish() {
        let example = example();
        assert!(example.recording);
        assert!(example.greeting.get(Language::En).starts_with("Hello"));
        assert!(example.greeting.get(Language::Es).starts_with("Hola"));
        let notice = &example.recording_notice;
        assert!(notice.get(Language::En).contains("recorded"));
        assert!(notice.get(Language::Es).contains("grabando"));
    }

    #[test]
    fn recording_is_on_unless_the_file_turns_it_off() {
        let dir = tempfile::tempdir().unwrap();
        let text = example_text();
        assert!(text.contains("\nrecording: true\n"));
        let write = |text: String| {
            std::fs::write(dir.path().join(FILE), text).unwrap();
            AssistantDefinition::load(dir.path()).unwrap().recording
        };
        assert!(write(text.replace("\nrecording: true\n", "\n")));
        assert!(!write(
            text.replace("\nrecording: true\n", "\nrecording: false\n")
        ));
    }

    #[test]
    fn a_text_in_one_language_only_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let text = example_text();
        let without_spanish = text
            .lines()
            .filter(|line| !line.starts_with("  es: ¿"))
            .collect::<Vec<_>>()
            .join("\n");
        std::fs::write(dir.path().join(FILE), without_spanish).unwrap();
        let error = AssistantDefinition::load(dir.path()).unwrap_err();
        assert!(error.contains("question: missing field `es`"), "{error}");
    }

    #[test]
    fn an_unknown_key_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let text = example_text().replace("  voiceId:", "  voice_id:");
        std::fs::write(dir.path().join(FILE), text).unwrap();
        let error = AssistantDefinition::load(dir.path()).unwrap_err();
        let file = dir.path().join(FILE);
        assert!(
            error.starts_with(&format!(
                "{}: voice: unknown field `voice_id`",
                file.display()
            )),
            "{error}"
        );
    }
}
