//! The enums kept in the database by name (a lead's status, a channel, a language).

/// An enum's `as_str` from the name each variant is stored under; with `parse`, its `parse`
/// too, which answers `None` for a name no variant has.
macro_rules! stored_names {
    ($enum:ident, [$($variant:ident => $name:literal),+ $(,)?]) => {
        impl $enum {
            pub fn as_str(self) -> &'static str {
                match self {
                    $($enum::$variant => $name,)+
                }
            }
        }
    };
    ($enum:ident, parse, [$($variant:ident => $name:literal),+ $(,)?]) => {
        $crate::store::stored_names::stored_names!($enum, [$($variant => $name),+]);

        impl $enum {
            pub fn parse(text: &str) -> Option<$enum> {
                [$($enum::$variant),+].into_iter().find(|v| v.as_str() == text)
            }
        }
    };
}

pub(crate) use stored_names;
