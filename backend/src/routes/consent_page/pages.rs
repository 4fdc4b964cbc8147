//! The consent page's HTML in each language: the form (the exact text, the number's last four
//! digits, an unticked box (not `required`: the server says what is missing, in the page's language), a button; with or without the error of a post without the box), and
//! the answers (given, already given, a link that is wrong or expired, a post from another site,
//! a failure). The front end's build may prerender the page's frame (header, footer, styles) into
//! `STATIC_DIR/.consent/page.html` (and `.consent/es/page.html`) with one slot, `{{content}}`,
//! which the server fills; without it, a plain frame stands in, so the page works with no built
//! front end and with no JavaScript at all (it has none).

use std::io;
use std::path::Path;

use crate::http::page_reply::either;
use crate::store::Language;

/// Beside the built pages, hidden: the frame's empty slot is not a page to serve as it is.
const FRAME_DIR: &str = ".consent";
const FRAME_FILE: &str = "page.html";
const SLOT: &str = "{{content}}";

/// What a page says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Page<'a> {
    /// The form: `disclosure` to agree to, the number it covers (`last_four`), posting to
    /// `action`; `unticked` after a post without the box.
    Form {
        disclosure: &'a str,
        last_four: &'a str,
        action: &'a str,
        unticked: bool,
    },
    /// Recorded now.
    Given,
    /// The lead held written consent already.
    Already,
    /// The link names nothing this site signed, or a lead that is gone.
    Invalid,
    Expired,
    /// A post from a page on another site.
    CrossSite,
    /// Why the answer could not be kept (in the page's language).
    Failed(String),
}

pub struct ConsentPages {
    english: String,
    spanish: String,
}

impl ConsentPages {
    /// Reads each language's frame; one not built is replaced by the plain frame.
    pub fn load(static_dir: &Path) -> io::Result<ConsentPages> {
        let dir = static_dir.join(FRAME_DIR);
        Ok(ConsentPages {
            english: frame(&dir.join(FRAME_FILE), Language::En)?,
            spanish: frame(&dir.join("es").join(FRAME_FILE), Language::Es)?,
        })
    }

    pub fn render(&self, page: &Page, language: Language) -> String {
        let frame = either(language, &self.english, &self.spanish);
        let words = Words::of(language);
        // The frame's only slot, filled once: what the content holds stays as it is.
        frame.replacen(SLOT, &content(page, &words), 1)
    }
}

fn frame(file: &Path, language: Language) -> io::Result<String> {
    match std::fs::read_to_string(file) {
        Ok(built) if built.contains(SLOT) => Ok(built),
        Ok(_) => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: no {SLOT} slot (rebuild the front end)", file.display()),
        )),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(plain_frame(language)),
        Err(error) => Err(error),
    }
}

/// The stand-in frame: readable on a phone (no line wider than the screen), unstyled otherwise.
fn plain_frame(language: Language) -> String {
    let title = Words::of(language).title;
    format!(
        "<!doctype html><html lang=\"{}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\">\
         <link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\"><title>{title}</title>\
         <style>body{{font-family:system-ui,sans-serif;line-height:1.5;max-width:40rem;margin:0 auto;padding:1rem;overflow-wrap:anywhere}}\
         label{{display:flex;gap:.5rem;align-items:flex-start}}input[type=checkbox]{{width:1.25rem;height:1.25rem;flex:none;margin-top:.2rem}}\
         button{{font:inherit;padding:.6rem 1rem;margin-top:1rem}}.error{{color:#b91c1c;font-weight:600}}</style>\
         </head><body><main id=\"main\">{SLOT}</main></body></html>",
        language.as_str()
    )
}

/// The page's main content, everything in it escaped.
fn content(page: &Page, words: &Words) -> String {
    let section = |heading: &str, text: &str| {
        format!(
            "<h1>{}</h1><p>{}</p><p><a href=\"{}\">{}</a></p>",
            escape(heading),
            escape(text),
            words.home,
            escape(words.home_link)
        )
    };
    match page {
        Page::Form {
            disclosure,
            last_four,
            action,
            unticked,
        } => {
            let error = if *unticked {
                format!(
                    "<p class=\"error\" id=\"consent-error\" role=\"alert\">{}</p>",
                    escape(words.tick)
                )
            } else {
                String::new()
            };
            let described = if *unticked {
                " aria-describedby=\"consent-error\" aria-invalid=\"true\""
            } else {
                ""
            };
            format!(
                "<h1>{}</h1><p>{}</p><form method=\"post\" action=\"{}\" data-consent-form>{error}\
                 <label><input type=\"checkbox\" name=\"agree\" value=\"yes\"{described}>\
                 <span data-consent-text>{}</span></label><button type=\"submit\">{}</button></form>",
                escape(words.title),
                escape(&words.number.replace("{last4}", last_four)),
                escape(action),
                escape(disclosure),
                escape(words.submit)
            )
        }
        Page::Given => section(words.given_title, words.given),
        Page::Already => section(words.already_title, words.already),
        Page::Invalid => section(words.invalid_title, words.invalid),
        Page::Expired => section(words.expired_title, words.expired),
        Page::CrossSite => section(words.cross_site_title, words.cross_site),
        Page::Failed(reason) => section(words.failed_title, reason),
    }
}

/// Text and attribute values alike.
fn escape(text: &str) -> String {
    html_escape::encode_double_quoted_attribute(text).into_owned()
}

struct Words {
    title: &'static str,
    /// With `{last4}` where the number's last digits go.
    number: &'static str,
    submit: &'static str,
    tick: &'static str,
    given_title: &'static str,
    given: &'static str,
    already_title: &'static str,
    already: &'static str,
    invalid_title: &'static str,
    invalid: &'static str,
    expired_title: &'static str,
    expired: &'static str,
    cross_site_title: &'static str,
    cross_site: &'static str,
    failed_title: &'static str,
    home: &'static str,
    home_link: &'static str,
}

impl Words {
    fn of(language: Language) -> Words {
        match language {
            Language::En => Words {
                title: "Your permission to be called",
                number: "For your phone number ending in {last4}. Read the text, tick the box if you agree, and send.",
                submit: "I agree",
                tick: "Tick the box to agree. Nothing was recorded.",
                given_title: "Thank you: your permission is recorded",
                given: "We may now call or text you at that number about your quote. You can withdraw it at any time by telling us.",
                already_title: "Your permission is already given",
                already: "You gave your permission in writing before; there is nothing more to do.",
                invalid_title: "This link does not work",
                invalid: "The link is incomplete or no longer leads anywhere. Nothing was recorded. Copy the whole link from the e-mail, or write to us.",
                expired_title: "This link has expired",
                expired: "The link worked for 30 days. Nothing was recorded. Write to us if you would like a new one.",
                cross_site_title: "Please use the page we sent you",
                cross_site: "This answer was sent from another website, so it was not taken and nothing was recorded.",
                failed_title: "Your answer could not be saved",
                home: "/",
                home_link: "Go to the home page",
            },
            Language::Es => Words {
                title: "Su permiso para que le llamen",
                number: "Para su número de teléfono terminado en {last4}. Lea el texto, marque la casilla si está de acuerdo y envíe.",
                submit: "Acepto",
                tick: "Marque la casilla para aceptar. No se registró nada.",
                given_title: "Gracias: su permiso quedó registrado",
                given: "Ahora podemos llamarle o enviarle mensajes a ese número sobre su cotización. Puede retirarlo en cualquier momento avisándonos.",
                already_title: "Su permiso ya está dado",
                already: "Ya dio su permiso por escrito; no hay nada más que hacer.",
                invalid_title: "Este enlace no funciona",
                invalid: "El enlace está incompleto o ya no lleva a ninguna parte. No se registró nada. Copie el enlace completo del correo o escríbanos.",
                expired_title: "Este enlace ha caducado",
                expired: "El enlace funcionaba durante 30 días. No se registró nada. Escríbanos si quiere uno nuevo.",
                cross_site_title: "Use la página que le enviamos",
                cross_site: "Esta respuesta se envió desde otro sitio web, así que no se aceptó y no se registró nada.",
                failed_title: "No se pudo guardar su respuesta",
                home: "/es/",
                home_link: "Ir a la página principal",
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(unticked: bool) -> Page<'static> {
        Page::Form {
            disclosure: "I agree <that> \"X\" may call.",
            last_four: "0123",
            action: "/consent/a.1.b",
            unticked,
        }
    }

    #[test]
    fn the_form_shows_the_exact_text_escaped_with_an_unticked_box() {
        let pages = ConsentPages::load(tempfile::tempdir().unwrap().path()).unwrap();
        let html = pages.render(&form(false), Language::En);
        assert!(
            html.starts_with("<!doctype html><html lang=\"en\">"),
            "{html}"
        );
        assert!(
            html.contains(
                "<span data-consent-text>I agree &lt;that&gt; &quot;X&quot; may call.</span>"
            ),
            "{html}"
        );
        assert!(html.contains("ending in 0123"));
        assert!(html.contains("action=\"/consent/a.1.b\""));
        assert!(html.contains("<input type=\"checkbox\" name=\"agree\" value=\"yes\">"));
        assert!(!html.contains("checked"));
        assert!(!html.contains("consent-error"));
        let again = pages.render(&form(true), Language::Es);
        assert!(again.contains("lang=\"es\""));
        assert!(again.contains("Marque la casilla para aceptar."), "{again}");
        assert!(again.contains("aria-invalid=\"true\""));
    }

    #[test]
    fn a_built_frame_is_filled_and_one_without_its_slot_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let frames = dir.path().join(FRAME_DIR);
        std::fs::create_dir_all(frames.join("es")).unwrap();
        std::fs::write(
            frames.join(FRAME_FILE),
            "<header></header><main>{{content}}</main>",
        )
        .unwrap();
        let pages = ConsentPages::load(dir.path()).unwrap();
        assert_eq!(
            pages.render(&Page::Failed("x{{content}}".into()), Language::En),
            "<header></header><main><h1>Your answer could not be saved</h1><p>x{{content}}</p><p><a href=\"/\">Go to the home page</a></p></main>"
        );
        assert!(pages
            .render(&Page::Given, Language::Es)
            .contains("<html lang=\"es\">"));
        std::fs::write(frames.join("es").join(FRAME_FILE), "<main></main>").unwrap();
        assert!(ConsentPages::load(dir.path()).is_err());
    }
}
