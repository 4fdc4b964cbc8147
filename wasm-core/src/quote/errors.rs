use serde::Serialize;

/// Shown under the product dropdown (docs/product.md §5).
pub const PRODUCT_MESSAGE: &str = "Please select a product";
/// Shown under the e-mail input (docs/product.md §5).
pub const EMAIL_MESSAGE: &str = "Please enter a valid email address";
/// Shown under the phone input, when the broker turns it on (`quote.fields`).
pub const PHONE_MESSAGE: &str = "Please enter a valid US phone number";
/// Shown under the ZIP code input, when the broker turns it on (`quote.fields`).
pub const ZIP_MESSAGE: &str = "Please enter a valid 5-digit ZIP code";

/// The per-field messages of a rejected quote request; a field without a problem is `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FieldErrors {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub product: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zip: Option<&'static str>,
}

impl FieldErrors {
    /// Both sets of problems, as one (each field's own, where it has one).
    pub fn and(self, other: FieldErrors) -> FieldErrors {
        FieldErrors {
            product: self.product.or(other.product),
            email: self.email.or(other.email),
            phone: self.phone.or(other.phone),
            zip: self.zip.or(other.zip),
        }
    }
}
