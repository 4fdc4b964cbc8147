//! `backend check`: whether the content folder still holds the example broker's values, which
//! must not go live (42 CFR 422.2262: no misleading marketing; the example's testimonials,
//! figures and partners are fictional, and its address is not the broker's). Each one still in
//! place is listed by its key; the command fails while any is left. The content is read as
//! `backend assistant push` reads it (`assistant_push::site_content`).

use std::path::Path;

use url::Url;

use super::assistant_push::site_content::{self, SiteContent};
use crate::settings::assistant_push::AssistantPushSettings;

/// The example's name for the broker (content/site.yaml as shipped).
const EXAMPLE_BRAND: &str = "Clearharbor Health";
/// The example's fictional clients.
const EXAMPLE_TESTIMONIALS: [&str; 3] = ["Margaret Ellison", "Daniel Okafor", "Sofia Marquez"];
/// The example's figures, each value with its label.
const EXAMPLE_STATS: [(&str, &str); 3] = [
    ("200k+", "Satisfied Clients"),
    ("20+", "Years Experience"),
    ("32+", "Industry Awards"),
];
/// The example's fictional insurers.
const EXAMPLE_PARTNERS: [&str; 8] = [
    "Alderbrook Assurance",
    "Bluefen Health",
    "Corvane Mutual",
    "Driftwell Care",
    "Eastmere Life",
    "Fairholt Benefits",
    "Granite Vale Health",
    "Hollowmere Insurance",
];
/// The example's disclaimer counts: organizations, products.
const EXAMPLE_DISCLAIMER_COUNTS: (u32, u32) = (8, 24);
/// The domains kept for examples (RFC 2606): `.example`, and example.com, .net and .org.
const EXAMPLE_DOMAINS: [&str; 3] = ["example.com", "example.net", "example.org"];

/// Whether `url` is an address kept for examples, which no live site has.
pub fn is_example_address(url: &str) -> bool {
    let Some(host) = Url::parse(url)
        .ok()
        .and_then(|url| url.host_str().map(str::to_ascii_lowercase))
    else {
        return false;
    };
    let host = host.trim_end_matches('.');
    host == "example"
        || host.ends_with(".example")
        || EXAMPLE_DOMAINS
            .iter()
            .any(|domain| host == *domain || host.ends_with(&format!(".{domain}")))
}

/// Each example value still in `content`, as a line naming its key.
pub fn example_values(content: &SiteContent) -> Vec<String> {
    let mut found = Vec::new();
    if is_example_address(&content.brand.url) {
        found.push(format!(
            "brand.url: {} is an example address; expected the site's own https:// address",
            content.brand.url
        ));
    }
    if content.brand.name == EXAMPLE_BRAND {
        found.push(format!(
            "brand.name: {EXAMPLE_BRAND} is the example's broker"
        ));
    }
    for (i, item) in content.testimonials.items.iter().enumerate() {
        if EXAMPLE_TESTIMONIALS.contains(&item.name.as_str()) {
            found.push(format!(
                "testimonials.items[{i}]: {} is the example's fictional client",
                item.name
            ));
        }
    }
    for (i, stat) in content.about.stats.iter().enumerate() {
        if EXAMPLE_STATS.contains(&(stat.value.as_str(), stat.label.as_str())) {
            found.push(format!(
                "about.stats[{i}]: \"{} {}\" is the example's figure",
                stat.value, stat.label
            ));
        }
    }
    for (i, item) in content.partners.items.iter().enumerate() {
        if EXAMPLE_PARTNERS.contains(&item.name.as_str()) {
            found.push(format!(
                "partners.items[{i}]: {} is the example's fictional insurer",
                item.name
            ));
        }
    }
    let disclaimer = &content.medicare_disclaimer;
    if (disclaimer.organizations, disclaimer.products) == EXAMPLE_DISCLAIMER_COUNTS {
        found.push(format!(
            "medicareDisclaimer.organizations, medicareDisclaimer.products: {} and {} are the \
             example's counts; expected the organizations and products you represent",
            disclaimer.organizations, disclaimer.products
        ));
    }
    let blank = |value: &Option<String>| value.as_deref().is_none_or(|v| v.trim().is_empty());
    if blank(&content.broker.email) && blank(&content.broker.phone) {
        found.push(
            "broker.email, broker.phone: both empty; the privacy notice tells visitors to ask \
             for deletion through the contact details at the bottom of the page"
                .to_owned(),
        );
    }
    found
}

/// The command: reads the content folder (CONTENT_DIR, default content/), prints each example
/// value left, and fails while any is.
pub fn run() -> Result<(), String> {
    let settings = AssistantPushSettings::from_env().map_err(|e| e.to_string())?;
    check(&settings.content_dir)
}

fn check(content_dir: &Path) -> Result<(), String> {
    let content = SiteContent::load(content_dir)?;
    let found = example_values(&content);
    let file = content_dir.join(site_content::FILE);
    if found.is_empty() {
        println!("{}: no example value left", file.display());
        return Ok(());
    }
    for line in &found {
        println!("{}: {line}", file.display());
    }
    Err(format!(
        "{} example value(s) still in {}: replace each before going live",
        found.len(),
        file.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::super::assistant_push::site_content::example_dir;
    use super::*;

    /// A copy of the example's site.yaml and es/site.yaml in a temporary folder, site.yaml edited.
    fn copy(edit: impl FnOnce(String) -> String) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("es")).unwrap();
        let site = std::fs::read_to_string(example_dir().join("site.yaml")).unwrap();
        std::fs::write(dir.path().join("site.yaml"), edit(site)).unwrap();
        std::fs::copy(
            example_dir().join("es/site.yaml"),
            dir.path().join("es/site.yaml"),
        )
        .unwrap();
        dir
    }

    #[test]
    fn the_example_names_every_example_value_by_its_key() {
        let content = SiteContent::load(&example_dir()).unwrap();
        let found = example_values(&content);
        let keys: Vec<&str> = found
            .iter()
            .map(|line| line.split(": ").next().unwrap())
            .collect();
        assert_eq!(
            keys,
            [
                "brand.url",
                "brand.name",
                "testimonials.items[0]",
                "testimonials.items[1]",
                "testimonials.items[2]",
                "about.stats[0]",
                "about.stats[1]",
                "about.stats[2]",
                "partners.items[0]",
                "partners.items[1]",
                "partners.items[2]",
                "partners.items[3]",
                "partners.items[4]",
                "partners.items[5]",
                "partners.items[6]",
                "partners.items[7]",
                "medicareDisclaimer.organizations, medicareDisclaimer.products",
                "broker.email, broker.phone",
            ]
        );
        assert!(
            found[0].contains("https://www.clearharbor.example/"),
            "{}",
            found[0]
        );
        assert!(check(&example_dir())
            .unwrap_err()
            .starts_with("18 example value(s)"));
    }

    #[test]
    fn a_copy_without_the_example_values_passes() {
        let dir = copy(|site| {
            let mut site = site
                .replace(
                    "https://www.clearharbor.example/",
                    "https://www.harborline.test/",
                )
                .replace("Clearharbor Health", "Harborline Benefits")
                .replace("organizations: 8", "organizations: 3")
                .replace("products: 24", "products: 11")
                .replace(
                    "value: 200k+, label: Satisfied Clients",
                    "value: 1,200, label: Families helped",
                )
                .replace(
                    "value: 20+, label: Years Experience",
                    "value: \"12\", label: Years in Ohio",
                )
                .replace(
                    "value: 32+, label: Industry Awards",
                    "value: \"4\", label: Licensed agents",
                )
                .replace(
                    "  # email: hello@example.com\n",
                    "  email: help@harborline.test\n",
                );
            for (i, name) in EXAMPLE_TESTIMONIALS.iter().enumerate() {
                site = site.replace(&format!("name: {name}"), &format!("name: Client {i}"));
            }
            for (i, name) in EXAMPLE_PARTNERS.iter().enumerate() {
                site = site.replace(&format!("name: {name},"), &format!("name: Carrier {i},"));
            }
            site
        });
        let content = SiteContent::load(dir.path()).unwrap();
        assert_eq!(example_values(&content), Vec::<String>::new());
        check(dir.path()).unwrap();
    }

    #[test]
    fn one_value_left_is_named_alone() {
        let dir = copy(|site| {
            site.replace(
                "  # phone: \"(555) 010-0199\"\n",
                "  phone: \"(555) 010-0199\"\n",
            )
        });
        let content = SiteContent::load(dir.path()).unwrap();
        let found = example_values(&content);
        assert!(
            !found.iter().any(|line| line.starts_with("broker.")),
            "{found:?}"
        );
    }

    #[test]
    fn example_addresses_are_the_reserved_names() {
        for url in [
            "https://www.clearharbor.example/",
            "https://example.com/",
            "https://www.example.org/",
            "https://shop.EXAMPLE.net./",
        ] {
            assert!(is_example_address(url), "{url}");
        }
        for url in [
            "https://www.harborline.com/",
            "https://myexample.com/",
            "not a url",
        ] {
            assert!(!is_example_address(url), "{url}");
        }
    }
}
