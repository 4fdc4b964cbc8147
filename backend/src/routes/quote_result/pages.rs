//! The result page's HTML for each outcome. The front end's build prerenders one page per outcome
//! (`frontend/scripts/prerender.mjs`) into `STATIC_DIR/.quote-result/`, a hidden folder the site
//! itself never serves, with slots the server fills here: `{{reason}}`, `{{email}}`,
//! `{{product_error}}`, `{{email_error}}` (the built pages write the content's messages in place
//! of the last two), and with the fields a broker adds `{{phone}}`, `{{zip}}`, `{{phone_error}}`
//! and `{{zip_error}}`; with booking on, the success page's `{{booking}}`, the booking page's
//! address with the reference to the lead (`leads::booking_ref`); the product typed is chosen by marking its `<option>` selected. Without a built front end (an API-only server, the integration tests) plain pages
//! with the same slots stand in, so a form post is still answered in words.

use std::io;
use std::path::Path;

use wasm_core::{FieldErrors, Product};

use super::outcome::{Outcome, Typed};
use crate::http::error::fields_in;
use crate::http::page_reply::either;
use crate::leads::booking_ref;
use crate::store::Language;

/// Beside the built pages, hidden: a template's empty slots are not a page to serve as it is.
const TEMPLATE_DIR: &str = ".quote-result";

/// The pages' files, one per outcome and, for an invalid post, per set of wrong fields; the
/// last, for a wrong phone number or ZIP code alone, only in a build whose form has them.
const FILES: [&str; 6] = [
    "submitted.html",
    "failed.html",
    "invalid-product.html",
    "invalid-email.html",
    "invalid-both.html",
    "invalid-contact.html",
];
/// The pages every build has.
const ALWAYS_BUILT: usize = 5;

const PLAIN_LINK: &str = r#"<p><a href="/#quote">Back to the quote form</a></p>"#;

/// The stand-ins for `FILES`, in the same order: the product's words and a way back, unstyled.
fn plain_pages() -> [String; 6] {
    let page = |title: &str, body: &str| {
        format!(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{title}</title></head><body><main><h1>{title}</h1>{body}{PLAIN_LINK}</main></body></html>"
        )
    };
    let invalid = |fields: &str| page("Please check your quote request", fields);
    [
        page(
            "Quote request submitted!",
            "<p>We&#39;ll contact you shortly with more information.</p>",
        ),
        page("Submission failed", "<p>{{reason}}</p>"),
        invalid("<p>{{product_error}}</p>"),
        invalid("<p>{{email_error}}</p>"),
        invalid("<p>{{product_error}}</p><p>{{email_error}}</p>"),
        invalid("<p>{{phone_error}}</p><p>{{zip_error}}</p>"),
    ]
}

/// The pages in each language: English in `TEMPLATE_DIR`, Spanish in its `es/` folder.
pub struct ResultPages {
    english: LanguagePages,
    spanish: LanguagePages,
}

impl ResultPages {
    pub fn load(static_dir: &Path) -> io::Result<ResultPages> {
        let dir = static_dir.join(TEMPLATE_DIR);
        Ok(ResultPages {
            english: LanguagePages::load(&dir, Language::En)?,
            spanish: LanguagePages::load(&dir.join(Language::Es.as_str()), Language::Es)?,
        })
    }

    /// The page telling `outcome` in `language`; `None` for an "invalid" outcome whose values
    /// pass the rules (not one the form post wrote).
    pub fn render(&self, outcome: &Outcome, language: Language) -> Option<String> {
        either(language, &self.english, &self.spanish).render(outcome)
    }
}

struct LanguagePages {
    /// In `FILES`' order.
    pages: [String; 6],
    /// Theirs, which the server's reason for a failure is written in too.
    language: Language,
}

impl LanguagePages {
    /// Reads the built pages in `dir`; each one missing is replaced by its plain stand-in.
    fn load(dir: &Path, language: Language) -> io::Result<LanguagePages> {
        let mut pages = plain_pages();
        let mut missing = Vec::new();
        for (n, (page, file)) in pages.iter_mut().zip(FILES).enumerate() {
            match std::fs::read_to_string(dir.join(file)) {
                Ok(built) => *page = built,
                Err(error) if error.kind() == io::ErrorKind::NotFound && n >= ALWAYS_BUILT => {}
                Err(error) if error.kind() == io::ErrorKind::NotFound => missing.push(file),
                Err(error) => return Err(error),
            }
        }
        if !missing.is_empty() {
            tracing::warn!(dir = %dir.display(), ?missing, "quote result pages not built; plain ones stand in");
        }
        Ok(LanguagePages { pages, language })
    }

    fn render(&self, outcome: &Outcome) -> Option<String> {
        let [submitted, failed, invalid_product, invalid_email, invalid_both, invalid_contact] =
            &self.pages;
        match outcome {
            Outcome::Submitted { booking } => {
                let plain = booking_ref::page(self.language).to_owned();
                let path = booking
                    .as_deref()
                    .and_then(|token| booking_ref::path(token, self.language))
                    .unwrap_or(plain);
                Some(fill_slots(submitted, |slot| {
                    (slot == "booking").then_some(path.as_str())
                }))
            }
            Outcome::Failed(failure, typed) => Some(fill(
                failed,
                typed,
                &FieldErrors::default(),
                &failure.reason(self.language),
            )),
            Outcome::Invalid(typed) => {
                let errors = fields_in(&typed.errors()?, self.language);
                let page = match (errors.product, errors.email) {
                    (Some(_), Some(_)) => invalid_both,
                    (Some(_), None) => invalid_product,
                    (None, Some(_)) => invalid_email,
                    (None, None) if errors.phone.is_some() || errors.zip.is_some() => {
                        invalid_contact
                    }
                    (None, None) => return None,
                };
                Some(fill(page, typed, &errors, ""))
            }
        }
    }
}

/// `page` with its slots filled in one pass (so a value that looks like a slot stays text) and
/// the typed product's option selected.
fn fill(page: &str, typed: &Typed, errors: &FieldErrors, reason: &str) -> String {
    let html = fill_slots(page, |slot| match slot {
        "reason" => Some(reason),
        "email" => Some(typed.email.as_str()),
        "product_error" => Some(errors.product.unwrap_or_default()),
        "email_error" => Some(errors.email.unwrap_or_default()),
        "phone" => Some(typed.phone.as_str()),
        "zip" => Some(typed.zip.as_str()),
        "phone_error" => Some(errors.phone.unwrap_or_default()),
        "zip_error" => Some(errors.zip.unwrap_or_default()),
        _ => None,
    });
    match Product::parse(&typed.product) {
        Some(product) => {
            // The value is quoted, so this cannot match a longer one; other attributes may follow.
            let option = format!(r#"<option value="{}""#, product.as_str());
            let chosen = format!(r#"<option value="{}" selected="""#, product.as_str());
            html.replacen(&option, &chosen, 1)
        }
        None => html,
    }
}

/// `page` with each `{{slot}}` that `value` knows replaced by its value, escaped, in one pass (so
/// a value that looks like a slot stays text); a slot it does not know stays as it is. The
/// opt-out pages fill theirs with it too (`routes/opt_out/pages.rs`).
pub fn fill_slots<'a>(page: &str, value: impl Fn(&str) -> Option<&'a str>) -> String {
    let mut html = String::with_capacity(page.len() + 64);
    let mut rest = page;
    while let Some(start) = rest.find("{{") {
        let Some(end) = rest[start..].find("}}").map(|end| start + end + 2) else {
            break;
        };
        match value(&rest[start + 2..end - 2]) {
            Some(value) => {
                html.push_str(&rest[..start]);
                escape_into(&mut html, value);
            }
            None => html.push_str(&rest[..end]),
        }
        rest = &rest[end..];
    }
    html.push_str(rest);
    html
}

/// `text` escaped for HTML text and attribute values alike: what the booking page writes in
/// (`routes/booking/page.rs`).
pub fn escaped(text: &str) -> String {
    let mut html = String::with_capacity(text.len());
    escape_into(&mut html, text);
    html
}

/// Text and attribute values alike (slots sit in both).
fn escape_into(html: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => html.push_str("&amp;"),
            '<' => html.push_str("&lt;"),
            '>' => html.push_str("&gt;"),
            '"' => html.push_str("&quot;"),
            '\'' => html.push_str("&#39;"),
            c => html.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routes::quote_result::outcome::Failure;

    const FORM: &str = r#"<h1>{{reason}}</h1><select><option value="">Select Product</option><option value="medicare">Medicare</option><option value="family" class="c">Family Health</option></select><p>{{product_error}}</p><input value="{{email}}"/><p>{{email_error}}</p>{{unknown}}"#;

    const CONTACT: &str = r#"<input name="phone" value="{{phone}}"/><p>{{phone_error}}</p><input name="zip" value="{{zip}}"/><p>{{zip_error}}</p>"#;

    #[test]
    fn a_wrong_phone_number_alone_gets_the_contact_page_with_what_was_typed() {
        let typed = Typed::new("family", "ana@example.com")
            .with_contact("555-155-0123", "78701")
            .refused(FieldErrors {
                phone: Some(wasm_core::quote::PHONE_MESSAGE),
                ..FieldErrors::default()
            });
        let html = pages().render(&Outcome::Invalid(typed)).unwrap();
        assert_eq!(
            html,
            r#"<input name="phone" value="555-155-0123"/><p>Please enter a valid US phone number</p><input name="zip" value="78701"/><p></p>"#
        );
    }

    fn pages_in(language: Language) -> LanguagePages {
        LanguagePages {
            pages: [
                "done".into(),
                FORM.into(),
                FORM.into(),
                FORM.into(),
                FORM.into(),
                CONTACT.into(),
            ],
            language,
        }
    }

    fn pages() -> LanguagePages {
        pages_in(Language::En)
    }

    #[test]
    fn slots_are_filled_escaped_and_the_typed_product_selected() {
        let typed = Typed::new(" family ", r#"<b>"ana"</b>{{reason}}@x"#);
        let html = pages()
            .render(&Outcome::Failed(Failure::Unavailable, typed))
            .unwrap();
        assert_eq!(
            html,
            r#"<h1>503: The service is briefly unavailable. Please try again in a few seconds.</h1><select><option value="">Select Product</option><option value="medicare">Medicare</option><option value="family" selected="" class="c">Family Health</option></select><p></p><input value="&lt;b&gt;&quot;ana&quot;&lt;/b&gt;{{reason}}@x"/><p></p>{{unknown}}"#
        );
    }

    #[test]
    fn the_reason_is_in_the_pages_language() {
        let failed = Outcome::Failed(Failure::Storage, Typed::default());
        let html = pages_in(Language::Es).render(&failed).unwrap();
        assert!(
            html.starts_with("<h1>500: No pudimos guardar su solicitud. Inténtelo de nuevo.</h1>"),
            "{html}"
        );
    }

    #[test]
    fn the_success_page_links_to_booking_with_the_leads_reference() {
        let mut pages = pages_in(Language::Es);
        pages.pages[0] = r#"<a href="{{booking}}">Book</a>"#.into();
        let with = Outcome::Submitted {
            booking: Some("lead.1.ab".into()),
        };
        assert_eq!(
            pages.render(&with).unwrap(),
            r#"<a href="/es/book?lead=lead.1.ab">Book</a>"#
        );
        let altered = Outcome::Submitted {
            booking: Some("\"><script>".into()),
        };
        assert_eq!(
            pages.render(&altered).unwrap(),
            r#"<a href="/es/book">Book</a>"#
        );
    }

    #[test]
    fn an_invalid_outcome_names_each_wrong_field() {
        let html = pages()
            .render(&Outcome::Invalid(Typed::new("dental", "ana@")))
            .unwrap();
        assert!(html.contains("<p>Please select a product</p>"), "{html}");
        assert!(html.contains("<p>Please enter a valid email address</p>"));
        assert!(html.contains(r#"value="ana@""#));
        assert!(!html.contains("selected"));
        let valid = Outcome::Invalid(Typed::new("family", "ana@example.com"));
        assert_eq!(pages().render(&valid), None);
    }

    #[test]
    fn missing_pages_have_plain_stand_ins() {
        let dir = tempfile::tempdir().unwrap();
        let pages = ResultPages::load(dir.path()).unwrap();
        let html = pages
            .render(
                &Outcome::Invalid(Typed::new("family", "nope")),
                Language::En,
            )
            .unwrap();
        assert!(html.contains("<p>Please enter a valid email address</p>"));
        assert!(html.contains(r##"href="/#quote""##));
        assert!(pages
            .render(&Outcome::Submitted { booking: None }, Language::En)
            .unwrap()
            .contains("Quote request submitted!"));
    }

    #[test]
    fn each_language_has_its_own_pages() {
        let dir = tempfile::tempdir().unwrap();
        let spanish = dir.path().join(TEMPLATE_DIR).join("es");
        std::fs::create_dir_all(&spanish).unwrap();
        std::fs::write(spanish.join("submitted.html"), "¡Enviada!").unwrap();
        let pages = ResultPages::load(dir.path()).unwrap();
        let submitted = |language| {
            pages
                .render(&Outcome::Submitted { booking: None }, language)
                .unwrap()
        };
        assert_eq!(submitted(Language::Es), "¡Enviada!");
        assert!(submitted(Language::En).contains("Quote request submitted!"));
    }
}
