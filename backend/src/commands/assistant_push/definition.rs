//! The assistant's definition, `assistant.yaml` in the content folder: what the broker chooses
//! (name, first words, model, voice, transcriber, call limits, recording). The prompt is not in it:
//! it is written from the site's content (`prompt.rs`).

use std::path::Path;

use serde::Deserialize;

use super::yaml_file;

pub const FILE: &str = "assistant.yaml";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AssistantDefinition {
    pub name: String,
    /// `{broker}` stands for the broker's name.
    pub first_message: String,
    /// Said after the first message when `recording` is on.
    pub recording_notice: String,
    pub recording: bool,
    pub end_call_message: String,
    pub end_call_phrases: Vec<String>,
    pub max_duration_seconds: u32,
    pub silence_timeout_seconds: u32,
    pub model: ModelChoice,
    pub voice: VoiceChoice,
    pub transcriber: TranscriberChoice,
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

    /// The first words, with the broker's name, and the recording notice when calls are recorded.
    pub fn first_message(&self, broker: &str) -> String {
        let greeting = self.first_message.replace("{broker}", broker);
        if self.recording {
            format!("{greeting} {}", self.recording_notice)
        } else {
            greeting
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn example() -> AssistantDefinition {
        let content = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../content");
        AssistantDefinition::load(&content).unwrap()
    }

    #[test]
    fn the_example_understands_spanish_and_english() {
        let example = example();
        assert_eq!(example.name, "Clearharbor Health assistant");
        assert_eq!(example.transcriber.language, "multi");
        assert!(example.max_duration_seconds > 0 && example.silence_timeout_seconds > 0);
    }

    #[test]
    fn the_first_message_names_the_broker_and_says_when_the_call_is_recorded() {
        let mut definition = example();
        definition.recording = false;
        let quiet = definition.first_message("Ana Seguros");
        assert!(
            quiet.contains("Ana Seguros") && !quiet.contains("{broker}"),
            "{quiet}"
        );
        assert!(!quiet.contains(&definition.recording_notice));
        definition.recording = true;
        assert_eq!(
            definition.first_message("Ana Seguros"),
            format!("{quiet} {}", definition.recording_notice)
        );
    }

    #[test]
    fn an_unknown_key_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let text = std::fs::read_to_string(
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../content/assistant.yaml"),
        )
        .unwrap()
        .replace("  voiceId:", "  voice_id:");
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
