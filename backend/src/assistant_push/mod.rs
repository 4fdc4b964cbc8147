//! `backend assistant push`: the voice assistant as code. Its definition (`assistant.yaml`) and the
//! site's content (`site.yaml`, for the prompt) from the content folder become the provider's
//! `request_quote` tool and assistant, created or updated in place.

mod definition;
mod prompt;
mod site_content;
mod yaml_file;
