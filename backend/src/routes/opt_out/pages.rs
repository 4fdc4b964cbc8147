//! The opt-out pages' HTML. The front end's build prerenders one page per outcome
//! (`frontend/scripts/prerender.mjs`, `OptOutPage.tsx`) into `STATIC_DIR/.opt-out/` (Spanish in
//! its `es/` folder), a hidden folder the site never serves, with the slots `{{email}}` and
//! `{{phone}}` for what was typed, which the server fills here. Without a built front end (an
//! API-only server, the integration tests) plain pages stand in, in each language, so a visitor
//! is still answered in words.

use std::io;
use std::path::Path;

use crate::http::page_reply::either;
use crate::routes::quote_result::fill_slots;
use crate::store::Language;

/// Beside the built pages, hidden: a template's empty slots are not a page to serve as it is.
const TEMPLATE_DIR: &str = ".opt-out";

/// What a page says besides the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// The form, empty.
    Form,
    /// Neither an e-mail address nor a phone number.
    Missing,
    InvalidEmail,
    InvalidPhone,
    InvalidBoth,
    /// Not stored now: the rate limit or the database.
    Failed,
    /// Posted from another site's page: nothing taken, the form shown to send again.
    AnotherSite,
    /// The confirmation.
    Done,
}

impl Page {
    /// Each page, with its built file (as `OPT_OUT_VARIANTS` in `OptOutPage.tsx` names it) and
    /// its stand-in's message in English and in Spanish.
    const ALL: [(Page, &'static str, &'static str, &'static str); 8] = [
        (Page::Form, "form.html", "", ""),
        (
            Page::Missing,
            "missing.html",
            "Please enter your e-mail address or your phone number.",
            "Escriba su correo electrónico o su número de teléfono.",
        ),
        (
            Page::InvalidEmail,
            "invalid-email.html",
            "Please enter a valid email address.",
            "Escriba un correo electrónico válido.",
        ),
        (
            Page::InvalidPhone,
            "invalid-phone.html",
            "Please enter a valid US phone number.",
            "Escriba un número de teléfono válido de EE. UU.",
        ),
        (
            Page::InvalidBoth,
            "invalid-both.html",
            "Please enter a valid email address and a valid US phone number.",
            "Escriba un correo electrónico y un número de teléfono de EE. UU. válidos.",
        ),
        (
            Page::Failed,
            "failed.html",
            "We could not take your request just now. Please try again in a few minutes.",
            "No pudimos recibir su solicitud en este momento. Inténtelo de nuevo en unos minutos.",
        ),
        (
            Page::AnotherSite,
            "another-site.html",
            "This request was sent from another website, so it was not taken. Send the form below to be put on our list.",
            "Esta solicitud se envió desde otro sitio web, así que no se aceptó. Envíe el formulario de abajo para entrar en nuestra lista.",
        ),
        (Page::Done, "done.html", "", ""),
    ];

    /// The plain stand-in in `language`, with `message` and the same slots as a built page.
    fn plain(self, language: Language, message: &str) -> String {
        let (title, done, email, phone, submit) = match language {
            Language::En => (
                "Do not contact me",
                "You are on our do-not-contact list. We will not contact you at the e-mail address or phone number you gave.",
                "Email address",
                "Phone number",
                "Do not contact me",
            ),
            Language::Es => (
                "No me contacten",
                "Está en nuestra lista de no contactar. No le contactaremos en el correo electrónico ni en el número de teléfono que nos dio.",
                "Correo electrónico",
                "Número de teléfono",
                "No me contacten",
            ),
        };
        let lang = language.as_str();
        let body = if self == Page::Done {
            format!("<p>{done}</p>")
        } else {
            let alert = if message.is_empty() {
                String::new()
            } else {
                format!("<p role=\"alert\">{message}</p>")
            };
            format!(
                "{alert}<form method=\"post\" action=\"{action}\">\
                 <input type=\"hidden\" name=\"lang\" value=\"{lang}\">\
                 <p><label>{email} <input type=\"email\" name=\"email\" value=\"{{{{email}}}}\"></label></p>\
                 <p><label>{phone} <input type=\"tel\" name=\"phone\" value=\"{{{{phone}}}}\"></label></p>\
                 <p><button type=\"submit\">{submit}</button></p></form>",
                action = super::form_path(language),
            )
        };
        format!(
            "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <meta name=\"robots\" content=\"noindex\">\
             <title>{title}</title></head><body><main><h1>{title}</h1>{body}</main></body></html>"
        )
    }
}

/// What the visitor typed, shown again in the form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Typed {
    pub email: String,
    pub phone: String,
}

/// The pages in each language.
pub struct OptOutPages {
    /// `Page::ALL`'s order, English then Spanish.
    english: Vec<String>,
    spanish: Vec<String>,
}

impl OptOutPages {
    /// Reads the built pages under `static_dir`; each one missing is replaced by its stand-in.
    pub fn load(static_dir: &Path) -> io::Result<OptOutPages> {
        let dir = static_dir.join(TEMPLATE_DIR);
        Ok(OptOutPages {
            english: load_language(&dir, Language::En)?,
            spanish: load_language(&dir.join(Language::Es.as_str()), Language::Es)?,
        })
    }

    /// `page` in `language` with `typed` in its form.
    pub fn render(&self, page: Page, language: Language, typed: &Typed) -> String {
        let pages = either(language, &self.english, &self.spanish);
        let at = Page::ALL.iter().position(|(p, ..)| *p == page).unwrap_or(0);
        fill_slots(&pages[at], |slot| match slot {
            "email" => Some(typed.email.as_str()),
            "phone" => Some(typed.phone.as_str()),
            _ => None,
        })
    }
}

fn load_language(dir: &Path, language: Language) -> io::Result<Vec<String>> {
    let mut missing = Vec::new();
    let mut pages = Vec::with_capacity(Page::ALL.len());
    for (page, file, english, spanish) in Page::ALL {
        match std::fs::read_to_string(dir.join(file)) {
            Ok(built) => pages.push(built),
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                missing.push(file);
                pages.push(page.plain(language, either(language, english, spanish)));
            }
            Err(error) => return Err(error),
        }
    }
    if !missing.is_empty() {
        tracing::warn!(dir = %dir.display(), ?missing, "opt-out pages not built; plain ones stand in");
    }
    Ok(pages)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stand_ins_keep_what_was_typed_escaped_in_the_pages_language() {
        let dir = tempfile::tempdir().unwrap();
        let pages = OptOutPages::load(dir.path()).unwrap();
        let typed = Typed {
            email: r#"ana"><b>@x"#.into(),
            phone: "555".into(),
        };
        let html = pages.render(Page::InvalidBoth, Language::Es, &typed);
        assert!(html.contains(r#"<html lang="es">"#), "{html}");
        assert!(html.contains("Escriba un correo electrónico y un número"));
        assert!(
            html.contains(r#"value="ana&quot;&gt;&lt;b&gt;@x""#),
            "{html}"
        );
        assert!(html.contains(r#"action="/es/opt-out""#));
        let done = pages.render(Page::Done, Language::En, &Typed::default());
        assert!(done.contains("You are on our do-not-contact list"));
        assert!(!done.contains("<form"));
    }

    #[test]
    fn built_pages_are_read_per_language() {
        let dir = tempfile::tempdir().unwrap();
        let spanish = dir.path().join(TEMPLATE_DIR).join("es");
        std::fs::create_dir_all(&spanish).unwrap();
        std::fs::write(
            spanish.join("missing.html"),
            "<p>{{email}}|{{phone}}|{{x}}</p>",
        )
        .unwrap();
        let pages = OptOutPages::load(dir.path()).unwrap();
        let typed = Typed {
            email: "{{phone}}".into(),
            phone: "+1".into(),
        };
        assert_eq!(
            pages.render(Page::Missing, Language::Es, &typed),
            "<p>{{phone}}|+1|{{x}}</p>"
        );
        assert!(pages
            .render(Page::Missing, Language::En, &typed)
            .contains("Please enter your e-mail address or your phone number."));
    }
}
