//! Property tests on the parsers: any input, including arbitrary bytes read as UTF-8 the way a
//! server would, gets a verdict and never a panic; and whatever is accepted is stable.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use wasm_core::quote::{MAX_EMAIL_LEN, MAX_LOCAL_PART_LEN};
use wasm_core::{Email, Phone, Product, QuoteRequest, State, Zip};

/// Strings close to the accepted shapes, so the interesting branches are reached often.
fn near_email() -> impl Strategy<Value = String> {
    "[ \\t]{0,2}[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~@\\-\"()\\[\\]é]{0,80}@[a-z0-9.\\-é]{0,80}[ \\n]{0,2}"
}

/// Strings close to phone numbers: digits, separators, a + and now and then a stray character.
fn near_phone() -> impl Strategy<Value = String> {
    "[ ]{0,2}\\+?[0-9 ().\\-\u{2013}+x]{0,18}[ ]{0,2}"
}

/// Strings close to ZIP codes.
fn near_zip() -> impl Strategy<Value = String> {
    "[ ]{0,1}[0-9]{4,6}(-[0-9]{3,5})?[ ]{0,1}"
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
        let _ = Phone::parse(&email);
        let _ = Zip::parse(&email);
        let _ = State::parse(&email);
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

    #[test]
    fn accepted_phones_are_e164_us_numbers_with_the_digits_given(raw in prop_oneof![near_phone(), any::<String>()]) {
        if let Ok(phone) = Phone::parse(&raw) {
            let e164 = phone.as_str();
            prop_assert_eq!(e164.len(), 12);
            prop_assert!(e164.starts_with("+1") && e164[1..].bytes().all(|b| b.is_ascii_digit()));
            prop_assert!(e164.as_bytes()[2] >= b'2' && e164.as_bytes()[5] >= b'2');
            let digits: String = raw.chars().filter(char::is_ascii_digit).collect();
            prop_assert!(e164.ends_with(&digits) || format!("+{digits}") == e164, "{} from {:?}", e164, raw);
            prop_assert_eq!(Phone::parse(e164), Ok(phone.clone()));
            prop_assert_eq!(Phone::parse(&phone.national()), Ok(phone.clone()));
        }
    }

    #[test]
    fn accepted_zips_are_their_first_five_digits_and_stable(raw in prop_oneof![near_zip(), any::<String>()]) {
        if let Ok(zip) = Zip::parse(&raw) {
            let code = zip.as_str();
            prop_assert_eq!(code, &raw.trim()[..5]);
            prop_assert!(code.len() == 5 && code.bytes().all(|b| b.is_ascii_digit()));
            prop_assert_eq!(Zip::parse(code), Ok(zip.clone()));
        }
    }
}
