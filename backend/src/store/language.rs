use serde::Serialize;

/// The language of the page a lead came from (`/` or `/es/`), which the broker answers in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    #[default]
    En,
    Es,
}

impl Language {
    pub fn as_str(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Es => "es",
        }
    }

    /// The language's name for the broker (the e-mail, the inbox).
    pub fn label(self) -> &'static str {
        match self {
            Language::En => "English",
            Language::Es => "Spanish",
        }
    }

    /// `en` or `es`; anything else is `None` (a client's unknown language counts as English).
    pub fn parse(text: &str) -> Option<Language> {
        [Language::En, Language::Es]
            .into_iter()
            .find(|language| language.as_str() == text)
    }
}
