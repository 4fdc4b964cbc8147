//! What the assistant takes from the site's content (`site.yaml` in the content folder and the
//! Spanish site's `es/site.yaml`, both checked in full by the front end's build): only these fields
//! are read, the rest is ignored. The prompt is written from the English; the first message says
//! the disclaimer (wasm-core's words, `wasm_core::disclaimer`) and the agent notice in each
//! language of the site.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use wasm_core::disclaimer;
use wasm_core::Product;

use super::yaml_file;
use crate::routes::booking::PRODUCTS;
use crate::store::Language;

pub const FILE: &str = "site.yaml";
/// The folder of the Spanish site's texts, beside `site.yaml`.
const SPANISH_DIR: &str = "es";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteContent {
    pub brand: Brand,
    pub broker: Broker,
    pub medicare_disclaimer: MedicareDisclaimer,
    pub plans: Items<Plan>,
    /// The figures under "about" (`backend check` looks for the example's).
    pub about: About,
    pub partners: Items<Name>,
    pub testimonials: Items<Name>,
    /// The quote dropdown's label for each product value.
    products: BTreeMap<String, String>,
    /// What the assistant says in each language: English from `site.yaml`, Spanish from
    /// `es/site.yaml` (`SiteContent::parse` reads them).
    #[serde(skip)]
    spoken: Vec<(Language, SpokenTexts)>,
}

/// The texts of one language's `site.yaml` that the assistant says.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SpokenTexts {
    quote: QuoteTexts,
    /// Booked calls: on when `site.yaml` has `booking` (the build checks the rest of it).
    #[serde(default)]
    booking: Option<BookingTexts>,
}

/// What the assistant takes of `booking`: the Scope of Appointment it reads, and the zone the
/// times are in (given in `site.yaml` only).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct BookingTexts {
    /// `{broker}` stands for the broker's name.
    soa_statement: String,
    /// Each product type's label, by the content's key (`routes::booking::PRODUCTS`).
    soa_products: BTreeMap<String, String>,
    #[serde(default)]
    time_zone: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct QuoteTexts {
    /// The lead-generation notice; `{broker}` stands for the broker's name.
    lead_notice: String,
    /// The fields the broker added to the form (English's serve both pages).
    #[serde(default)]
    fields: QuoteFields,
    /// The consent to be called, asked beside the phone number; `{broker}` as above.
    #[serde(default)]
    phone_consent: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct QuoteFields {
    #[serde(default)]
    phone: Option<String>,
    #[serde(default)]
    zip: Option<String>,
}

impl QuoteFields {
    fn on(rule: &Option<String>) -> bool {
        rule.as_deref().is_some_and(|rule| rule != "off")
    }
}

#[derive(Debug, Deserialize)]
pub struct Brand {
    pub name: String,
    /// The site's public address.
    pub url: String,
}

#[derive(Debug, Deserialize)]
pub struct Broker {
    pub phone: Option<String>,
    pub email: Option<String>,
    pub hours: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct About {
    pub stats: Vec<Stat>,
}

#[derive(Debug, Deserialize)]
pub struct Stat {
    pub value: String,
    pub label: String,
}

/// A section's list of items (the plans, the partners, the testimonials).
#[derive(Debug, Deserialize)]
pub struct Items<T> {
    pub items: Vec<T>,
}

#[derive(Debug, Deserialize)]
pub struct Name {
    pub name: String,
}

#[derive(Debug, Deserialize)]
pub struct Plan {
    pub title: String,
    pub description: String,
}

/// Which CMS third-party marketing disclaimer the page shows, and its numbers (the words are
/// wasm-core's, the rule's).
#[derive(Debug, Deserialize)]
pub struct MedicareDisclaimer {
    variant: Variant,
    #[serde(default)]
    pub organizations: u32,
    #[serde(default)]
    pub products: u32,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Variant {
    Some,
    Every,
    None,
}

impl SiteContent {
    pub fn load(content_dir: &Path) -> Result<SiteContent, String> {
        let english = content_dir.join(FILE);
        let spanish = content_dir.join(SPANISH_DIR).join(FILE);
        let read = |path: &Path| {
            std::fs::read_to_string(path)
                .map_err(|error| format!("{}: cannot be read: {error}", path.display()))
        };
        SiteContent::parse((&english, &read(&english)?), (&spanish, &read(&spanish)?))
    }

    /// The content from the texts of `site.yaml` and `es/site.yaml`, each with its path.
    pub fn parse(english: (&Path, &str), spanish: (&Path, &str)) -> Result<SiteContent, String> {
        let mut content: SiteContent = yaml_file::parse(english.0, english.1)?;
        content.spoken = vec![
            (Language::En, yaml_file::parse(english.0, english.1)?),
            (Language::Es, yaml_file::parse(spanish.0, spanish.1)?),
        ];
        Ok(content)
    }

    fn spoken(&self, language: Language) -> &SpokenTexts {
        let (_, texts) = self
            .spoken
            .iter()
            .find(|(each, _)| *each == language)
            .expect("`parse` reads every language");
        texts
    }

    /// The Medicare disclaimer in `language`, as the page in that language shows it, or `None`
    /// when the broker does not show it (the build refuses `none` while Medicare is offered, and
    /// a count under 1, so neither reaches a built site).
    pub fn disclaimer(&self, language: Language) -> Option<String> {
        let shown = &self.medicare_disclaimer;
        let variant = match shown.variant {
            Variant::None => return None,
            Variant::Some => disclaimer::Variant::Some,
            Variant::Every => disclaimer::Variant::Every,
        };
        let language = match language {
            Language::En => disclaimer::Language::En,
            Language::Es => disclaimer::Language::Es,
        };
        disclaimer::text(variant, language, shown.organizations, shown.products).ok()
    }

    /// The lead-generation notice in `language`, with the broker's name.
    pub fn lead_notice(&self, language: Language) -> String {
        self.spoken(language)
            .quote
            .lead_notice
            .replace("{broker}", &self.brand.name)
    }

    /// Whether the page asks for a phone number, and so the assistant may take one.
    pub fn asks_phone(&self) -> bool {
        QuoteFields::on(&self.spoken(Language::En).quote.fields.phone)
    }

    /// Whether the page asks for a ZIP code.
    pub fn asks_zip(&self) -> bool {
        QuoteFields::on(&self.spoken(Language::En).quote.fields.zip)
    }

    /// The consent to be called in `language`, with the broker's name, when the page asks for a
    /// phone number.
    pub fn phone_consent(&self, language: Language) -> Option<String> {
        if !self.asks_phone() {
            return None;
        }
        let text = self.spoken(language).quote.phone_consent.as_ref()?;
        Some(text.replace("{broker}", &self.brand.name))
    }

    /// Whether calls can be booked (`booking` in `site.yaml`), and so the assistant books them.
    pub fn booking_on(&self) -> bool {
        self.spoken(Language::En).booking.is_some()
    }

    /// The broker's time zone for booked calls, when booking is on.
    pub fn booking_zone(&self) -> Option<&str> {
        self.spoken(Language::En)
            .booking
            .as_ref()?
            .time_zone
            .as_deref()
    }

    /// The Scope of Appointment's statement in `language`, with the broker's name, as the
    /// booking page shows it and each booking's record keeps it; `None` with booking off.
    pub fn soa_statement(&self, language: Language) -> Option<String> {
        let booking = self.spoken(language).booking.as_ref()?;
        Some(booking.soa_statement.replace("{broker}", &self.brand.name))
    }

    /// The product types a Scope of Appointment may name (the page's `soa` values, in its
    /// order), each with its label in `language`; none with booking off.
    pub fn soa_products(&self, language: Language) -> Vec<(&'static str, &str)> {
        let Some(booking) = self.spoken(language).booking.as_ref() else {
            return Vec::new();
        };
        PRODUCTS
            .iter()
            .map(|(value, key)| {
                let label = booking
                    .soa_products
                    .get(*key)
                    .map_or(*value, String::as_str);
                (*value, label)
            })
            .collect()
    }

    /// The five products the quote accepts (wasm-core's values, in its order), each with the
    /// page's label.
    pub fn products(&self) -> Vec<(&'static str, &str)> {
        Product::ALL
            .into_iter()
            .map(|product| {
                let label = self
                    .products
                    .get(product.as_str())
                    .map_or(product.label(), String::as_str);
                (product.as_str(), label)
            })
            .collect()
    }
}

/// The example content folder (`content/`).
#[cfg(test)]
pub fn example_dir() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../content")
}

/// The example content (`content/`), its `site.yaml` edited first.
#[cfg(test)]
pub fn example_with(edit: impl FnOnce(String) -> String) -> SiteContent {
    example_edited(edit, |spanish| spanish)
}

/// The example content, each language's `site.yaml` edited first.
#[cfg(test)]
fn example_edited(
    english_edit: impl FnOnce(String) -> String,
    spanish_edit: impl FnOnce(String) -> String,
) -> SiteContent {
    let content = example_dir();
    let (english, spanish) = (content.join(FILE), content.join(SPANISH_DIR).join(FILE));
    let read = |path: &Path| std::fs::read_to_string(path).unwrap();
    SiteContent::parse(
        (&english, &english_edit(read(&english))),
        (&spanish, &spanish_edit(read(&spanish))),
    )
    .unwrap()
}

/// `booking` as a broker gives it in `site.yaml`, and its words in `es/site.yaml`: the example
/// content has booking off.
#[cfg(test)]
pub const BOOKING_YAML: [&str; 2] = [
    "booking:\n  timeZone: America/Chicago\n  hours:\n    mon: [\"09:00-17:00\"]\n  slotMinutes: 30\n  noticeHours: 24\n  daysAhead: 14\n  soaStatement: \"The agent of {broker} may be paid based on your enrollment.\"\n  soaProducts:\n    medicareAdvantage: Medicare Advantage (Part C)\n    partD: Medicare prescription drug plans (Part D)\n    medicareSupplement: Medicare Supplement (Medigap)\n    dentalVisionHearing: Dental, vision and hearing\n",
    "booking:\n  soaStatement: \"El agente de {broker} puede recibir un pago según su inscripción.\"\n  soaProducts:\n    medicareAdvantage: Medicare Advantage (Parte C)\n    partD: Planes de medicamentos (Parte D)\n    medicareSupplement: Medicare Supplement (Medigap)\n    dentalVisionHearing: Dental, visión y audición\n",
];

/// The example content with booking on (`BOOKING_YAML` added to both files).
#[cfg(test)]
pub fn example_with_booking() -> SiteContent {
    let [english, spanish] = BOOKING_YAML;
    example_edited(
        |text| format!("{text}\n{english}"),
        |text| format!("{text}\n{spanish}"),
    )
}

/// The example content with the form's added fields set (`quote.fields`), and the consent text
/// the phone field needs.
#[cfg(test)]
pub fn example_with_fields(phone: &str, zip: &str) -> SiteContent {
    example_with(|text| {
        let fields = format!(
            "quote:\n  fields:\n    phone: {phone}\n    zip: {zip}\n  phoneConsent: \"I agree that {{broker}} may call or text me at this number about my quote, possibly using automated technology or an artificial or AI-generated voice. Consent is not a condition of purchase.\"\n"
        );
        let kept: String = text
            .lines()
            .filter(|line| {
                !["  fields:", "    phone:", "    zip:", "  phoneConsent:"]
                    .iter()
                    .any(|key| line.starts_with(key))
            })
            .map(|line| format!("{line}\n"))
            .collect();
        kept.replacen("quote:\n", &fields, 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> SiteContent {
        example_with(|text| text)
    }

    #[test]
    fn the_example_content_is_read_with_its_disclaimer_numbers_in_each_language() {
        let content = example();
        assert_eq!(content.brand.name, "Clearharbor Health");
        assert_eq!(content.plans.items.len(), 4);
        let english = content.disclaimer(Language::En).unwrap();
        assert!(
            english.contains("we represent 8 organizations which offer 24 products"),
            "{english}"
        );
        let spanish = content.disclaimer(Language::Es).unwrap();
        assert!(
            spanish.contains("representamos a 8 organizaciones que ofrecen 24 productos"),
            "{spanish}"
        );
    }

    #[test]
    fn the_lead_notice_names_the_broker_in_each_language() {
        let content = example();
        assert_eq!(
            content.lead_notice(Language::En),
            "A licensed insurance agent of Clearharbor Health will contact you about your quote."
        );
        let spanish = content.lead_notice(Language::Es);
        assert!(
            spanish.starts_with("Un agente de seguros con licencia de Clearharbor Health "),
            "{spanish}"
        );
    }

    #[test]
    fn a_missing_spanish_file_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(example_dir().join(FILE), dir.path().join(FILE)).unwrap();
        let error = SiteContent::load(dir.path()).unwrap_err();
        let spanish = dir.path().join("es").join(FILE);
        assert!(
            error.starts_with(&format!("{}: cannot be read:", spanish.display())),
            "{error}"
        );
    }

    #[test]
    fn the_products_are_wasm_cores_with_the_pages_labels() {
        let mut content = example();
        content
            .products
            .insert("employer".into(), "Plan de empresa".into());
        assert_eq!(
            content.products(),
            [
                ("medicare", "Medicare"),
                ("individual", "Individual Health"),
                ("family", "Family Health"),
                ("medicaid", "Medicaid"),
                ("employer", "Plan de empresa"),
            ]
        );
    }

    #[test]
    fn booking_is_off_in_the_example_and_on_with_its_statement_in_each_language() {
        let off = example();
        assert!(!off.booking_on());
        assert_eq!(off.soa_statement(Language::En), None);
        assert!(off.soa_products(Language::En).is_empty());
        let on = example_with_booking();
        assert!(on.booking_on());
        assert_eq!(on.booking_zone(), Some("America/Chicago"));
        assert_eq!(
            on.soa_statement(Language::En).unwrap(),
            "The agent of Clearharbor Health may be paid based on your enrollment."
        );
        assert_eq!(
            on.soa_statement(Language::Es).unwrap(),
            "El agente de Clearharbor Health puede recibir un pago según su inscripción."
        );
        assert_eq!(
            on.soa_products(Language::Es)[1],
            ("part_d", "Planes de medicamentos (Parte D)")
        );
    }

    #[test]
    fn the_disclaimer_variants() {
        let mut content = example();
        content.medicare_disclaimer.variant = Variant::Every;
        assert!(content
            .disclaimer(Language::En)
            .unwrap()
            .starts_with("Currently we represent 8 organizations which offer 24 products"));
        assert!(content
            .disclaimer(Language::Es)
            .unwrap()
            .starts_with("Actualmente representamos a 8 organizaciones"));
        content.medicare_disclaimer.variant = Variant::None;
        assert_eq!(content.disclaimer(Language::En), None);
        assert_eq!(content.disclaimer(Language::Es), None);
    }
}
