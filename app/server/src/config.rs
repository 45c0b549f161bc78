//! Configuration in layers: defaults in code, then an optional TOML file
//! (`AIVET_CONFIG`, or `aivet.toml` in the working directory when present),
//! then `AIVET_*` environment variables. Validated at start-up with messages
//! that say what to fix. `.env.example` lists every setting with its default.

use serde::Deserialize;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};

#[derive(Clone, Debug)]
pub struct Config {
    /// Address the server listens on.
    pub listen: SocketAddr,
    /// Public address of the app, e.g. https://aivet.example.com. Links in
    /// mails and pages are built from it, never from the request's Host.
    pub base_url: String,
    pub data_dir: PathBuf,
    /// `sqlite://…` (embedded) or `postgres://…`.
    pub database_url: String,
    /// PostgreSQL only: the schema owner's connection, used for migrations.
    pub database_admin_url: Option<String>,
    /// At least 32 bytes; keys the hashes of session ids and link tokens.
    pub session_secret: Option<String>,
    /// Where the browser bundle and static files are served from.
    pub site_root: PathBuf,
    /// Proxies whose X-Forwarded-For header is believed.
    pub trusted_proxies: Vec<IpAddr>,
    pub session_idle_minutes: i64,
    pub session_absolute_hours: i64,
    /// Largest accepted request body, in bytes (every request but uploads).
    pub max_body_bytes: usize,
    /// Largest accepted upload request, in bytes: one document (at most
    /// `aivet_domain::attachments::MAX_BYTES`, 10 MB) and the form's text.
    pub max_upload_bytes: usize,
    /// `text` or `json`.
    pub log_format: String,
    /// SMTP server for outgoing mail; without it mails go to `data_dir/outbox`.
    pub smtp_url: Option<String>,
    /// Whether the SMTP server takes addresses with letters beyond ASCII
    /// before the `@` (SMTPUTF8). Without it such addresses are refused at
    /// the forms; domains beyond ASCII are always sent in their ASCII form.
    pub smtp_utf8: bool,
    /// The From address of every mail.
    pub mail_from: String,
    /// How long a mail that keeps failing is retried before it is given up.
    pub mail_give_up_hours: i64,
    /// Whether this process sends queued mail (switch off for web-only processes).
    pub mail_worker: bool,
    /// How long a mail being sent belongs to one process; after a crash it is
    /// sent again once this has passed.
    pub mail_lease_seconds: i64,
    /// Whether this process runs jobs (switch off for web-only processes;
    /// at least one process per database must run them).
    pub job_worker: bool,
    /// How long a running job belongs to one process; after a crash it
    /// runs again once this has passed.
    pub job_lease_seconds: i64,
    /// The executable that lays out PDFs in a process of its own: the
    /// `aivet-pdf` beside the running executable (see
    /// `aivet_server::reports::WorkerPdf`). Not a setting; tests name
    /// theirs.
    pub pdf_worker: PathBuf,
}

/// The keys of the file (and, upper-cased with `AIVET_`, of the environment).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Layer {
    listen: Option<String>,
    base_url: Option<String>,
    data_dir: Option<String>,
    database_url: Option<String>,
    database_admin_url: Option<String>,
    session_secret: Option<String>,
    site_root: Option<String>,
    trusted_proxies: Option<String>,
    session_idle_minutes: Option<String>,
    session_absolute_hours: Option<String>,
    max_body_bytes: Option<String>,
    max_upload_bytes: Option<String>,
    log_format: Option<String>,
    smtp_url: Option<String>,
    smtp_utf8: Option<String>,
    mail_from: Option<String>,
    mail_give_up_hours: Option<String>,
    mail_worker: Option<String>,
    mail_lease_seconds: Option<String>,
    job_worker: Option<String>,
    job_lease_seconds: Option<String>,
}

const KEYS: &[&str] = &[
    "listen",
    "base_url",
    "data_dir",
    "database_url",
    "database_admin_url",
    "session_secret",
    "site_root",
    "trusted_proxies",
    "session_idle_minutes",
    "session_absolute_hours",
    "max_body_bytes",
    "max_upload_bytes",
    "log_format",
    "smtp_url",
    "smtp_utf8",
    "mail_from",
    "mail_give_up_hours",
    "mail_worker",
    "mail_lease_seconds",
    "job_worker",
    "job_lease_seconds",
];

#[derive(Debug, thiserror::Error)]
#[error("configuration: {0}")]
pub struct ConfigError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, ConfigError> {
    Err(ConfigError(msg.into()))
}

impl Config {
    /// Reads the configuration from the process environment and the file.
    pub fn load() -> Result<Config, ConfigError> {
        let env: HashMap<String, String> = std::env::vars().collect();
        Self::from_sources(&env, Path::new("."))
    }

    /// The layering itself, from an explicit environment (for tests).
    pub fn from_sources(env: &HashMap<String, String>, cwd: &Path) -> Result<Config, ConfigError> {
        // AIVET_TEST_* and AIVET_BENCH_* belong to the test and benchmark
        // harnesses, which may be exported in the same shell.
        for key in env.keys().filter(|k| {
            k.starts_with("AIVET_")
                && !k.starts_with("AIVET_TEST_")
                && !k.starts_with("AIVET_BENCH_")
        }) {
            let name = key.trim_start_matches("AIVET_").to_lowercase();
            if !KEYS.contains(&name.as_str())
                && !matches!(name.as_str(), "config" | "log" | "tools_dir")
            {
                return err(format!(
                    "unknown setting {key}; see .env.example for the list"
                ));
            }
        }
        let file_path = match env.get("AIVET_CONFIG") {
            Some(p) => Some(PathBuf::from(p)),
            None => Some(cwd.join("aivet.toml")).filter(|p| p.exists()),
        };
        let file: Layer = match &file_path {
            Some(p) => {
                let text = std::fs::read_to_string(p)
                    .map_err(|e| ConfigError(format!("cannot read {}: {e}", p.display())))?;
                toml::from_str::<toml::Table>(&text)
                    .map_err(|e| ConfigError(format!("{}: {e}", p.display())))
                    .and_then(|t| {
                        // Every value is read as text, like the environment.
                        let flat: toml::Table = t
                            .into_iter()
                            .map(|(k, v)| {
                                let s = match v {
                                    toml::Value::String(s) => s,
                                    toml::Value::Array(a) => a
                                        .iter()
                                        .map(|x| {
                                            x.as_str()
                                                .map(str::to_owned)
                                                .unwrap_or_else(|| x.to_string())
                                        })
                                        .collect::<Vec<_>>()
                                        .join(","),
                                    other => other.to_string(),
                                };
                                (k, toml::Value::String(s))
                            })
                            .collect();
                        flat.try_into::<Layer>()
                            .map_err(|e| ConfigError(format!("{}: {e}", p.display())))
                    })?
            }
            None => Layer::default(),
        };
        let get = |key: &str, from_file: &Option<String>| -> Option<String> {
            env.get(&format!("AIVET_{}", key.to_uppercase()))
                .cloned()
                .or_else(|| from_file.clone())
                .filter(|v| !v.trim().is_empty())
        };

        let listen_s = get("listen", &file.listen).unwrap_or_else(|| "127.0.0.1:3000".into());
        let listen: SocketAddr = listen_s.parse().map_err(|_| {
            ConfigError(format!(
                "AIVET_LISTEN must be an address with port like 127.0.0.1:3000, got {listen_s:?}"
            ))
        })?;
        let base_url =
            get("base_url", &file.base_url).unwrap_or_else(|| format!("http://{listen}"));
        let base_url = validate_base_url(&base_url)?;
        let data_dir =
            PathBuf::from(get("data_dir", &file.data_dir).unwrap_or_else(|| "./data".into()));
        let database_url = get("database_url", &file.database_url)
            .unwrap_or_else(|| format!("sqlite://{}/aivet.db", data_dir.display()));
        if !(database_url.starts_with("sqlite:")
            || database_url.starts_with("postgres:")
            || database_url.starts_with("postgresql:"))
        {
            return err(
                "AIVET_DATABASE_URL must start with sqlite: (embedded) or postgres: (server)",
            );
        }
        let database_admin_url = get("database_admin_url", &file.database_admin_url);
        if database_admin_url.is_some() && database_url.starts_with("sqlite:") {
            return err(
                "AIVET_DATABASE_ADMIN_URL is for PostgreSQL only; remove it when using SQLite",
            );
        }
        let session_secret = get("session_secret", &file.session_secret);
        if let Some(s) = &session_secret {
            if s.len() < 32 {
                return err("AIVET_SESSION_SECRET must have at least 32 characters (try: openssl rand -hex 32)");
            }
        } else if !database_url.starts_with("sqlite:") {
            return err("AIVET_SESSION_SECRET must be set with PostgreSQL, the same on every server process (try: openssl rand -hex 32)");
        }
        let site_root = PathBuf::from(
            get("site_root", &file.site_root).unwrap_or_else(|| "target/site".into()),
        );
        let trusted_proxies = match get("trusted_proxies", &file.trusted_proxies) {
            None => Vec::new(),
            Some(list) => list
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| {
                    s.parse::<IpAddr>().map_err(|_| {
                        ConfigError(format!("AIVET_TRUSTED_PROXIES: {s:?} is not an IP address"))
                    })
                })
                .collect::<Result<_, _>>()?,
        };
        let number = |key: &str,
                      v: Option<String>,
                      default: i64,
                      min: i64,
                      max: i64|
         -> Result<i64, ConfigError> {
            match v {
                None => Ok(default),
                Some(s) => match s.trim().parse::<i64>() {
                    Ok(n) if (min..=max).contains(&n) => Ok(n),
                    _ => err(format!(
                        "AIVET_{} must be a whole number from {min} to {max}, got {s:?}",
                        key.to_uppercase()
                    )),
                },
            }
        };
        let session_idle_minutes = number(
            "session_idle_minutes",
            get("session_idle_minutes", &file.session_idle_minutes),
            30,
            1,
            24 * 60,
        )?;
        let session_absolute_hours = number(
            "session_absolute_hours",
            get("session_absolute_hours", &file.session_absolute_hours),
            12,
            1,
            24 * 30,
        )?;
        let max_body_bytes = number(
            "max_body_bytes",
            get("max_body_bytes", &file.max_body_bytes),
            256 * 1024,
            1024,
            64 * 1024 * 1024,
        )? as usize;
        // Room for one 10 MB document plus the answers' text.
        let max_upload_bytes = number(
            "max_upload_bytes",
            get("max_upload_bytes", &file.max_upload_bytes),
            11 * 1024 * 1024,
            1024,
            64 * 1024 * 1024,
        )? as usize;
        let least = aivet_domain::attachments::MAX_BYTES + max_body_bytes;
        if max_upload_bytes < least {
            return err(format!(
                "AIVET_MAX_UPLOAD_BYTES must be at least {least}: a document of up to {} bytes (10 MB) \
                 plus a form's text (AIVET_MAX_BODY_BYTES, {max_body_bytes}); got {max_upload_bytes}",
                aivet_domain::attachments::MAX_BYTES
            ));
        }
        let log_format = get("log_format", &file.log_format).unwrap_or_else(|| "text".into());
        if !matches!(log_format.as_str(), "text" | "json") {
            return err("AIVET_LOG_FORMAT must be text or json");
        }
        let smtp_url = get("smtp_url", &file.smtp_url);
        if let Some(u) = &smtp_url {
            if !(u.starts_with("smtp://") || u.starts_with("smtps://")) {
                return err("AIVET_SMTP_URL must start with smtp:// (plain or ?tls=required for STARTTLS) or smtps:// (TLS)");
            }
        }
        let smtp_utf8 = match get("smtp_utf8", &file.smtp_utf8).as_deref() {
            None | Some("false") => false,
            Some("true") => true,
            Some(other) => {
                return err(format!(
                    "AIVET_SMTP_UTF8 must be true (the mail server accepts SMTPUTF8) or false, got {other:?}"
                ))
            }
        };
        let host = url::Url::parse(&base_url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_owned))
            .unwrap_or_default();
        let default_domain = if host.contains('.') && host.parse::<std::net::IpAddr>().is_err() {
            host
        } else {
            "localhost".to_owned()
        };
        let mail_from = get("mail_from", &file.mail_from)
            .unwrap_or_else(|| format!("aivet <aivet@{default_domain}>"));
        if !mail_from.contains('@') || mail_from.contains(['\r', '\n']) {
            return err(format!("AIVET_MAIL_FROM must be an address like \"aivet <aivet@example.com>\", got {mail_from:?}"));
        }
        let mail_give_up_hours = number(
            "mail_give_up_hours",
            get("mail_give_up_hours", &file.mail_give_up_hours),
            72,
            1,
            24 * 30,
        )?;
        let on_off = |key: &str, value: Option<String>| match value.as_deref() {
            None | Some("on") => Ok(true),
            Some("off") => Ok(false),
            Some(other) => err(format!(
                "AIVET_{} must be on or off, got {other:?}",
                key.to_uppercase()
            )),
        };
        let mail_worker = on_off("mail_worker", get("mail_worker", &file.mail_worker))?;
        let job_worker = on_off("job_worker", get("job_worker", &file.job_worker))?;
        let job_lease_seconds = number(
            "job_lease_seconds",
            get("job_lease_seconds", &file.job_lease_seconds),
            300,
            1,
            24 * 3600,
        )?;
        let mail_lease_seconds = number(
            "mail_lease_seconds",
            get("mail_lease_seconds", &file.mail_lease_seconds),
            120,
            5,
            3600,
        )?;
        Ok(Config {
            job_worker,
            job_lease_seconds,
            mail_lease_seconds,
            smtp_url,
            smtp_utf8,
            mail_from,
            mail_give_up_hours,
            mail_worker,
            listen,
            base_url,
            data_dir,
            database_url,
            database_admin_url,
            session_secret,
            site_root,
            trusted_proxies,
            session_idle_minutes,
            session_absolute_hours,
            max_body_bytes,
            max_upload_bytes,
            log_format,
            pdf_worker: pdf_worker_beside_this_executable(),
        })
    }

    pub fn is_https(&self) -> bool {
        self.base_url.starts_with("https://")
    }

    pub fn is_sqlite(&self) -> bool {
        self.database_url.starts_with("sqlite:")
    }
}

/// `aivet-pdf` in the folder of the running executable (or on the `PATH`
/// when that is unknown).
fn pdf_worker_beside_this_executable() -> PathBuf {
    let name = crate::reports::PDF_WORKER;
    std::env::current_exe()
        .map(|exe| exe.with_file_name(name))
        .unwrap_or_else(|_| PathBuf::from(name))
}

fn validate_base_url(s: &str) -> Result<String, ConfigError> {
    let url = url::Url::parse(s).map_err(|_| {
        ConfigError(format!(
            "AIVET_BASE_URL must be a URL like https://aivet.example.com, got {s:?}"
        ))
    })?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return err(format!(
            "AIVET_BASE_URL must start with http:// or https:// and name a host, got {s:?}"
        ));
    }
    if url.path() != "/" || url.query().is_some() || url.fragment().is_some() {
        return err(format!(
            "AIVET_BASE_URL must be an origin without a path, got {s:?}"
        ));
    }
    Ok(url.origin().ascii_serialization())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn defaults_are_embedded_sqlite_on_localhost() {
        let c = Config::from_sources(&env(&[]), Path::new("/nonexistent")).unwrap();
        assert_eq!(c.listen.to_string(), "127.0.0.1:3000");
        assert_eq!(c.base_url, "http://127.0.0.1:3000");
        assert_eq!(c.database_url, "sqlite://./data/aivet.db");
        assert!(!c.is_https());
    }

    #[test]
    fn environment_overrides_file() {
        let dir = std::env::temp_dir().join(format!("aivet-config-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("aivet.toml"), "listen = \"0.0.0.0:8080\"\nsession_idle_minutes = 15\nbase_url = \"https://a.example\"\n").unwrap();
        let c =
            Config::from_sources(&env(&[("AIVET_BASE_URL", "https://b.example/")]), &dir).unwrap();
        assert_eq!(c.listen.to_string(), "0.0.0.0:8080");
        assert_eq!(c.session_idle_minutes, 15);
        assert_eq!(c.base_url, "https://b.example");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn bad_values_say_what_to_fix() {
        let cases = [
            (("AIVET_LISTEN", "3000"), "AIVET_LISTEN"),
            (("AIVET_BASE_URL", "ftp://x"), "AIVET_BASE_URL"),
            (
                ("AIVET_BASE_URL", "https://x.example/app"),
                "without a path",
            ),
            (("AIVET_DATABASE_URL", "mysql://x"), "AIVET_DATABASE_URL"),
            (
                ("AIVET_DATABASE_URL", "postgres://u@h/db"),
                "AIVET_SESSION_SECRET",
            ),
            (("AIVET_SESSION_SECRET", "short"), "at least 32"),
            (
                ("AIVET_SESSION_IDLE_MINUTES", "0"),
                "AIVET_SESSION_IDLE_MINUTES",
            ),
            (("AIVET_TRUSTED_PROXIES", "10.0.0.1, nope"), "nope"),
            (("AIVET_LISTNE", "x"), "unknown setting AIVET_LISTNE"),
            (("AIVET_SMTP_URL", "mail.example.com"), "AIVET_SMTP_URL"),
            (("AIVET_MAIL_FROM", "nobody"), "AIVET_MAIL_FROM"),
            (("AIVET_MAIL_WORKER", "maybe"), "AIVET_MAIL_WORKER"),
            (("AIVET_SMTP_UTF8", "yes"), "AIVET_SMTP_UTF8 must be true"),
            (
                ("AIVET_MAX_UPLOAD_BYTES", "2097152"),
                "AIVET_MAX_UPLOAD_BYTES must be at least 10747904",
            ),
        ];
        for ((k, v), expect) in cases {
            let e = Config::from_sources(&env(&[(k, v)]), Path::new("/nonexistent")).unwrap_err();
            assert!(e.0.contains(expect), "{k}={v}: {e}");
        }
    }
}
