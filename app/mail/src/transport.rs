//! Where mails go: an SMTP server (plain on loopback, STARTTLS, or implicit
//! TLS, with authentication), or a folder of `.eml` files — the embedded
//! default, so that aivet runs with no mail server and a person can open the
//! files. An in-memory box exists for unit tests only.

use async_trait::async_trait;
use lettre::address::Envelope;
use lettre::{Address, AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use std::path::PathBuf;
use std::sync::Mutex;

/// Why a send failed, and whether trying again can help.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// Connection refused, timeouts, 4xx replies, a dropped connection.
    #[error("{0}")]
    Transient(String),
    /// A 5xx reply: the server will not take this mail.
    #[error("{0}")]
    Permanent(String),
}

#[async_trait]
pub trait Transport: Send + Sync + 'static {
    /// What the settings page shows, e.g. "SMTP smtp.example.com:587 (STARTTLS)".
    fn describe(&self) -> String;
    async fn send(&self, from: &Address, to: &str, message: &[u8]) -> Result<(), SendError>;
}

fn envelope(from: &Address, to: &str) -> Result<Envelope, SendError> {
    let to = crate::message::wire_address(to)
        .ok_or_else(|| SendError::Permanent(format!("invalid recipient address {to:?}")))?;
    Envelope::new(Some(from.clone()), vec![to]).map_err(|e| SendError::Permanent(e.to_string()))
}

pub struct SmtpTransport {
    inner: AsyncSmtpTransport<Tokio1Executor>,
    description: String,
}

impl SmtpTransport {
    /// From a URL: `smtp://host:port` (plain; for a relay on loopback),
    /// `smtp://user:pass@host:587?tls=required` (STARTTLS), or
    /// `smtps://user:pass@host:465` (implicit TLS).
    pub fn from_url(url: &str) -> Result<SmtpTransport, String> {
        let parsed = url::Url::parse(url).map_err(|e| format!("AIVET_SMTP_URL: {e}"))?;
        let host = parsed.host_str().unwrap_or("?").to_owned();
        let security = match (
            parsed.scheme(),
            parsed
                .query_pairs()
                .find(|(k, _)| k == "tls")
                .map(|(_, v)| v.into_owned()),
        ) {
            ("smtps", _) => "TLS",
            ("smtp", Some(t)) if t == "required" || t == "opportunistic" => "STARTTLS",
            ("smtp", _) => "plain",
            (other, _) => {
                return Err(format!(
                    "AIVET_SMTP_URL must start with smtp:// or smtps://, got {other}://"
                ))
            }
        };
        let inner = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| format!("AIVET_SMTP_URL: {e}"))?
            .timeout(Some(std::time::Duration::from_secs(30)))
            .build();
        let port = parsed.port().map(|p| format!(":{p}")).unwrap_or_default();
        Ok(SmtpTransport {
            inner,
            description: format!("SMTP {host}{port} ({security})"),
        })
    }
}

#[async_trait]
impl Transport for SmtpTransport {
    fn describe(&self) -> String {
        self.description.clone()
    }

    async fn send(&self, from: &Address, to: &str, message: &[u8]) -> Result<(), SendError> {
        let env = envelope(from, to)?;
        match self.inner.send_raw(&env, message).await {
            Ok(_) => Ok(()),
            Err(e) if e.is_permanent() => Err(SendError::Permanent(e.to_string())),
            // lettre refuses before sending: trying again cannot help.
            Err(e) if e.is_client() && e.to_string().contains("SMTPUTF8") => {
                Err(SendError::Permanent(format!(
                    "the mail server does not accept addresses with letters beyond ASCII before the @ \
                     (no SMTPUTF8), although AIVET_SMTP_UTF8 is true: {e}"
                )))
            }
            Err(e) => Err(SendError::Transient(e.to_string())),
        }
    }
}

/// Writes each mail as `<time>-<id>.eml` into a folder (written to a
/// temporary name first, then renamed, so a reader never sees half a file).
pub struct FolderTransport {
    dir: PathBuf,
}

impl FolderTransport {
    pub fn new(dir: PathBuf) -> std::io::Result<FolderTransport> {
        std::fs::create_dir_all(&dir)?;
        Ok(FolderTransport { dir })
    }
}

/// The file name part of a Message-ID: letters, digits, dots and dashes only.
fn safe_name(message: &[u8]) -> String {
    let text = String::from_utf8_lossy(&message[..message.len().min(8192)]);
    let id = text
        .lines()
        .find_map(|l| {
            l.strip_prefix("Message-ID:")
                .or_else(|| l.strip_prefix("Message-Id:"))
        })
        .unwrap_or("")
        .trim()
        .trim_matches(|c| c == '<' || c == '>');
    let clean: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect();
    if clean.is_empty() {
        uuid::Uuid::new_v4().simple().to_string()
    } else {
        clean
    }
}

#[async_trait]
impl Transport for FolderTransport {
    fn describe(&self) -> String {
        format!("folder {}", self.dir.display())
    }

    async fn send(&self, from: &Address, to: &str, message: &[u8]) -> Result<(), SendError> {
        envelope(from, to)?;
        let name = format!(
            "{}-{}.eml",
            chrono::Utc::now().format("%Y%m%dT%H%M%S%.3f"),
            safe_name(message)
        );
        let tmp = self.dir.join(format!(".{name}.tmp"));
        let dest = self.dir.join(&name);
        let bytes = message.to_vec();
        let result = tokio::task::spawn_blocking(move || {
            std::fs::write(&tmp, &bytes)?;
            std::fs::rename(&tmp, &dest)
        })
        .await;
        match result {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(SendError::Transient(format!("writing the mail file: {e}"))),
            Err(e) => Err(SendError::Transient(e.to_string())),
        }
    }
}

/// Keeps mails in memory. For unit tests; integration tests use a real
/// SMTP listener.
#[derive(Default)]
pub struct MemoryTransport {
    pub sent: Mutex<Vec<(String, Vec<u8>)>>,
}

#[async_trait]
impl Transport for MemoryTransport {
    fn describe(&self) -> String {
        "memory".into()
    }

    async fn send(&self, from: &Address, to: &str, message: &[u8]) -> Result<(), SendError> {
        envelope(from, to)?;
        self.sent
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((to.to_owned(), message.to_vec()));
        Ok(())
    }
}
