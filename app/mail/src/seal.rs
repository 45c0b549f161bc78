//! Mails at rest are sealed (ChaCha20-Poly1305 with a key derived from the
//! server's secret): an invitation or answer link inside a queued mail is a
//! live credential, and a copy of the database alone must not reveal it.

use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use rand::RngCore;

#[derive(Clone)]
pub struct Sealer {
    cipher: ChaCha20Poly1305,
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sealer(***)")
    }
}

impl Sealer {
    /// From 32 bytes of key material.
    pub fn new(key: &[u8; 32]) -> Sealer {
        Sealer {
            cipher: ChaCha20Poly1305::new(Key::from_slice(key)),
        }
    }

    /// nonce (12 bytes) followed by the ciphertext and its tag.
    pub fn seal(&self, plain: &[u8]) -> Vec<u8> {
        let mut nonce = [0u8; 12];
        rand::rngs::OsRng.fill_bytes(&mut nonce);
        let mut out = nonce.to_vec();
        out.extend(
            self.cipher
                .encrypt(Nonce::from_slice(&nonce), plain)
                .expect("encryption cannot fail"),
        );
        out
    }

    pub fn open(&self, sealed: &[u8]) -> Option<Vec<u8>> {
        if sealed.len() < 12 {
            return None;
        }
        let (nonce, body) = sealed.split_at(12);
        self.cipher.decrypt(Nonce::from_slice(nonce), body).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_tamper_evidence() {
        let s = Sealer::new(&[7; 32]);
        let sealed = s.seal(b"https://aivet.test/invite/secret-token");
        assert!(!sealed.windows(12).any(|w| w == b"secret-token"));
        assert_eq!(
            s.open(&sealed).unwrap(),
            b"https://aivet.test/invite/secret-token"
        );
        let mut bad = sealed.clone();
        *bad.last_mut().unwrap() ^= 1;
        assert!(s.open(&bad).is_none());
        assert!(Sealer::new(&[8; 32]).open(&sealed).is_none());
    }
}
