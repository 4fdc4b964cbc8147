//! Property tests on the parsers: any input, including arbitrary bytes read as UTF-8 the way a
//! server would, gets a verdict and never a panic; and whatever is accepted is stable.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use wasm_core::quote::{MAX_EMAIL_LEN, MAX_LOCAL_PART_LEN};
use wasm_core::{Email, Product, QuoteRequest};

/// Strings close to the accepted shapes, so the interesting branches are reached often.
fn near_email() -> impl Strategy<Value = String> {
    "[ \\t]{0,2}[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~@\\-\"()\\[\\]é]{0,80}@[a-z0-9.\\-é]{0,80}[ \\n]{0,2}"
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_get_a_verdict(product in proptest::collection::vec(any::<u8>(), 0..300),
                                     email in proptest::collection::vec(any::<u8>(), 0..300)) {
        let product = String::from_utf8_lossy(&product);
        let email = String::from_utf8_lossy(&email);
        let _ = Product::parse(&product);
        let _ = Email::parse(&email);
        let _ = QuoteRequest::parse(&product, &email);
    }

    #[test]
    fn accepted_emails_are_trimmed_bounded_and_stable(raw in prop_oneof![near_email(), any::<String>()]) {
        if let Some(email) = Email::parse(&raw) {
            let text = email.as_str();
            prop_assert_eq!(text, raw.trim());
            prop_assert!(text.len() <= MAX_EMAIL_LEN && text.is_ascii());
            let (local, domain) = text.split_once('@').expect("one @");
            prop_assert!(local.len() <= MAX_LOCAL_PART_LEN && domain.contains('.'));
            prop_assert_eq!(Email::parse(text), Some(email.clone()));
        }
    }

    #[test]
    fn products_round_trip(raw in prop_oneof![
        Just("medicare".to_owned()), Just(" family ".to_owned()), "[a-z ]{0,12}", any::<String>()
    ]) {
        if let Some(product) = Product::parse(&raw) {
            prop_assert_eq!(product.as_str(), raw.trim());
            prop_assert_eq!(Product::parse(product.as_str()), Some(product));
        }
        prop_assert_eq!(QuoteRequest::parse(&raw, "ana@example.com").is_ok(), Product::parse(&raw).is_some());
    }
}
