//! The quote rules for JavaScript (wasm32 only): the form checks with the server's own rules.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{ContactInput, ContactRules, FieldRule, Phone, Product, QuoteRequest, State, Zip};

/// Returns `null` when the form values make a valid quote request, otherwise an object with a
/// message for each field that is wrong, e.g. `{ email: "Please enter a valid email address" }`.
/// The phone and ZIP fields count as the broker's rules say (`'off'`, the default when left
/// out, `'optional'` or `'required'`), as on the server.
#[wasm_bindgen(js_name = validateQuote)]
pub fn validate_quote(
    product: &str,
    email: &str,
    phone: Option<String>,
    zip: Option<String>,
    phone_rule: Option<String>,
    zip_rule: Option<String>,
) -> Result<JsValue, JsError> {
    let rule = |name: Option<String>| -> Result<FieldRule, JsError> {
        match name {
            None => Ok(FieldRule::Off),
            Some(name) => FieldRule::parse(&name).ok_or_else(|| {
                JsError::new(&format!(
                    "{name:?} is not a field rule (off, optional, required)"
                ))
            }),
        }
    };
    let rules = ContactRules {
        phone: rule(phone_rule)?,
        zip: rule(zip_rule)?,
    };
    let contact = ContactInput {
        phone: phone.as_deref().unwrap_or(""),
        zip: zip.as_deref().unwrap_or(""),
        may_call: false,
    };
    match QuoteRequest::parse_with(product, email, contact, rules) {
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

/// A field's verdict: its normalized value, or `{ error }` with the reason's code.
#[derive(Serialize)]
#[serde(untagged)]
enum Checked<T> {
    Valid(T),
    Invalid { error: &'static str },
}

/// A US phone number (wasm-core/src/quote/phone.rs): `{ e164: "+15555550123", display:
/// "(555) 555-0123" }`, or `{ error }` with why it was refused, for the page to pick its words.
#[wasm_bindgen(
    js_name = checkPhone,
    unchecked_return_type = "{ e164: string; display: string } | { error: 'empty' | 'not_a_number' | 'not_us' | 'too_few_digits' | 'too_many_digits' | 'bad_area_code' | 'bad_exchange' }"
)]
pub fn check_phone(raw: &str) -> Result<JsValue, JsError> {
    #[derive(Serialize)]
    struct ValidPhone {
        e164: String,
        display: String,
    }
    let checked = match Phone::parse(raw) {
        Ok(phone) => Checked::Valid(ValidPhone {
            display: phone.national(),
            e164: phone.as_str().to_owned(),
        }),
        Err(error) => Checked::Invalid {
            error: error.code(),
        },
    };
    Ok(serde_wasm_bindgen::to_value(&checked)?)
}

/// A ZIP code and its state (wasm-core/src/quote/zip.rs): `{ zip: "20500", state: "DC",
/// stateName: "District of Columbia" }` (ZIP+4 gives its five digits), or `{ error }` with why
/// it was refused, for the page to pick its words.
#[wasm_bindgen(
    js_name = checkZip,
    unchecked_return_type = "{ zip: string; state: string; stateName: string } | { error: 'empty' | 'malformed' | 'unassigned_prefix' }"
)]
pub fn check_zip(raw: &str) -> Result<JsValue, JsError> {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct ValidZip {
        zip: String,
        state: &'static str,
        state_name: &'static str,
    }
    let checked = match Zip::parse(raw) {
        Ok(zip) => Checked::Valid(ValidZip {
            state: zip.state().code(),
            state_name: zip.state().name(),
            zip: zip.as_str().to_owned(),
        }),
        Err(error) => Checked::Invalid {
            error: error.code(),
        },
    };
    Ok(serde_wasm_bindgen::to_value(&checked)?)
}

/// The two-letter code of the place a licence names (`"Texas"`, `"tx"`), when it is a US state,
/// DC or a territory; `undefined` otherwise (`"Tex."`, `"Palau"`). The build checks
/// `broker.licences` with it, as the server reads them.
#[wasm_bindgen(js_name = licenceState)]
pub fn licence_state(raw: &str) -> Option<String> {
    State::parse(raw)
        .filter(|state| state.is_state_dc_or_territory())
        .map(|state| state.code().to_owned())
}
