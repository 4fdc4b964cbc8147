//! Names the commit the binary is built from, and whether the work tree had changes, for
//! `backend --version` (`BACKEND_BUILD`). Built from a tarball without git: "commit unknown".

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

fn main() {
    // A tarball unpacked inside another repository (a home directory kept in git) is not that
    // repository's commit.
    let ours = git(&["rev-parse", "--show-toplevel"])
        .is_some_and(|top| Path::new(&top).join("backend/build.rs").exists());
    let commit = ours
        .then(|| git(&["rev-parse", "--short=12", "HEAD"]))
        .flatten();
    let build = match commit {
        Some(commit) => {
            // Tracked files only: an untracked scratch file is not part of the build. A build
            // does not write the repository (git refreshes its index on status otherwise).
            let clean = git(&[
                "--no-optional-locks",
                "status",
                "--porcelain",
                "--untracked-files=no",
            ])
            .is_some_and(|changes| changes.is_empty());
            let tree = if clean { "clean tree" } else { "modified tree" };
            format!("commit {commit}, {tree}")
        }
        None => "commit unknown".to_owned(),
    };
    println!("cargo:rustc-env=BACKEND_BUILD={build}");
    // Again when the commit or the sources (the workspace's Rust) change; the front end's
    // changes show once the backend is rebuilt. Not on the index, which any `git status` on the
    // machine may rewrite: `make test` compiled the backend twice more for that (docs/figures.md,
    // "Set-up").
    if let Some(git_dir) = git(&["rev-parse", "--git-dir"]) {
        println!(
            "cargo:rerun-if-changed={}",
            Path::new(&git_dir).join("HEAD").display()
        );
    }
    if let Some(common) = git(&["rev-parse", "--git-common-dir"]) {
        println!(
            "cargo:rerun-if-changed={}",
            Path::new(&common).join("refs").display()
        );
    }
    for path in [
        "src",
        "tests",
        "build.rs",
        "Cargo.toml",
        "../wasm-core/src",
        "../Cargo.lock",
    ] {
        println!("cargo:rerun-if-changed={path}");
    }
}
