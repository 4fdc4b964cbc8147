//! The admin password: hashed with Argon2id (the `argon2` crate's defaults, OWASP's minimum:
//! 19 MiB, 2 passes, 1 lane) into a PHC string that carries its own salt and parameters.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

/// Shorter passwords are refused by `backend hash-password`: the hash is only as strong as
/// what it hides.
pub const MIN_PASSWORD_CHARS: usize = 12;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PasswordError {
    #[error("the password must be at least {MIN_PASSWORD_CHARS} characters long")]
    TooShort,
    #[error("hashing failed: {0}")]
    Hashing(String),
}

pub fn hash(password: &str) -> Result<String, PasswordError> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(PasswordError::TooShort);
    }
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| PasswordError::Hashing(e.to_string()))
}

/// Whether `password` is the one `phc` was made from (in constant time, by the crate). Slow on
/// purpose (tens of milliseconds): call it off the async runtime.
pub fn verify(phc: &str, password: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|hash| {
        Argon2::default()
            .verify_password(password.as_bytes(), &hash)
            .is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_and_differ_by_salt() {
        let a = hash("correct horse battery").unwrap();
        let b = hash("correct horse battery").unwrap();
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{a}");
        assert_ne!(a, b);
        assert!(verify(&a, "correct horse battery"));
        assert!(!verify(&a, "correct horse batterY"));
        assert!(!verify("not a hash", "correct horse battery"));
        assert_eq!(hash("short"), Err(PasswordError::TooShort));
    }
}
