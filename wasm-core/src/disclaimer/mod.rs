//! The Medicare third-party marketing organization (TPMO) disclaimer, as the rule writes it: one
//! place for its words, which the page, the chat, the voice assistant's first message and the
//! build's checks all take from here (the server natively, the front end's build through the
//! wasm module in Node).
//!
//! The rule: 42 CFR 422.2267(e)(41) (Part C) and 423.2267(e)(41) (Part D), standardized content,
//! as amended by the Contract Year 2027 final rule (CMS-4212-F, Federal Register FR Doc.
//! 2026-06600, published 6 April 2026), which applies to contract year 2027 marketing from
//! 1 October 2026 and drops "or your local State Health Insurance Program (SHIP)" from both
//! statements. docs/product.md ("The Medicare disclaimer") says where each text was checked.

#[cfg(target_arch = "wasm32")]
pub mod bindings;

use std::fmt;

/// Which statement of the rule applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// A TPMO that does not sell every MA or Part D plan in the area.
    Some,
    /// A TPMO that sells every plan in the area.
    Every,
}

/// The languages the site speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// The rule's own words.
    En,
    /// The site's translation: CMS publishes no Spanish text of this disclaimer.
    Es,
}

/// The rule's statement for a TPMO that does not sell every plan, after 1 October 2026.
const SOME_EN: &str = "We do not offer every plan available in your area. Currently we represent \
{organizations} organizations which offer {products} products in your area. Please contact \
Medicare.gov or 1-800-MEDICARE to get information on all of your options.";
/// The rule's statement for a TPMO that sells every plan, after 1 October 2026.
const EVERY_EN: &str = "Currently we represent {organizations} organizations which offer \
{products} products in your area. You can always contact Medicare.gov or 1-800-MEDICARE for help \
with plan choices.";
/// The site's Spanish translation of `SOME_EN`, sentence by sentence.
const SOME_ES: &str = "No ofrecemos todos los planes disponibles en su área. Actualmente \
representamos a {organizations} organizaciones que ofrecen {products} productos en su área. \
Comuníquese con Medicare.gov o con el 1-800-MEDICARE para obtener información sobre todas sus \
opciones.";
/// The site's Spanish translation of `EVERY_EN`.
const EVERY_ES: &str = "Actualmente representamos a {organizations} organizaciones que ofrecen \
{products} productos en su área. Siempre puede comunicarse con Medicare.gov o con el \
1-800-MEDICARE para obtener ayuda para elegir un plan.";

/// Why a disclaimer cannot be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DisclaimerError {
    /// The number of organizations or of products is 0: the rule asks for the real count.
    NoneRepresented(&'static str),
    /// A variant or language name that is not one of ours.
    Unknown(&'static str, String),
}

impl fmt::Display for DisclaimerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DisclaimerError::NoneRepresented(what) => {
                write!(f, "{what}: expected a whole number, at least 1")
            }
            DisclaimerError::Unknown(what, name) => write!(f, "{what} {name:?} is not one of ours"),
        }
    }
}

impl std::error::Error for DisclaimerError {}

impl Variant {
    /// `"some"` or `"every"`, as content names them.
    pub fn parse(name: &str) -> Result<Variant, DisclaimerError> {
        match name {
            "some" => Ok(Variant::Some),
            "every" => Ok(Variant::Every),
            _ => Err(DisclaimerError::Unknown("variant", name.to_owned())),
        }
    }
}

impl Language {
    /// `"en"` or `"es"`.
    pub fn parse(name: &str) -> Result<Language, DisclaimerError> {
        match name {
            "en" => Ok(Language::En),
            "es" => Ok(Language::Es),
            _ => Err(DisclaimerError::Unknown("language", name.to_owned())),
        }
    }
}

/// The disclaimer in `language` for a broker who represents `organizations` organizations
/// offering `products` products in the area; both at least 1.
pub fn text(
    variant: Variant,
    language: Language,
    organizations: u32,
    products: u32,
) -> Result<String, DisclaimerError> {
    if organizations == 0 {
        return Err(DisclaimerError::NoneRepresented("organizations"));
    }
    if products == 0 {
        return Err(DisclaimerError::NoneRepresented("products"));
    }
    let words = match (variant, language) {
        (Variant::Some, Language::En) => SOME_EN,
        (Variant::Every, Language::En) => EVERY_EN,
        (Variant::Some, Language::Es) => SOME_ES,
        (Variant::Every, Language::Es) => EVERY_ES,
    };
    Ok(words
        .replace("{organizations}", &organizations.to_string())
        .replace("{products}", &products.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_words_for_a_broker_who_does_not_sell_every_plan() {
        assert_eq!(
            text(Variant::Some, Language::En, 8, 24).unwrap(),
            "We do not offer every plan available in your area. Currently we represent 8 \
             organizations which offer 24 products in your area. Please contact Medicare.gov or \
             1-800-MEDICARE to get information on all of your options."
        );
    }

    #[test]
    fn the_rules_words_for_a_broker_who_sells_every_plan() {
        assert_eq!(
            text(Variant::Every, Language::En, 3, 9).unwrap(),
            "Currently we represent 3 organizations which offer 9 products in your area. You can \
             always contact Medicare.gov or 1-800-MEDICARE for help with plan choices."
        );
    }

    #[test]
    fn the_spanish_texts_carry_the_numbers_and_medicares_names() {
        let some = text(Variant::Some, Language::Es, 8, 24).unwrap();
        assert!(some.starts_with("No ofrecemos todos los planes"), "{some}");
        assert!(
            some.contains("representamos a 8 organizaciones que ofrecen 24 productos"),
            "{some}"
        );
        let every = text(Variant::Every, Language::Es, 2, 5).unwrap();
        assert!(
            every.starts_with("Actualmente representamos a 2 organizaciones"),
            "{every}"
        );
        for words in [some, every] {
            assert!(words.contains("Medicare.gov") && words.contains("1-800-MEDICARE"));
        }
    }

    #[test]
    fn no_text_names_the_ship_any_more() {
        for variant in [Variant::Some, Variant::Every] {
            for language in [Language::En, Language::Es] {
                let words = text(variant, language, 1, 1).unwrap();
                assert!(
                    !words.contains("SHIP") && !words.contains("State Health"),
                    "{words}"
                );
            }
        }
    }

    #[test]
    fn a_count_of_zero_is_refused() {
        assert_eq!(
            text(Variant::Some, Language::En, 0, 4),
            Err(DisclaimerError::NoneRepresented("organizations"))
        );
        assert_eq!(
            text(Variant::Every, Language::Es, 4, 0)
                .unwrap_err()
                .to_string(),
            "products: expected a whole number, at least 1"
        );
    }

    #[test]
    fn names_are_parsed_and_a_stranger_is_refused() {
        assert_eq!(Variant::parse("every"), Ok(Variant::Every));
        assert_eq!(Language::parse("es"), Ok(Language::Es));
        assert_eq!(
            Variant::parse("none").unwrap_err().to_string(),
            "variant \"none\" is not one of ours"
        );
    }
}
