//! aivet's use cases: what a person can do, checked and recorded, on top of the
//! store. Knows nothing of HTTP or SQL. Every rule that needs "now" gets it from
//! the injected [`Clock`], so tests move time instead of sleeping.

pub mod accounts;
pub mod advisories;
pub mod calendar;
pub mod clearance;
pub mod clock;
pub mod demo;
pub mod digests;
pub mod error;
pub mod follow_ups;
mod ics;
pub mod incidents;
pub mod inventory;
pub mod inventory_csv;
pub mod jobs;
pub mod mail;
pub mod members;
pub mod notices;
pub mod questions;
pub mod quick_entry;
pub mod ratelimit;
pub mod reminders;
pub mod report;
pub mod secrets;
pub mod transfer;

pub use accounts::{Auth, DeviceToken, SessionToken};
pub use clock::{Clock, FixedClock, SystemClock};
pub use error::{FieldErrors, ServiceError};
pub use ratelimit::{Backoff, RateLimiter};
pub use secrets::SecretKey;

use aivet_store::DynStore;
use chrono::Duration;
use std::sync::Arc;

/// How long things live. Defaults follow OWASP ASVS level 2.
#[derive(Clone, Debug)]
pub struct Lifetimes {
    /// A session ends after this long without a request.
    pub session_idle: Duration,
    /// A session ends this long after sign-in, however active.
    pub session_absolute: Duration,
    pub invite: Duration,
}

impl Default for Lifetimes {
    fn default() -> Self {
        Lifetimes {
            session_idle: Duration::minutes(30),
            session_absolute: Duration::hours(12),
            invite: Duration::days(7),
        }
    }
}

/// The entry point to every use case. Cheap to clone: every clone shares
/// one set of [`ServiceParts`] (a request clones it several times, through
/// the middleware and the page's context).
#[derive(Clone)]
pub struct Services(Arc<ServiceParts>);

/// What the use cases work with; read through [`Services`].
pub struct ServiceParts {
    pub store: DynStore,
    pub clock: Arc<dyn Clock>,
    pub key: SecretKey,
    pub lifetimes: Lifetimes,
    pub limits: Limits,
    pub mail: MailSetup,
    /// The public base URL (no trailing slash); every link is built from it.
    pub base_url: String,
    /// Wakes the job worker when a job becomes due at once.
    pub jobs_wake: Arc<tokio::sync::Notify>,
}

impl std::ops::Deref for Services {
    type Target = ServiceParts;

    fn deref(&self) -> &ServiceParts {
        &self.0
    }
}

/// How this server sends mail.
#[derive(Clone)]
pub struct MailSetup {
    pub mailer: aivet_mail::Mailer,
    /// Wakes the outbox worker when a mail is queued.
    pub wake: Arc<tokio::sync::Notify>,
    /// What the settings page shows about the transport.
    pub transport: String,
    /// Whether the mail server takes addresses with letters beyond ASCII
    /// before the `@` (SMTPUTF8, `AIVET_SMTP_UTF8`); without it such
    /// addresses are refused where they are typed.
    pub smtputf8: bool,
}

/// Rate limits on guessing, after OWASP's Authentication and Credential
/// Stuffing cheat sheets: guessing stays slow from one address and from
/// many, while nobody can lock the owner out. Per client address and per
/// account and address, and per account from anywhere, with pauses that
/// grow — except for a browser that signed in to the account before (it
/// holds a device cookie for it, see `accounts`), which has a limit of its
/// own. A password reset is limited apart from sign-ins.
pub struct Limits {
    /// Sign-in attempts per client address, whatever the account.
    pub sign_in_per_client: RateLimiter,
    /// Failed sign-ins per account and client address.
    pub sign_in_per_account_client: RateLimiter,
    /// Failed sign-ins per account from browsers that have not signed in to
    /// it before, from any address.
    pub sign_in_per_account: Backoff,
    /// Failed sign-ins per browser that has signed in to the account before.
    pub sign_in_per_device: RateLimiter,
    /// Wrong current passwords when changing it, per user.
    pub password_change_per_user: RateLimiter,
    /// Password reset requests per client address.
    pub reset_per_client: RateLimiter,
    /// Reset mails per account. Past it, requests are answered as usual and
    /// send nothing: the account's mailbox holds a link from the last hour
    /// already (links live an hour), so this cannot lock anybody out.
    pub reset_mails_per_account: RateLimiter,
    /// Requests to vendor answer pages per client.
    pub answer_links_per_client: RateLimiter,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            sign_in_per_client: RateLimiter::new(30, Duration::minutes(10)),
            sign_in_per_account_client: RateLimiter::new(5, Duration::minutes(15)),
            sign_in_per_account: Backoff::new(
                10,
                Duration::seconds(30),
                Duration::minutes(15),
                Duration::hours(24),
            ),
            sign_in_per_device: RateLimiter::new(10, Duration::minutes(15)),
            password_change_per_user: RateLimiter::new(10, Duration::minutes(15)),
            reset_per_client: RateLimiter::new(10, Duration::minutes(10)),
            reset_mails_per_account: RateLimiter::new(3, Duration::hours(1)),
            answer_links_per_client: RateLimiter::new(120, Duration::minutes(10)),
        }
    }
}

impl Services {
    /// Seals answer links at rest (reminders carry the same link).
    pub fn link_sealer(&self) -> aivet_mail::Sealer {
        let key: [u8; 32] = self
            .key
            .hash("link-seal", "")
            .try_into()
            .expect("HMAC-SHA256 gives 32 bytes");
        aivet_mail::Sealer::new(&key)
    }

    #[allow(clippy::too_many_arguments)]
    pub fn new(
        store: DynStore,
        clock: Arc<dyn Clock>,
        key: SecretKey,
        lifetimes: Lifetimes,
        limits: Limits,
        mail: MailSetup,
        base_url: String,
    ) -> Services {
        Services(Arc::new(ServiceParts {
            store,
            clock,
            key,
            lifetimes,
            limits,
            mail,
            base_url,
            jobs_wake: Arc::new(tokio::sync::Notify::new()),
        }))
    }
}
