//! `backend check` as a broker runs it (`make check-content`): on the example content it lists each
//! example value by its key and exits non-zero; on a copy with every one replaced it exits 0.

use std::path::{Path, PathBuf};
use std::process::Command;

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../content")
}

/// `backend check` on `content`: whether it passed, and what it printed.
fn check(content: &Path) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_backend"))
        .env_clear()
        .env("CONTENT_DIR", content)
        .arg("check")
        .output()
        .expect("the backend binary runs");
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn the_example_is_refused_naming_each_value_and_a_copy_without_them_passes() {
    let (ok, stdout, stderr) = check(&example());
    assert!(!ok);
    for key in [
        "brand.url: https://www.clearharbor.example/ is an example address",
        "testimonials.items[2]: Sofia Marquez",
        "about.stats[0]: \"200k+ Satisfied Clients\"",
        "partners.items[7]: Hollowmere Insurance",
        "medicareDisclaimer.organizations, medicareDisclaimer.products: 8 and 24",
        "broker.email, broker.phone: both empty",
    ] {
        assert!(
            stdout.contains(&format!("site.yaml: {key}")),
            "{key} in:\n{stdout}"
        );
    }
    assert!(
        stderr.starts_with("error: 18 example value(s) still in "),
        "{stderr}"
    );

    let copy = tempfile::tempdir().unwrap();
    std::fs::create_dir(copy.path().join("es")).unwrap();
    std::fs::copy(
        example().join("es/site.yaml"),
        copy.path().join("es/site.yaml"),
    )
    .unwrap();
    let mut site = std::fs::read_to_string(example().join("site.yaml"))
        .unwrap()
        .replace(
            "https://www.clearharbor.example/",
            "https://www.harborline.test/",
        )
        .replace("Clearharbor Health", "Harborline Benefits")
        .replace("organizations: 8", "organizations: 3")
        .replace(
            "  # email: hello@example.com\n",
            "  email: help@harborline.test\n",
        )
        .replace("{ value: 200k+,", "{ value: \"1,200\",")
        .replace("{ value: 20+,", "{ value: \"12\",")
        .replace("{ value: 32+,", "{ value: \"4\",");
    for (i, name) in ["Margaret Ellison", "Daniel Okafor", "Sofia Marquez"]
        .iter()
        .enumerate()
    {
        site = site.replace(&format!("name: {name}"), &format!("name: Client {i}"));
    }
    for (i, name) in [
        "Alderbrook Assurance",
        "Bluefen Health",
        "Corvane Mutual",
        "Driftwell Care",
    ]
    .iter()
    .chain(&[
        "Eastmere Life",
        "Fairholt Benefits",
        "Granite Vale Health",
        "Hollowmere Insurance",
    ])
    .enumerate()
    {
        site = site.replace(&format!("name: {name},"), &format!("name: Carrier {i},"));
    }
    std::fs::write(copy.path().join("site.yaml"), site).unwrap();
    let (ok, stdout, stderr) = check(copy.path());
    assert!(ok, "{stdout}{stderr}");
    assert!(
        stdout.ends_with("site.yaml: no example value left\n"),
        "{stdout}"
    );
}
