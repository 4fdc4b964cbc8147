//! Booked calls (docs/product.md §13): the broker's hours as the content gives them (`hours`),
//! the zone's rules they are read in (`time_zone`), and the times still open to book
//! (`open_times`), computed once, natively (the server is to write them into the booking page and
//! check a booked time with `open_slot`). Plain Rust, not exported to the page's wasm: jiff would
//! have grown it from 37.2 to 140.3 KB gzip (docs/figures.md).

pub mod hours;
pub mod open_times;
pub mod time_zone;

pub use hours::{BookingSettings, Hours, HoursError};
pub use open_times::{open_slot, open_times, Slot};
