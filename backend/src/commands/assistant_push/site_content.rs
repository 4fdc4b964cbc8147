//! What the assistant's prompt takes from the site's content (`site.yaml` in the content folder,
//! checked in full by the front end's build): only these fields are read, the rest is ignored.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use wasm_core::Product;

use super::yaml_file;

pub const FILE: &str = "site.yaml";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteContent {
    pub brand: Brand,
    pub broker: Broker,
    pub medicare_disclaimer: MedicareDisclaimer,
    pub plans: Plans,
    /// The quote dropdown's label for each product value.
    products: BTreeMap<String, String>,
}

#[derive(Debug, Deserialize)]
pub struct Brand {
    pub name: String,
    /// The site's public address.
    pub url: String,
}

#[derive(Debug, Deserialize)]
pub struct Broker {
    pub phone: Option<String>,
    pub hours: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct Plans {
    pub items: Vec<Plan>,
}

#[derive(Debug, Deserialize)]
pub struct Plan {
    pub title: String,
    pub description: String,
}

/// The CMS third-party marketing disclaimer, as the page shows it.
#[derive(Debug, Deserialize)]
pub struct MedicareDisclaimer {
    variant: Variant,
    organizations: Option<u32>,
    products: Option<u32>,
    some: String,
    every: String,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Variant {
    Some,
    Every,
    None,
}

impl SiteContent {
    pub fn load(content_dir: &Path) -> Result<SiteContent, String> {
        yaml_file::read(&content_dir.join(FILE))
    }

    /// The five products the quote accepts (wasm-core's values, in its order), each with the
    /// page's label.
    pub fn products(&self) -> Vec<(&'static str, &str)> {
        Product::ALL
            .into_iter()
            .map(|product| {
                let label = self
                    .products
                    .get(product.as_str())
                    .map_or(product.label(), String::as_str);
                (product.as_str(), label)
            })
            .collect()
    }
}

impl MedicareDisclaimer {
    /// The text the page shows, or `None` when the broker does not show it.
    pub fn text(&self) -> Option<String> {
        let count = |n: Option<u32>| n.map_or_else(String::new, |n| n.to_string());
        match self.variant {
            Variant::None => None,
            Variant::Every => Some(self.every.clone()),
            Variant::Some => Some(
                self.some
                    .replace("{organizations}", &count(self.organizations))
                    .replace("{products}", &count(self.products)),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn example() -> SiteContent {
        SiteContent::load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../content")).unwrap()
    }

    #[test]
    fn the_example_content_is_read_with_its_disclaimer_numbers() {
        let content = example();
        assert_eq!(content.brand.name, "Clearharbor Health");
        assert_eq!(content.plans.items.len(), 4);
        let disclaimer = content.medicare_disclaimer.text().unwrap();
        assert!(
            disclaimer.contains("we represent 8 organizations which offer 24 products"),
            "{disclaimer}"
        );
    }

    #[test]
    fn the_products_are_wasm_cores_with_the_pages_labels() {
        let mut content = example();
        content
            .products
            .insert("employer".into(), "Plan de empresa".into());
        assert_eq!(
            content.products(),
            [
                ("medicare", "Medicare"),
                ("individual", "Individual Health"),
                ("family", "Family Health"),
                ("medicaid", "Medicaid"),
                ("employer", "Plan de empresa"),
            ]
        );
    }

    #[test]
    fn the_disclaimer_variants() {
        let mut disclaimer = example().medicare_disclaimer;
        disclaimer.variant = Variant::Every;
        assert!(disclaimer
            .text()
            .unwrap()
            .starts_with("We offer every plan"));
        disclaimer.variant = Variant::None;
        assert_eq!(disclaimer.text(), None);
    }
}
