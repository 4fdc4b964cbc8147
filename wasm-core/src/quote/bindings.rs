//! The quote rules for JavaScript (wasm32 only): the form checks with the server's own rules.

use wasm_bindgen::prelude::*;

use super::{Product, QuoteRequest};

/// Returns `null` when the form values make a valid quote request, otherwise an object with a
/// message for each field that is wrong, e.g. `{ email: "Please enter a valid email address" }`.
#[wasm_bindgen(js_name = validateQuote)]
pub fn validate_quote(product: &str, email: &str) -> Result<JsValue, JsError> {
    match QuoteRequest::parse(product, email) {
        Ok(_) => Ok(JsValue::NULL),
        Err(errors) => Ok(serde_wasm_bindgen::to_value(&errors)?),
    }
}

/// The dropdown's options, `[{ value, label }]`, in order.
#[wasm_bindgen(js_name = productOptions)]
pub fn product_options() -> Result<JsValue, JsError> {
    #[derive(serde::Serialize)]
    struct ProductOption {
        value: &'static str,
        label: &'static str,
    }
    let options: Vec<_> = Product::ALL
        .iter()
        .map(|p| ProductOption {
            value: p.as_str(),
            label: p.label(),
        })
        .collect();
    Ok(serde_wasm_bindgen::to_value(&options)?)
}
