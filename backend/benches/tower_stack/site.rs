//! The built site the bench serves: a home page (whose form token the quote posts carry) and
//! one hashed asset with the `.br` and `.gz` siblings the front end's build writes, of fixed
//! content, so every run serves the same bytes.

use std::path::{Path, PathBuf};

pub const ASSET: &str = "/assets/app-1a2b3c.js";
const ASSET_BYTES: usize = 48 * 1024;
const BROTLI_BYTES: usize = 12 * 1024;
const GZIP_BYTES: usize = 14 * 1024;

/// Writes the site under `dir` and returns its folder.
pub fn write(dir: &Path) -> PathBuf {
    let site = dir.join("dist");
    std::fs::create_dir_all(site.join("assets")).expect("site folder");
    let page = "<!doctype html><title>Home</title><form id=quote></form>";
    std::fs::write(site.join("index.html"), page).expect("index.html");
    std::fs::write(site.join("404.html"), "<!doctype html><title>404</title>").expect("404");
    let asset = site.join(ASSET.trim_start_matches('/'));
    std::fs::write(&asset, filler(ASSET_BYTES, b'a')).expect("asset");
    std::fs::write(with_suffix(&asset, ".br"), filler(BROTLI_BYTES, 0)).expect(".br");
    std::fs::write(with_suffix(&asset, ".gz"), filler(GZIP_BYTES, 0)).expect(".gz");
    site
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// `len` bytes from a fixed sequence: letters from `base` on, or any byte when `base` is 0
/// (the compressed siblings).
fn filler(len: usize, base: u8) -> Vec<u8> {
    let mut state: u32 = 0x2545_f491;
    (0..len)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let byte = (state >> 24) as u8;
            if base == 0 {
                byte
            } else {
                base + byte % 26
            }
        })
        .collect()
}
