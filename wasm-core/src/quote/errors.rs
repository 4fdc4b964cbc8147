use serde::Serialize;

/// Shown under the product dropdown (docs/product.md §5).
pub const PRODUCT_MESSAGE: &str = "Please select a product";
/// Shown under the e-mail input (docs/product.md §5).
pub const EMAIL_MESSAGE: &str = "Please enter a valid email address";

/// The per-field messages of a rejected quote request; a field without a problem is `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FieldErrors {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub product: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<&'static str>,
}
