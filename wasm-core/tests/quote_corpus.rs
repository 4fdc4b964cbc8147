//! The shared corpus of tricky inputs (`fixtures/quote_corpus.json`): the native build and the
//! wasm build must both give exactly the verdicts and messages recorded there, so the browser
//! and the server can never disagree.

use serde_json::Value;

struct Case {
    product: String,
    email: String,
    expected: Value,
}

fn corpus() -> Vec<Case> {
    let cases: Vec<Value> =
        serde_json::from_str(include_str!("fixtures/quote_corpus.json")).unwrap();
    assert!(
        cases.len() >= 200,
        "the corpus must hold at least 200 cases"
    );
    cases
        .into_iter()
        .map(|c| Case {
            product: c["product"].as_str().unwrap().to_owned(),
            email: c["email"].as_str().unwrap().to_owned(),
            expected: c["errors"].clone(),
        })
        .collect()
}

/// Each case's errors as `verdict` gives them (null when valid) are the recorded ones.
fn matches_the_corpus(verdict: impl Fn(&Case) -> Value) {
    for case in corpus() {
        assert_eq!(
            verdict(&case),
            case.expected,
            "product {:?} email {:?}",
            case.product,
            case.email
        );
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn native_build_matches_the_corpus() {
    matches_the_corpus(
        |case| match wasm_core::QuoteRequest::parse(&case.product, &case.email) {
            Ok(_) => Value::Null,
            Err(errors) => serde_json::to_value(errors).unwrap(),
        },
    );
}

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen_test::wasm_bindgen_test]
fn wasm_build_matches_the_corpus() {
    matches_the_corpus(|case| {
        let js = wasm_core::quote::bindings::validate_quote(
            &case.product,
            &case.email,
            None,
            None,
            None,
            None,
        )
        .unwrap();
        if js.is_null() {
            Value::Null
        } else {
            serde_wasm_bindgen::from_value(js).unwrap()
        }
    });
}

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen_test::wasm_bindgen_test]
fn wasm_product_options_are_the_spec_labels() {
    let options: Value =
        serde_wasm_bindgen::from_value(wasm_core::quote::bindings::product_options().unwrap())
            .unwrap();
    let labels: Vec<_> = options
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["label"].as_str().unwrap())
        .collect();
    // The spec's words are held by `Product`'s own test (`labels_match_the_spec`).
    let spec: Vec<_> = wasm_core::Product::ALL.iter().map(|p| p.label()).collect();
    assert_eq!(labels, spec);
}
