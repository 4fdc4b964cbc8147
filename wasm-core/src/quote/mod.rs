//! The quote request: a product and an e-mail address, only ever held in valid form; and the
//! rules of the fields a broker can add to it, a US phone number and a ZIP code with its state.

mod contact;
mod email;
mod errors;
mod phone;
mod product;
mod request;
mod state;
mod zip;
mod zip_table;

#[cfg(target_arch = "wasm32")]
pub mod bindings;

pub use contact::{ContactDetails, ContactInput, ContactRules, FieldRule};
pub use email::{Email, MAX_EMAIL_LEN, MAX_LOCAL_PART_LEN};
pub use errors::{FieldErrors, EMAIL_MESSAGE, PHONE_MESSAGE, PRODUCT_MESSAGE, ZIP_MESSAGE};
pub use phone::{Phone, PhoneError};
pub use product::Product;
pub use request::QuoteRequest;
pub use state::State;
pub use zip::{Zip, ZipError};
