//! The disclaimer for JavaScript (wasm32 only): the front end's build takes its texts from here.

use wasm_bindgen::prelude::*;

use super::{text, Language, Variant};

/// The Medicare TPMO disclaimer: `variant` `'some'` or `'every'`, `language` `'en'` or `'es'`, and
/// the two counts (whole numbers, at least 1). Throws with the reason otherwise.
#[wasm_bindgen(js_name = medicareDisclaimer)]
pub fn medicare_disclaimer(
    variant: &str,
    language: &str,
    organizations: u32,
    products: u32,
) -> Result<String, JsError> {
    let variant = Variant::parse(variant).map_err(|e| JsError::new(&e.to_string()))?;
    let language = Language::parse(language).map_err(|e| JsError::new(&e.to_string()))?;
    text(variant, language, organizations, products).map_err(|e| JsError::new(&e.to_string()))
}
