//! The states, and the other places with a USPS state code, a ZIP code can belong to.

/// Declares [`State`] and its tables from one list, so a code and its name cannot drift apart.
macro_rules! states {
    ($($(#[$doc:meta])* $code:ident $name:literal,)*) => {
        /// A US state, DC, a territory, a freely associated state or an armed forces "state"
        /// (APO, FPO and DPO addresses): a place with a USPS two-letter code. Each variant is
        /// named by its code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum State {
            $($(#[$doc])* $code,)*
        }

        impl State {
            /// Every one: the 50 states and DC, by name; then the territories, the freely
            /// associated states and the armed forces.
            pub const ALL: &'static [State] = &[$(State::$code,)*];

            /// The USPS two-letter code, e.g. `"TX"`.
            pub fn code(self) -> &'static str {
                match self {
                    $(State::$code => stringify!($code),)*
                }
            }

            /// The English name, e.g. `"Texas"`.
            pub fn name(self) -> &'static str {
                match self {
                    $(State::$code => $name,)*
                }
            }
        }
    };
}

states! {
    AL "Alabama",
    AK "Alaska",
    AZ "Arizona",
    AR "Arkansas",
    CA "California",
    CO "Colorado",
    CT "Connecticut",
    DE "Delaware",
    DC "District of Columbia",
    FL "Florida",
    GA "Georgia",
    HI "Hawaii",
    ID "Idaho",
    IL "Illinois",
    IN "Indiana",
    IA "Iowa",
    KS "Kansas",
    KY "Kentucky",
    LA "Louisiana",
    ME "Maine",
    MD "Maryland",
    MA "Massachusetts",
    MI "Michigan",
    MN "Minnesota",
    MS "Mississippi",
    MO "Missouri",
    MT "Montana",
    NE "Nebraska",
    NV "Nevada",
    NH "New Hampshire",
    NJ "New Jersey",
    NM "New Mexico",
    NY "New York",
    NC "North Carolina",
    ND "North Dakota",
    OH "Ohio",
    OK "Oklahoma",
    OR "Oregon",
    PA "Pennsylvania",
    RI "Rhode Island",
    SC "South Carolina",
    SD "South Dakota",
    TN "Tennessee",
    TX "Texas",
    UT "Utah",
    VT "Vermont",
    VA "Virginia",
    WA "Washington",
    WV "West Virginia",
    WI "Wisconsin",
    WY "Wyoming",
    AS "American Samoa",
    GU "Guam",
    MP "Northern Mariana Islands",
    PR "Puerto Rico",
    VI "U.S. Virgin Islands",
    FM "Federated States of Micronesia",
    MH "Marshall Islands",
    PW "Palau",
    /// The Americas except Canada.
    AA "Armed Forces Americas",
    /// Europe, the Middle East, Africa and Canada.
    AE "Armed Forces Europe",
    AP "Armed Forces Pacific",
}

impl State {
    /// A two-letter code or an English name as [`State::name`] spells it, in any case, after
    /// trimming surrounding white space: `"tx"`, `"Texas"`, `" NEW YORK "`.
    pub fn parse(raw: &str) -> Option<State> {
        let value = raw.trim();
        State::ALL
            .iter()
            .copied()
            .find(|s| s.code().eq_ignore_ascii_case(value) || s.name().eq_ignore_ascii_case(value))
    }

    /// One of the 50 states, DC or a territory (where a broker can hold a licence), as opposed to
    /// a freely associated state or an armed forces code.
    pub fn is_state_dc_or_territory(self) -> bool {
        (self as usize) <= (State::VI as usize)
    }

    /// One of the 50 states or DC, as opposed to a territory, a freely associated state or an
    /// armed forces code.
    pub fn is_state_or_dc(self) -> bool {
        (self as usize) <= (State::WY as usize)
    }
}

/// Run natively (`cargo test`) and as wasm (`wasm-pack test --node`).
#[cfg(test)]
mod tests {
    use super::*;

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn there_are_62_codes_each_two_capital_letters_and_unique() {
        assert_eq!(State::ALL.len(), 62);
        let mut codes: Vec<_> = State::ALL.iter().map(|s| s.code()).collect();
        assert!(codes
            .iter()
            .all(|c| c.len() == 2 && c.bytes().all(|b| b.is_ascii_uppercase())));
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), 62);
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn fifty_states_and_dc_come_first() {
        let states: Vec<_> = State::ALL.iter().filter(|s| s.is_state_or_dc()).collect();
        assert_eq!(states.len(), 51);
        assert!(State::DC.is_state_or_dc() && State::WY.is_state_or_dc());
        for other in [
            State::PR,
            State::GU,
            State::VI,
            State::AS,
            State::MP,
            State::AE,
        ] {
            assert!(!other.is_state_or_dc(), "{other:?}");
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn codes_and_names() {
        assert_eq!(State::TX.code(), "TX");
        assert_eq!(State::TX.name(), "Texas");
        assert_eq!(State::DC.name(), "District of Columbia");
        assert_eq!(State::VI.name(), "U.S. Virgin Islands");
        assert_eq!(State::AP.code(), "AP");
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn a_licence_can_be_held_in_a_state_dc_or_territory_only() {
        for place in ["TX", "District of Columbia", "Guam", "VI"] {
            assert!(
                State::parse(place).unwrap().is_state_dc_or_territory(),
                "{place}"
            );
        }
        for place in ["Palau", "AE", "FM"] {
            assert!(
                !State::parse(place).unwrap().is_state_dc_or_territory(),
                "{place}"
            );
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn parses_codes_and_names_in_any_case() {
        assert_eq!(State::parse("TX"), Some(State::TX));
        assert_eq!(State::parse(" tx\n"), Some(State::TX));
        assert_eq!(State::parse("Illinois"), Some(State::IL));
        assert_eq!(State::parse("new york"), Some(State::NY));
        assert_eq!(State::parse("DISTRICT OF COLUMBIA"), Some(State::DC));
        assert_eq!(State::parse("Puerto Rico"), Some(State::PR));
        for state in State::ALL {
            assert_eq!(State::parse(state.code()), Some(*state));
            assert_eq!(State::parse(state.name()), Some(*state));
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn refuses_what_is_not_a_code_or_name() {
        for bad in [
            "",
            "T",
            "TXX",
            "XX",
            "Tex",
            "New  York",
            "Texas!",
            "Ontario",
            "ON",
        ] {
            assert_eq!(State::parse(bad), None, "{bad:?}");
        }
    }
}
