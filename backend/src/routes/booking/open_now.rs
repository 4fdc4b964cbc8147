//! The times open to book right now: wasm-core's rule (`wasm_core::booking`) over the broker's
//! hours and the bookings taken, read from the store. The booking page and the assistant's
//! tools (`routes/voice_events/booking_tools.rs`) both ask here, so they offer the same times.

use jiff::Timestamp;
use wasm_core::booking::{open_slot, open_times, Hours, Slot};

use crate::store::bookings::Bookings;
use crate::store::StoreError;

/// The moment the times were read at, and the bookings taken then.
pub struct OpenNow {
    pub now: Timestamp,
    pub taken: Vec<Slot>,
}

impl OpenNow {
    /// The bookings not cancelled that end after now.
    pub async fn read(store: &(impl Bookings + ?Sized)) -> Result<OpenNow, StoreError> {
        let now = time::OffsetDateTime::now_utc();
        let taken = store
            .taken_times(now)
            .await?
            .into_iter()
            .filter_map(|(start, end)| {
                Some(Slot {
                    start: timestamp(start)?,
                    end: timestamp(end)?,
                })
            })
            .collect();
        let now = timestamp(now).unwrap_or_else(Timestamp::now);
        Ok(OpenNow { now, taken })
    }

    /// Every time open, in order.
    pub fn times(&self, hours: &Hours) -> Vec<Slot> {
        open_times(hours, self.now, &self.taken)
    }

    /// The open time that starts at `start`, if there is one.
    pub fn slot(&self, hours: &Hours, start: Timestamp) -> Option<Slot> {
        open_slot(hours, self.now, &self.taken, start)
    }

    /// Whether `start` would be open but for a booking taken (rather than never offered).
    pub fn taken_meanwhile(&self, hours: &Hours, start: Timestamp) -> bool {
        open_slot(hours, self.now, &[], start).is_some()
    }
}

fn timestamp(at: time::OffsetDateTime) -> Option<Timestamp> {
    Timestamp::from_nanosecond(at.unix_timestamp_nanos()).ok()
}

/// `at` as the store keeps times.
pub fn moment(at: Timestamp) -> time::OffsetDateTime {
    time::OffsetDateTime::from_unix_timestamp_nanos(at.as_nanosecond())
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH)
}
