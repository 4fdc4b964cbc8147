//! What "a valid phone number" means here, for the browser and the server alike: a US number of
//! the North American Numbering Plan, kept in E.164 form (`+15555550123`).
//!
//! The rule (white space anywhere is ignored, as a separator):
//!
//! * only digits and the punctuation people type or paste: white space, `.`, `-`, the Unicode
//!   hyphens and dashes (U+2010 to U+2015, U+2212), `(`, `)`, and one `+` before the first digit;
//!   a letter or anything else (`ext. 12`, `x12`, `#`, `/`, full-width digits) is refused;
//! * ten digits, or eleven when the first is the country code `1` (`1-555-555-0123`); with a `+`
//!   the number must start with that `1` (`+44 20…` is not a US number);
//! * the area code (the first of the ten digits) and the exchange (the fourth) start with 2 to 9.
//!
//! Nothing else is checked: N11 codes (`911`), unassigned area codes and the fictional `555-01xx`
//! numbers pass, since only a call can tell whether a number rings.

use std::fmt;

/// A US phone number that satisfies the rule above; [`Phone::as_str`] is its E.164 form.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Phone(String);

/// Why a phone number was refused, in the order they are checked; [`PhoneError::code`] is the
/// stable name the form and the server pick their message with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhoneError {
    /// Nothing but white space.
    Empty,
    /// A character that is neither a digit nor accepted punctuation, or a misplaced `+`.
    NotANumber,
    /// A `+` followed by another country code than 1.
    NotUs,
    /// Fewer than ten digits (after the `+1` when there is one).
    TooFewDigits,
    /// More than ten digits after an optional leading 1.
    TooManyDigits,
    /// The area code starts with 0 or 1.
    BadAreaCode,
    /// The exchange (digits 4 to 6) starts with 0 or 1.
    BadExchange,
}

impl PhoneError {
    pub const ALL: [PhoneError; 7] = [
        PhoneError::Empty,
        PhoneError::NotANumber,
        PhoneError::NotUs,
        PhoneError::TooFewDigits,
        PhoneError::TooManyDigits,
        PhoneError::BadAreaCode,
        PhoneError::BadExchange,
    ];

    /// `"empty"`, `"not_a_number"`, `"not_us"`, `"too_few_digits"`, `"too_many_digits"`,
    /// `"bad_area_code"` or `"bad_exchange"`.
    pub fn code(self) -> &'static str {
        match self {
            PhoneError::Empty => "empty",
            PhoneError::NotANumber => "not_a_number",
            PhoneError::NotUs => "not_us",
            PhoneError::TooFewDigits => "too_few_digits",
            PhoneError::TooManyDigits => "too_many_digits",
            PhoneError::BadAreaCode => "bad_area_code",
            PhoneError::BadExchange => "bad_exchange",
        }
    }
}

/// In English, for logs and error values; the page's words for each reason are the content's.
impl fmt::Display for PhoneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PhoneError::Empty => "no phone number was given",
            PhoneError::NotANumber => {
                "a phone number has only digits, spaces, dots, hyphens, parentheses and a leading +"
            }
            PhoneError::NotUs => "only US phone numbers (+1) are accepted",
            PhoneError::TooFewDigits => "a US phone number has 10 digits; this one has fewer",
            PhoneError::TooManyDigits => "a US phone number has 10 digits after an optional +1",
            PhoneError::BadAreaCode => "the area code cannot start with 0 or 1",
            PhoneError::BadExchange => {
                "the three digits after the area code cannot start with 0 or 1"
            }
        })
    }
}

impl std::error::Error for PhoneError {}

/// Digits kept: the ten of the number and a leading 1; a twelfth only says "too many".
const MAX_KEPT: usize = 11;

impl Phone {
    pub fn parse(raw: &str) -> Result<Phone, PhoneError> {
        // White space is a separator, so there is nothing to trim.
        let mut blank = true;
        let mut digits = [0u8; MAX_KEPT];
        let mut count = 0;
        let mut plus = false;
        for c in raw.chars() {
            match c {
                '0'..='9' => {
                    if count < MAX_KEPT {
                        digits[count] = c as u8; // ASCII
                    }
                    count += 1;
                }
                '+' if !plus && count == 0 => plus = true,
                _ if c.is_whitespace() => continue,
                _ if is_separator(c) => {}
                _ => return Err(PhoneError::NotANumber),
            }
            blank = false;
        }
        if blank {
            return Err(PhoneError::Empty);
        }
        if plus && count > 0 && digits[0] != b'1' {
            return Err(PhoneError::NotUs);
        }
        let national = match count {
            11 if digits[0] == b'1' => &digits[1..],
            10 if !plus => &digits[..10],
            // With a +, the 1 must be there, so ten digits are one too few.
            0..=10 => return Err(PhoneError::TooFewDigits),
            _ => return Err(PhoneError::TooManyDigits),
        };
        if national[0] < b'2' {
            return Err(PhoneError::BadAreaCode);
        }
        if national[3] < b'2' {
            return Err(PhoneError::BadExchange);
        }
        let mut e164 = String::with_capacity(12);
        e164.push_str("+1");
        e164.extend(national.iter().map(|&d| char::from(d)));
        Ok(Phone(e164))
    }

    /// The E.164 form, `+15555550123`: what is stored, sent and put in a `tel:` link.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The form people read, `(555) 555-0123`.
    pub fn national(&self) -> String {
        // Byte by byte: slicing a str or `format!` would pull panic and formatting code into
        // the wasm file.
        let mut text = String::with_capacity(14);
        for (i, &digit) in self.0.as_bytes().iter().skip(2).enumerate() {
            match i {
                0 => text.push('('),
                3 => text.push_str(") "),
                6 => text.push('-'),
                _ => {}
            }
            text.push(char::from(digit));
        }
        text
    }
}

/// Punctuation people put in phone numbers, or that comes with one pasted from a web page.
fn is_separator(c: char) -> bool {
    matches!(
        c,
        '.' | '-' | '(' | ')' | '\u{2010}'..='\u{2015}' | '\u{2212}'
    )
}

/// Run natively (`cargo test`) and as wasm (`wasm-pack test --node`).
#[cfg(test)]
mod tests {
    use super::*;

    fn e164(raw: &str) -> Result<String, PhoneError> {
        Phone::parse(raw).map(|p| p.as_str().to_owned())
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn accepts_the_common_ways_of_writing_a_number() {
        for raw in [
            "5555550123",
            "555-555-0123",
            "(555) 555-0123",
            "(555)555-0123",
            "555.555.0123",
            "555 555 0123",
            "+1 555 555 0123",
            "+1 (555) 555-0123",
            "+1-555-555-0123",
            "+1.555.555.0123",
            "+15555550123",
            "1-555-555-0123",
            "1 (555) 555-0123",
            "15555550123",
            "1.555.555.0123",
            "  555-555-0123\n",
            "555 - 555 - 0123",
            "(+1) 555 555 0123",
            "555\u{a0}555\u{a0}0123",
            "555\u{2011}555\u{2011}0123",
            "555\u{2013}555\u{2013}0123",
            "555\t555\t0123",
        ] {
            assert_eq!(e164(raw).as_deref(), Ok("+15555550123"), "{raw:?}");
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn keeps_every_digit_in_place() {
        assert_eq!(e164("(212) 736-5000").as_deref(), Ok("+12127365000"));
        assert_eq!(e164("1 907 200 9999").as_deref(), Ok("+19072009999"));
        assert_eq!(e164("+1 (787) 999-0001").as_deref(), Ok("+17879990001"));
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn the_display_form_is_the_us_one() {
        let phone = Phone::parse("+1 555.555.0123").unwrap();
        assert_eq!(phone.national(), "(555) 555-0123");
        assert_eq!(
            Phone::parse("2127365000").unwrap().national(),
            "(212) 736-5000"
        );
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn the_e164_form_parses_to_itself() {
        let phone = Phone::parse("(555) 555-0123").unwrap();
        assert_eq!(Phone::parse(phone.as_str()), Ok(phone.clone()));
        assert_eq!(Phone::parse(&phone.national()), Ok(phone));
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn refuses_area_codes_and_exchanges_starting_with_0_or_1() {
        assert_eq!(e164("055-555-0123"), Err(PhoneError::BadAreaCode));
        assert_eq!(e164("155-555-0123"), Err(PhoneError::BadAreaCode));
        assert_eq!(e164("+1 055 555 0123"), Err(PhoneError::BadAreaCode));
        assert_eq!(e164("1-155-555-0123"), Err(PhoneError::BadAreaCode));
        assert_eq!(e164("555-155-0123"), Err(PhoneError::BadExchange));
        assert_eq!(e164("555-055-0123"), Err(PhoneError::BadExchange));
        assert_eq!(e164("+1 555 055 0123"), Err(PhoneError::BadExchange));
        // Both wrong: the area code is named first.
        assert_eq!(e164("055-055-0123"), Err(PhoneError::BadAreaCode));
        // 2 to 9 are fine in both places.
        assert!(e164("255-255-0123").is_ok());
        assert!(e164("955-955-0123").is_ok());
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn counts_the_digits() {
        assert_eq!(e164("555-555-012"), Err(PhoneError::TooFewDigits)); // 9
        assert_eq!(e164("555-0123"), Err(PhoneError::TooFewDigits));
        assert_eq!(e164("5"), Err(PhoneError::TooFewDigits));
        assert_eq!(e164("()"), Err(PhoneError::TooFewDigits));
        assert_eq!(e164("+"), Err(PhoneError::TooFewDigits));
        assert_eq!(e164("+1"), Err(PhoneError::TooFewDigits));
        assert_eq!(e164("+1 555 555 012"), Err(PhoneError::TooFewDigits));
        assert_eq!(e164("1-555-555-012"), Err(PhoneError::BadAreaCode)); // read as 155-555-5012
        assert_eq!(e164("555-555-01234"), Err(PhoneError::TooManyDigits)); // 11 without the 1
        assert_eq!(e164("555-555-012345"), Err(PhoneError::TooManyDigits)); // 12
        assert_eq!(e164("1-555-555-01234"), Err(PhoneError::TooManyDigits)); // 12
        assert_eq!(e164("+1 555 555 01234"), Err(PhoneError::TooManyDigits));
        assert_eq!(e164("11-555-555-0123"), Err(PhoneError::TooManyDigits));
        assert_eq!(e164(&"5".repeat(1_000)), Err(PhoneError::TooManyDigits));
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn a_plus_needs_country_code_1() {
        assert_eq!(e164("+44 20 7946 0958"), Err(PhoneError::NotUs));
        assert_eq!(e164("+52 55 1234 5678"), Err(PhoneError::NotUs));
        assert_eq!(e164("+7 495 123 4567"), Err(PhoneError::NotUs));
        // Ten digits after a + are a country code and a short number, not a US number.
        assert_eq!(e164("+5555550123"), Err(PhoneError::NotUs));
        assert_eq!(e164("+ 1 555 555 0123").as_deref(), Ok("+15555550123"));
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn refuses_letters_and_other_characters() {
        for raw in [
            "555-555-CALL",
            "1-800-FLOWERS",
            "555-555-0123 ext. 4",
            "555-555-0123x4",
            "555-555-0123#",
            "555/555-0123",
            "555_555_0123",
            "555,555,0123",
            "555-555-O123",
            "+1 555 555 0123 +",
            "++1 555 555 0123",
            "1+555 555 0123",
            "555-555-0123+",
            "tel:+15555550123",
            "\u{ff15}\u{ff15}\u{ff15}5550123",
            "555-555-0123\u{0}",
            "abc",
        ] {
            assert_eq!(e164(raw), Err(PhoneError::NotANumber), "{raw:?}");
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn nothing_is_empty() {
        assert_eq!(e164(""), Err(PhoneError::Empty));
        assert_eq!(e164(" \t\n"), Err(PhoneError::Empty));
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn codes_are_stable_snake_case_and_distinct() {
        let codes: Vec<_> = PhoneError::ALL.iter().map(|e| e.code()).collect();
        assert_eq!(
            codes,
            [
                "empty",
                "not_a_number",
                "not_us",
                "too_few_digits",
                "too_many_digits",
                "bad_area_code",
                "bad_exchange"
            ]
        );
        assert!(PhoneError::ALL.iter().all(|e| !e.to_string().is_empty()));
    }
}
