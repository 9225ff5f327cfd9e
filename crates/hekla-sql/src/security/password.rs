//! Login passwords, kept only as salted slow hashes: PBKDF2-HMAC-SHA256
//! with a random salt per login and the iteration count stored beside the
//! hash, so the count can be raised later without invalidating old hashes.
//!
//! The stored form is one byte string: a format byte, the iteration count
//! (4 bytes, big-endian), the salt and the derived key. Neither the
//! password nor this byte string is ever logged, printed or shown by a
//! system view.

use hekla_types::{SqlError, SqlResult};
use sha2::Sha256;

/// The format byte of the stored form described above.
const FORMAT: u8 = 1;
/// Iterations for new hashes: about 40 ms on this machine's cores, slow
/// enough to make guessing expensive, fast enough for a pool of 200
/// connections to log in within seconds.
pub const ITERATIONS: u32 = 100_000;
const SALT_BYTES: usize = 16;
const KEY_BYTES: usize = 32;
const STORED_BYTES: usize = 1 + 4 + SALT_BYTES + KEY_BYTES;

/// A password's salted hash.
#[derive(Clone, PartialEq, Eq)]
pub struct PasswordHash {
    iterations: u32,
    salt: [u8; SALT_BYTES],
    key: [u8; KEY_BYTES],
}

/// Never shows the salt or the key, so a hash cannot leak through `{:?}`.
impl std::fmt::Debug for PasswordHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PasswordHash(PBKDF2-HMAC-SHA256, {} iterations)",
            self.iterations
        )
    }
}

impl PasswordHash {
    /// Hashes `password` with a fresh random salt.
    pub fn new(password: &str) -> SqlResult<PasswordHash> {
        let mut salt = [0u8; SALT_BYTES];
        getrandom::getrandom(&mut salt).map_err(|error| {
            // An operating-system failure, as SQL Server's 823 reports one.
            SqlError::new(
                823,
                24,
                3,
                format!("The operating system returned error '{error}' while reading random bytes for a password salt."),
            )
        })?;
        Ok(PasswordHash::with_salt(password, salt, ITERATIONS))
    }

    fn with_salt(password: &str, salt: [u8; SALT_BYTES], iterations: u32) -> PasswordHash {
        PasswordHash {
            iterations,
            salt,
            key: derive(password, &salt, iterations),
        }
    }

    /// Whether `password` is the one hashed, compared in constant time.
    pub fn matches(&self, password: &str) -> bool {
        let key = derive(password, &self.salt, self.iterations);
        key.iter()
            .zip(self.key.iter())
            .fold(0u8, |difference, (a, b)| difference | (a ^ b))
            == 0
    }

    /// The stored form.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(STORED_BYTES);
        bytes.push(FORMAT);
        bytes.extend_from_slice(&self.iterations.to_be_bytes());
        bytes.extend_from_slice(&self.salt);
        bytes.extend_from_slice(&self.key);
        bytes
    }

    /// Reads the stored form back; None if it is not one.
    pub fn from_bytes(bytes: &[u8]) -> Option<PasswordHash> {
        if bytes.len() != STORED_BYTES || bytes[0] != FORMAT {
            return None;
        }
        let iterations = u32::from_be_bytes(bytes[1..5].try_into().ok()?);
        if iterations == 0 {
            return None;
        }
        Some(PasswordHash {
            iterations,
            salt: bytes[5..5 + SALT_BYTES].try_into().ok()?,
            key: bytes[5 + SALT_BYTES..].try_into().ok()?,
        })
    }
}

/// Spends the time one password check takes without any stored hash, so
/// that an unknown login takes as long to refuse as a wrong password.
pub fn waste_one_check(password: &str) {
    let _ = derive(password, &[0u8; SALT_BYTES], ITERATIONS);
}

fn derive(password: &str, salt: &[u8], iterations: u32) -> [u8; KEY_BYTES] {
    let mut key = [0u8; KEY_BYTES];
    pbkdf2::pbkdf2_hmac::<Sha256>(password.as_bytes(), salt, iterations, &mut key);
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_matches_its_password_only() {
        let hash = PasswordHash::new("Correct-Horse-9").unwrap();
        assert!(hash.matches("Correct-Horse-9"));
        assert!(!hash.matches("correct-horse-9"));
        assert!(!hash.matches(""));
    }

    #[test]
    fn salts_differ_so_equal_passwords_hash_differently() {
        let a = PasswordHash::new("same").unwrap();
        let b = PasswordHash::new("same").unwrap();
        assert_ne!(a.to_bytes(), b.to_bytes());
        assert!(a.matches("same") && b.matches("same"));
    }

    #[test]
    fn the_stored_form_round_trips_with_its_iteration_count() {
        let hash = PasswordHash::with_salt("pw", [7; SALT_BYTES], 1000);
        let bytes = hash.to_bytes();
        assert_eq!(bytes.len(), STORED_BYTES);
        assert_eq!(&bytes[1..5], &1000u32.to_be_bytes());
        let back = PasswordHash::from_bytes(&bytes).unwrap();
        assert_eq!(back, hash);
        assert!(back.matches("pw"));
        assert!(!back.to_bytes().windows(2).any(|w| w == b"pw"));
    }

    #[test]
    fn damaged_stored_forms_are_refused() {
        let bytes = PasswordHash::with_salt("pw", [1; SALT_BYTES], 10).to_bytes();
        assert!(PasswordHash::from_bytes(&bytes[..bytes.len() - 1]).is_none());
        let mut wrong_format = bytes.clone();
        wrong_format[0] = 9;
        assert!(PasswordHash::from_bytes(&wrong_format).is_none());
        let mut no_iterations = bytes;
        no_iterations[1..5].copy_from_slice(&[0; 4]);
        assert!(PasswordHash::from_bytes(&no_iterations).is_none());
    }

    /// A known PBKDF2-HMAC-SHA256 answer (RFC 7914's test vector), so the
    /// hash is the standard function and not something that only agrees
    /// with itself.
    #[test]
    fn derivation_is_standard_pbkdf2_hmac_sha256() {
        let key = derive("passwd", b"salt", 1);
        assert_eq!(key[..8], [0x55, 0xac, 0x04, 0x6e, 0x56, 0xe3, 0x08, 0x9f]);
    }

    #[test]
    fn debug_output_shows_no_key_material() {
        let hash = PasswordHash::with_salt("pw", [0xAB; SALT_BYTES], 5);
        assert_eq!(
            format!("{hash:?}"),
            "PasswordHash(PBKDF2-HMAC-SHA256, 5 iterations)"
        );
    }
}
