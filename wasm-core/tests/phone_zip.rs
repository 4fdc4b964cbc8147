//! The phone and ZIP rules' verdicts, as the server sees them (native) and as the page does
//! (`checkPhone` and `checkZip` in wasm): the same cases must give the same answers in both.

use serde_json::{json, Value};

/// `(input, what checkPhone returns)`.
fn phone_cases() -> Vec<(&'static str, Value)> {
    let ok = json!({ "e164": "+15555550123", "display": "(555) 555-0123" });
    let error = |code: &str| json!({ "error": code });
    vec![
        ("555-555-0123", ok.clone()),
        ("(555) 555-0123", ok.clone()),
        ("+1 555 555 0123", ok.clone()),
        ("1-555-555-0123", ok.clone()),
        ("555.555.0123", ok.clone()),
        ("5555550123", ok.clone()),
        ("+15555550123", ok.clone()),
        (" 555 555 0123 ", ok),
        (
            "212-736-5000",
            json!({ "e164": "+12127365000", "display": "(212) 736-5000" }),
        ),
        ("", error("empty")),
        ("   ", error("empty")),
        ("555-555-CALL", error("not_a_number")),
        ("555-555-0123 ext 4", error("not_a_number")),
        ("+44 20 7946 0958", error("not_us")),
        ("555-555-012", error("too_few_digits")),
        ("555-555-012345", error("too_many_digits")),
        ("055-555-0123", error("bad_area_code")),
        ("555-155-0123", error("bad_exchange")),
    ]
}

/// `(input, what checkZip returns)`.
fn zip_cases() -> Vec<(&'static str, Value)> {
    let zip = |zip: &str, state: &str, name: &str| json!({ "zip": zip, "state": state, "stateName": name });
    let error = |code: &str| json!({ "error": code });
    vec![
        ("00501", zip("00501", "NY", "New York")),
        ("20500", zip("20500", "DC", "District of Columbia")),
        ("99950", zip("99950", "AK", "Alaska")),
        ("96910", zip("96910", "GU", "Guam")),
        ("00601", zip("00601", "PR", "Puerto Rico")),
        ("96799", zip("96799", "AS", "American Samoa")),
        ("60601-1234", zip("60601", "IL", "Illinois")),
        (" 73301 ", zip("73301", "TX", "Texas")),
        ("", error("empty")),
        ("1234", error("malformed")),
        ("12345-67", error("malformed")),
        ("ABCDE", error("malformed")),
        ("00000", error("unassigned_prefix")),
        ("21301", error("unassigned_prefix")),
    ]
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::*;
    use wasm_core::{Phone, Zip};

    #[test]
    fn phones() {
        for (raw, expected) in phone_cases() {
            let actual = match Phone::parse(raw) {
                Ok(p) => json!({ "e164": p.as_str(), "display": p.national() }),
                Err(e) => json!({ "error": e.code() }),
            };
            assert_eq!(actual, expected, "{raw:?}");
        }
    }

    #[test]
    fn zips() {
        for (raw, expected) in zip_cases() {
            let actual = match Zip::parse(raw) {
                Ok(z) => json!({
                    "zip": z.as_str(),
                    "state": z.state().code(),
                    "stateName": z.state().name()
                }),
                Err(e) => json!({ "error": e.code() }),
            };
            assert_eq!(actual, expected, "{raw:?}");
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;
    use wasm_core::quote::bindings::{check_phone, check_zip};

    #[wasm_bindgen_test]
    fn check_phone_gives_the_native_verdicts() {
        for (raw, expected) in phone_cases() {
            let actual: Value = serde_wasm_bindgen::from_value(check_phone(raw).unwrap()).unwrap();
            assert_eq!(actual, expected, "{raw:?}");
        }
    }

    #[wasm_bindgen_test]
    fn check_zip_gives_the_native_verdicts() {
        for (raw, expected) in zip_cases() {
            let actual: Value = serde_wasm_bindgen::from_value(check_zip(raw).unwrap()).unwrap();
            assert_eq!(actual, expected, "{raw:?}");
        }
    }
}
