//! The speaking detector for JavaScript (wasm32 only).

use wasm_bindgen::prelude::*;

/// One detector per audio source: the assistant's level for the ring, the visitor's microphone
/// for the silence hint.
#[wasm_bindgen(js_name = SpeakingDetector)]
pub struct JsSpeakingDetector(super::SpeakingDetector);

#[wasm_bindgen(js_class = SpeakingDetector)]
impl JsSpeakingDetector {
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsSpeakingDetector {
        JsSpeakingDetector(super::SpeakingDetector::new())
    }

    /// A level already on the 0..1 scale (the SDK's volume events); returns whether speaking.
    #[wasm_bindgen(js_name = feedLevel)]
    pub fn feed_level(&mut self, level: f64, now_ms: f64) -> bool {
        self.0.feed_level(level, now_ms)
    }

    /// A raw sum of participants' levels; returns whether speaking.
    #[wasm_bindgen(js_name = feedRawSum)]
    pub fn feed_raw_sum(&mut self, sum: f64, now_ms: f64) -> bool {
        self.0.feed_raw_sum(sum, now_ms)
    }

    pub fn advance(&mut self, now_ms: f64) {
        self.0.advance(now_ms);
    }

    #[wasm_bindgen(getter)]
    pub fn level(&self) -> f64 {
        self.0.level()
    }

    #[wasm_bindgen(getter)]
    pub fn speaking(&self) -> bool {
        self.0.is_speaking()
    }

    #[wasm_bindgen(getter, js_name = silentForMs)]
    pub fn silent_for_ms(&self) -> f64 {
        self.0.silent_for_ms()
    }
}

impl Default for JsSpeakingDetector {
    fn default() -> Self {
        JsSpeakingDetector::new()
    }
}
