//! Random tokens and their keyed hashes. The database only ever holds
//! HMAC-SHA256(server key, token), so a copy of the database alone lets nobody
//! take over a session or an invitation.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;
use std::fmt;
use std::sync::Arc;

/// The server's secret key (from `AIVET_SESSION_SECRET`).
#[derive(Clone)]
pub struct SecretKey(Arc<[u8]>);

impl SecretKey {
    pub const MIN_LEN: usize = 32;

    pub fn new(bytes: &[u8]) -> Option<SecretKey> {
        (bytes.len() >= Self::MIN_LEN).then(|| SecretKey(bytes.into()))
    }

    pub fn random() -> SecretKey {
        let mut b = [0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut b);
        SecretKey(b.as_slice().into())
    }

    /// The keyed hash under which a token is stored. `purpose` separates the
    /// token kinds, so a session id can never be used as an invitation.
    pub fn hash(&self, purpose: &str, token: &str) -> Vec<u8> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC accepts any key length");
        mac.update(purpose.as_bytes());
        mac.update(&[0]);
        mac.update(token.as_bytes());
        mac.finalize().into_bytes().to_vec()
    }

    /// Whether `hash` is the keyed hash of `token` for `purpose`, compared
    /// in constant time.
    pub fn verify(&self, purpose: &str, token: &str, hash: &[u8]) -> bool {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC accepts any key length");
        mac.update(purpose.as_bytes());
        mac.update(&[0]);
        mac.update(token.as_bytes());
        mac.verify_slice(hash).is_ok()
    }
}

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretKey(***)")
    }
}

/// A new 256-bit random token, URL-safe (43 characters).
pub fn new_token() -> String {
    let mut b = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut b);
    URL_SAFE_NO_PAD.encode(b)
}

/// Whether a string could be one of our tokens, before any lookup.
pub fn looks_like_token(s: &str) -> bool {
    s.len() == 43
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_hashes_keyed() {
        let a = new_token();
        assert!(looks_like_token(&a));
        assert_ne!(a, new_token());
        let k1 = SecretKey::random();
        let k2 = SecretKey::random();
        assert_eq!(k1.hash("session", &a), k1.hash("session", &a));
        assert_ne!(k1.hash("session", &a), k2.hash("session", &a));
        assert_ne!(k1.hash("session", &a), k1.hash("invite", &a));
        assert!(SecretKey::new(&[0; 31]).is_none());
        let h = k1.hash("device", &a);
        assert!(k1.verify("device", &a, &h));
        assert!(!k2.verify("device", &a, &h));
        assert!(!k1.verify("session", &a, &h));
    }
}
