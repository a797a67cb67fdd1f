//! Puts the git commit into `ferry --version` when the sources are a git checkout with git
//! installed; elsewhere (a source tarball, the Docker build) the version is the crate's alone.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (out.status.success() && !text.is_empty()).then(|| text.to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let version = env!("CARGO_PKG_VERSION");
    let commit = if Path::new(".git").exists() {
        // Build again when a commit is made or checked out.
        if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
            for file in ["HEAD", "logs/HEAD"] {
                let path = Path::new(&dir).join(file);
                if path.exists() {
                    println!("cargo:rerun-if-changed={}", path.display());
                }
            }
        }
        git(&["rev-parse", "--short", "HEAD"])
    } else {
        None
    };
    match commit {
        Some(c) => println!("cargo:rustc-env=FERRY_VERSION={version} ({c})"),
        None => println!("cargo:rustc-env=FERRY_VERSION={version}"),
    }
}
