//! Which files under `STATIC_DIR` may be served, found once at start.
//!
//! Only regular files inside the directory: a symbolic link counts only when it leads to a
//! regular file inside it (a link out of it would serve `/etc/passwd`, or a secret under an
//! `immutable` asset name); links to directories are never followed (one pointing at a parent
//! would recurse for ever), and neither are FIFOs, sockets or devices (reading a FIFO would hang
//! start-up). Whatever is skipped is logged with the reason; none of it stops start-up.
//!
//! Nothing whose path has a segment starting with `.` is served, except the top-level
//! `.well-known/`.

use std::collections::HashMap;
use std::io;
use std::path::{Component, Path, PathBuf};

/// The one dot-directory served (RFC 8615: `security.txt`, ACME challenges and the like).
const WELL_KNOWN: &str = ".well-known";

/// Every servable file: its URL path (`/assets/app.js`) and the file to read for it.
pub fn servable_files(dir: &Path) -> io::Result<HashMap<String, PathBuf>> {
    let root = dir.canonicalize()?;
    let mut files = HashMap::new();
    walk(&root, &root, &mut files)?;
    Ok(files)
}

fn walk(root: &Path, dir: &Path, files: &mut HashMap<String, PathBuf>) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let Ok(relative) = path.strip_prefix(root) else {
            continue;
        };
        if hidden(relative) {
            continue;
        }
        // The entry's own type: a link is not followed here.
        let kind = entry.file_type()?;
        let file = if kind.is_dir() {
            walk(root, &path, files)?;
            continue;
        } else if kind.is_file() {
            path.clone()
        } else if kind.is_symlink() {
            match followed(root, &path) {
                Ok(target) => target,
                Err(reason) => {
                    skipped(&path, &reason);
                    continue;
                }
            }
        } else {
            skipped(&path, "not a regular file");
            continue;
        };
        let url = format!("/{}", relative.to_string_lossy().replace('\\', "/"));
        files.insert(url, file);
    }
    Ok(())
}

/// The regular file inside `root` that `link` leads to, or why it is not served.
fn followed(root: &Path, link: &Path) -> Result<PathBuf, String> {
    let target = link
        .canonicalize()
        .map_err(|error| format!("the link cannot be followed: {error}"))?;
    let inside = target
        .strip_prefix(root)
        .map_err(|_| "the link leads out of STATIC_DIR".to_owned())?;
    if hidden(inside) {
        return Err("the link leads to a hidden file".into());
    }
    let metadata = std::fs::metadata(&target).map_err(|error| error.to_string())?;
    if !metadata.is_file() {
        return Err(
            "the link leads to a directory or a special file, which is not followed".into(),
        );
    }
    Ok(target)
}

/// A segment starting with `.`, other than the top-level `.well-known`.
fn hidden(relative: &Path) -> bool {
    relative
        .components()
        .enumerate()
        .any(|(i, part)| match part {
            Component::Normal(name) => {
                name.to_string_lossy().starts_with('.') && !(i == 0 && name == WELL_KNOWN)
            }
            _ => true,
        })
}

fn skipped(path: &Path, reason: &str) {
    tracing::warn!(path = %path.display(), reason, "static file skipped");
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::symlink;

    use super::*;

    #[test]
    fn only_regular_files_inside_the_directory_are_servable() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("passwd"), "root:x:0:0").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path();
        std::fs::create_dir_all(site.join("assets")).unwrap();
        std::fs::create_dir_all(site.join(".well-known")).unwrap();
        std::fs::write(site.join("index.html"), "home").unwrap();
        std::fs::write(site.join("assets/app.js"), "js").unwrap();
        std::fs::write(site.join(".env"), "SECRET=1").unwrap();
        std::fs::write(site.join(".well-known/security.txt"), "contact").unwrap();
        symlink(outside.path().join("passwd"), site.join("passwd")).unwrap();
        symlink(outside.path().join("passwd"), site.join("assets/leak.js")).unwrap();
        symlink(outside.path(), site.join("outside")).unwrap();
        symlink(site.join("loop"), site.join("loop")).unwrap();
        symlink(site.join("b"), site.join("a")).unwrap();
        symlink(site.join("a"), site.join("b")).unwrap();
        symlink(site, site.join("assets/parent")).unwrap();
        symlink(site.join(".env"), site.join("env.txt")).unwrap();
        symlink(site.join("missing"), site.join("dangling")).unwrap();
        symlink(site.join("index.html"), site.join("home.html")).unwrap();

        let files = servable_files(site).unwrap();
        let mut urls: Vec<&str> = files.keys().map(String::as_str).collect();
        urls.sort_unstable();
        assert_eq!(
            urls,
            [
                "/.well-known/security.txt",
                "/assets/app.js",
                "/home.html",
                "/index.html"
            ]
        );
        assert_eq!(
            std::fs::read_to_string(&files["/home.html"]).unwrap(),
            "home",
            "a link to a file inside is served as that file"
        );
    }
}
