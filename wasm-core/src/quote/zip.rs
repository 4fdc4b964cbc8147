//! What "a valid ZIP code" means here, for the browser and the server alike, and which state it
//! is in.
//!
//! The rule, after trimming surrounding white space:
//!
//! * five digits, `12345`; or ZIP+4, `12345-6789` (what browsers' address autofill often gives),
//!   kept as its first five digits, since a quote needs no more;
//! * its 3-digit prefix assigned by USPS: the state is the prefix's (from the table in
//!   `zip_table.rs`, generated from public USPS-derived data, see `wasm-core/scripts/zip_table.py`),
//!   except for the few ZIP codes listed there one by one (Fishers Island NY in Connecticut's 063,
//!   American Samoa in Hawaii's 967, Saipan MP and the freely associated states in Guam's 969).
//!
//! Whether the five digits are a ZIP code USPS delivers to is not checked (that would take a list
//! of some 42,000 codes): `20599` passes as DC, as its prefix `205` is DC's. A ZIP code created
//! later in an existing prefix, for another state than the prefix's, would be given the prefix's.

use std::fmt;

use super::zip_table::{EXCEPTIONS, PREFIX_RUNS};
use super::State;

/// A 5-digit ZIP code with an assigned prefix, and the state it is in.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Zip {
    code: String,
    state: State,
}

/// Why a ZIP code was refused; [`ZipError::code`] is the stable name the form and the server
/// pick their message with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ZipError {
    /// Nothing but white space.
    Empty,
    /// Not five digits, nor five digits, a hyphen and four digits.
    Malformed,
    /// Five digits whose first three are a prefix USPS has not assigned (`00012`, `21301`).
    UnassignedPrefix,
}

impl ZipError {
    pub const ALL: [ZipError; 3] = [
        ZipError::Empty,
        ZipError::Malformed,
        ZipError::UnassignedPrefix,
    ];

    /// `"empty"`, `"malformed"` or `"unassigned_prefix"`.
    pub fn code(self) -> &'static str {
        match self {
            ZipError::Empty => "empty",
            ZipError::Malformed => "malformed",
            ZipError::UnassignedPrefix => "unassigned_prefix",
        }
    }
}

/// In English, for logs and error values; the page's words for each reason are the content's.
impl fmt::Display for ZipError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ZipError::Empty => "no ZIP code was given",
            ZipError::Malformed => "a ZIP code has 5 digits",
            ZipError::UnassignedPrefix => "no ZIP code starts with these three digits",
        })
    }
}

impl std::error::Error for ZipError {}

impl Zip {
    pub fn parse(raw: &str) -> Result<Zip, ZipError> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(ZipError::Empty);
        }
        let bytes = raw.as_bytes();
        let five = match bytes.len() {
            5 => bytes,
            10 if bytes[5] == b'-' && bytes[6..].iter().all(u8::is_ascii_digit) => &bytes[..5],
            _ => return Err(ZipError::Malformed),
        };
        if !five.iter().all(u8::is_ascii_digit) {
            return Err(ZipError::Malformed);
        }
        let number = five.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0'));
        let state = state_of(number).ok_or(ZipError::UnassignedPrefix)?;
        Ok(Zip {
            // From the bytes: slicing the str would pull panic code into the wasm file.
            code: five.iter().map(|&d| char::from(d)).collect(),
            state,
        })
    }

    /// The five digits, `"20500"`.
    pub fn as_str(&self) -> &str {
        &self.code
    }

    pub fn state(&self) -> State {
        self.state
    }
}

/// The state of a ZIP code given as a number below 100,000, or `None` for an unassigned prefix.
fn state_of(zip: u32) -> Option<State> {
    if let Ok(i) = EXCEPTIONS.binary_search_by_key(&zip, |&(z, _)| z) {
        return Some(EXCEPTIONS[i].1);
    }
    let prefix = u16::try_from(zip / 100).ok()?;
    let i = PREFIX_RUNS.partition_point(|&(_, last, _)| last < prefix);
    match PREFIX_RUNS.get(i) {
        Some(&(first, _, state)) if first <= prefix => Some(state),
        _ => None,
    }
}

/// Run natively (`cargo test`) and as wasm (`wasm-pack test --node`).
#[cfg(test)]
mod tests {
    use super::*;

    fn state(raw: &str) -> Result<&'static str, ZipError> {
        Zip::parse(raw).map(|z| z.state().code())
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn the_tables_are_sorted_and_disjoint() {
        for run in PREFIX_RUNS {
            assert!(run.0 <= run.1 && run.1 < 1000, "{run:?}");
        }
        for pair in PREFIX_RUNS.windows(2) {
            assert!(pair[0].1 < pair[1].0, "{pair:?}");
        }
        for pair in EXCEPTIONS.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{pair:?}");
        }
        for &(zip, state) in EXCEPTIONS {
            let prefix = (zip / 100) as u16;
            let run = PREFIX_RUNS.iter().find(|r| r.0 <= prefix && prefix <= r.1);
            assert!(run.is_some_and(|r| r.2 != state), "{zip:05} {state:?}");
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn zip_codes_of_many_states() {
        for (zip, code) in [
            ("00501", "NY"), // the IRS in Holtsville, the lowest ZIP code
            ("00544", "NY"),
            ("00601", "PR"), // Adjuntas
            ("00802", "VI"), // St Thomas
            ("00901", "PR"), // San Juan
            ("01001", "MA"),
            ("02903", "RI"),
            ("03301", "NH"),
            ("04101", "ME"),
            ("05401", "VT"),
            ("06103", "CT"),
            ("06390", "NY"), // Fishers Island, in Connecticut's prefix
            ("07102", "NJ"),
            ("10001", "NY"),
            ("15213", "PA"),
            ("19901", "DE"),
            ("20001", "DC"),
            ("20500", "DC"), // the White House
            ("20101", "VA"), // Dulles, between DC's 200 and 202
            ("20588", "MD"), // in DC's prefix
            ("20598", "VA"),
            ("20850", "MD"),
            ("25301", "WV"),
            ("27601", "NC"),
            ("29201", "SC"),
            ("30301", "GA"),
            ("33101", "FL"),
            ("35203", "AL"),
            ("37201", "TN"),
            ("39201", "MS"),
            ("40202", "KY"),
            ("43215", "OH"),
            ("46204", "IN"),
            ("48226", "MI"),
            ("50309", "IA"),
            ("53202", "WI"),
            ("55401", "MN"),
            ("56901", "DC"), // federal agencies' prefix
            ("57501", "SD"),
            ("58501", "ND"),
            ("59601", "MT"),
            ("60601", "IL"),
            ("63101", "MO"),
            ("66603", "KS"),
            ("68501", "NE"),
            ("70112", "LA"),
            ("72201", "AR"),
            ("72643", "MO"), // in Arkansas' prefix
            ("73102", "OK"),
            ("73301", "TX"), // the IRS in Austin, in the middle of Oklahoma's prefixes
            ("73960", "TX"), // Texhoma, in Oklahoma's prefix
            ("75201", "TX"),
            ("79901", "TX"),
            ("80202", "CO"),
            ("82001", "WY"),
            ("83414", "WY"), // Alta, in Idaho's prefix
            ("83702", "ID"),
            ("84101", "UT"),
            ("85001", "AZ"),
            ("87501", "NM"),
            ("88510", "TX"), // El Paso's 885, after New Mexico's
            ("88888", "DC"),
            ("89501", "NV"),
            ("90210", "CA"),
            ("96799", "AS"), // Pago Pago, in Hawaii's prefix
            ("96813", "HI"),
            ("96910", "GU"), // Hagåtña
            ("96950", "MP"), // Saipan, in Guam's prefix
            ("96939", "PW"),
            ("96941", "FM"),
            ("96960", "MH"),
            ("97201", "OR"),
            ("98101", "WA"),
            ("99501", "AK"),
            ("99950", "AK"), // Ketchikan, the highest ZIP code
            ("99999", "AK"),
            ("34002", "AA"),
            ("09002", "AE"),
            ("09980", "AE"), // a DPO code the data files under NJ
            ("96201", "AP"),
        ] {
            assert_eq!(state(zip), Ok(code), "{zip}");
            assert_eq!(Zip::parse(zip).unwrap().as_str(), zip);
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn states_have_names() {
        let zip = Zip::parse("20500").unwrap();
        assert_eq!(zip.state(), State::DC);
        assert_eq!(zip.state().name(), "District of Columbia");
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn zip_plus_four_keeps_five_digits() {
        assert_eq!(Zip::parse("20500-0003").unwrap().as_str(), "20500");
        assert_eq!(Zip::parse(" 00501-9999\n").unwrap().as_str(), "00501");
        assert_eq!(state("96910-1234"), Ok("GU"));
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn trims_surrounding_white_space_only() {
        assert_eq!(Zip::parse("\t60601 ").unwrap().as_str(), "60601");
        assert_eq!(Zip::parse("606 01"), Err(ZipError::Malformed));
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn refuses_what_is_not_five_digits() {
        for bad in [
            "1234",
            "123456",
            "123456789",
            "12345-678",
            "12345-67890",
            "12345 6789",
            "12345_6789",
            "12345--678",
            "1234-56789",
            "-12345",
            "+12345",
            "1234a",
            "ABCDE",
            "12 345",
            "１２３４５",
            "1234５",
            "12345-６７８９",
            "60601\u{0}",
        ] {
            assert_eq!(Zip::parse(bad), Err(ZipError::Malformed), "{bad:?}");
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn refuses_unassigned_prefixes() {
        for bad in [
            "00000", "00012", "00499", "21301", "26999", "34301", "98765",
        ] {
            assert_eq!(Zip::parse(bad), Err(ZipError::UnassignedPrefix), "{bad}");
        }
        for prefix in [
            0, 1, 2, 3, 4, 213, 269, 343, 345, 348, 353, 419, 428, 429, 517, 518, 519, 529, 533,
            536, 552, 568, 578, 579, 589, 621, 632, 642, 643, 659, 663, 682, 694, 695, 696, 697,
            698, 699, 702, 709, 715, 732, 742, 771, 817, 818, 819, 839, 848, 849, 854, 858, 861,
            862, 866, 867, 868, 869, 872, 886, 887, 892, 896, 899, 909, 929, 987,
        ] {
            for last in ["00", "01", "50", "99"] {
                let zip = format!("{prefix:03}{last}");
                assert_eq!(Zip::parse(&zip), Err(ZipError::UnassignedPrefix), "{zip}");
            }
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn every_prefix_has_one_verdict() {
        let assigned = (0..1000)
            .filter(|p| Zip::parse(&format!("{p:03}45")).is_ok())
            .count();
        assert_eq!(assigned, 933);
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn nothing_is_empty() {
        assert_eq!(Zip::parse(""), Err(ZipError::Empty));
        assert_eq!(Zip::parse("  \n"), Err(ZipError::Empty));
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn codes_are_stable() {
        let codes: Vec<_> = ZipError::ALL.iter().map(|e| e.code()).collect();
        assert_eq!(codes, ["empty", "malformed", "unassigned_prefix"]);
    }
}
