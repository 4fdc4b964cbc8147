use serde::Serialize;

use super::stored_names::stored_names;

/// The language of the page a lead came from (`/` or `/es/`), which the broker answers in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    #[default]
    En,
    Es,
}

// `parse`: anything but `en` or `es` is `None` (a client's unknown language counts as English).
stored_names!(Language, parse, [En => "en", Es => "es"]);

impl Language {
    /// The language's name for the broker (the e-mail, the inbox).
    pub fn label(self) -> &'static str {
        match self {
            Language::En => "English",
            Language::Es => "Spanish",
        }
    }
}
