//! The quote request: a product and an e-mail address, only ever held in valid form.

mod email;
mod errors;
mod product;
mod request;

#[cfg(target_arch = "wasm32")]
pub mod bindings;

pub use email::{Email, MAX_EMAIL_LEN, MAX_LOCAL_PART_LEN};
pub use errors::{FieldErrors, EMAIL_MESSAGE, PRODUCT_MESSAGE};
pub use product::Product;
pub use request::QuoteRequest;
