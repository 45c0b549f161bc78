//! Signing up, signing in and out, sessions, passwords, languages, and which
//! organisation a session is working in.
//!
//! Passwords are hashed with argon2id (m = 19 MiB, t = 2, p = 1: the OWASP
//! minimum) on the blocking thread pool, never on the async workers, and at
//! most one per core at a time (each holds 19 MiB while it runs). Sessions are
//! random 256-bit ids of which only a keyed hash is stored; a new id is issued at
//! every sign-in; they end after an idle time and an absolute time.
//!
//! Guessing is limited per client address, per account and address, and per
//! account from anywhere (see [`crate::Limits`]). A browser that signed in to
//! an account gets a device cookie for it (OWASP's "device cookies"): it is
//! not held up by the per-account pause that an attack from elsewhere causes,
//! so the owner still gets in from their browser on any network. A browser
//! new to the account can always get in through a password reset.

use crate::error::{InternalError, Validator};
use crate::secrets::{looks_like_token, new_token};
use crate::{ServiceError, Services};
use aivet_domain::{Email, Lang, OrgId, OrgName, Password, PersonName, Slug};
use aivet_store::{AuditEvent, NewUser, OrgMembership, Tenant, User};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use std::sync::{Arc, OnceLock};

type Result<T> = std::result::Result<T, ServiceError>;

const SESSION: &str = "session";

const DEVICE: &str = "device";

/// The device cookie of a browser that signed in to an account: a random
/// id and a keyed hash binding it to the account's address. Never stored;
/// it lets nothing in by itself, it only keeps the browser out of the
/// per-account pause (its own failures are limited per id).
#[derive(Clone, PartialEq, Eq)]
pub struct DeviceToken(pub String);

impl std::fmt::Debug for DeviceToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DeviceToken(***)")
    }
}

/// The raw session id, to be put in the cookie. Never stored.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionToken(pub String);

impl std::fmt::Debug for SessionToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionToken(***)")
    }
}

/// Who is making a request: the signed-in user and, when they have one, the
/// organisation their session is working in.
#[derive(Clone, Debug)]
pub struct Auth {
    pub user: User,
    pub session_hash: Vec<u8>,
    pub tenant: Option<Tenant>,
}

impl Auth {
    /// The tenant context, or `NotFound` for a user without an organisation.
    pub fn tenant(&self) -> Result<&Tenant> {
        self.tenant.as_ref().ok_or(ServiceError::NotFound)
    }
}

fn argon2() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Each hash holds 19 MiB while it runs and keeps a core busy: at most one
/// per core at a time, so that a burst of sign-ins waits its turn instead of
/// taking 19 MiB per request (more at once would not finish sooner).
fn hashing_slots() -> &'static Arc<tokio::sync::Semaphore> {
    static SLOTS: OnceLock<Arc<tokio::sync::Semaphore>> = OnceLock::new();
    SLOTS.get_or_init(|| Arc::new(tokio::sync::Semaphore::new(hashing_slot_count())))
}

fn hashing_slot_count() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// Runs password hashing on the blocking pool once a slot is free. The slot
/// goes with the work: a request given up while it waits for the hash does
/// not free its slot before the hash has finished.
async fn hashing<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T> {
    let slot = Arc::clone(hashing_slots())
        .acquire_owned()
        .await
        .map_err(|e| InternalError::Hashing(e.to_string()))?;
    Ok(tokio::task::spawn_blocking(move || {
        let done = work();
        drop(slot);
        done
    })
    .await
    .map_err(InternalError::from)?)
}

/// Hashes a password on the blocking pool.
pub async fn hash_password(password: Password) -> Result<String> {
    hashing(move || {
        let salt = SaltString::generate(&mut rand::rngs::OsRng);
        argon2()
            .hash_password(password.expose().as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| InternalError::Hashing(e.to_string()))
    })
    .await?
    .map_err(ServiceError::from)
}

/// Checks a password against a stored hash on the blocking pool; without a
/// stored hash (no such account) against a dummy one, so that a wrong email
/// takes as long as a wrong password. `false` in that case.
pub async fn verify_password(password: String, hash: Option<String>) -> Result<bool> {
    hashing(move || {
        let known = hash.is_some();
        let hash = hash.as_deref().unwrap_or_else(|| dummy_hash());
        let ok = PasswordHash::new(hash).is_ok_and(|parsed| {
            argon2()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        });
        known && ok
    })
    .await
}

/// The dummy hash of [`verify_password`], made once (on the blocking pool).
fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| {
        let salt = SaltString::generate(&mut rand::rngs::OsRng);
        argon2()
            .hash_password(b"no such account, no such password", &salt)
            .expect("hashing works")
            .to_string()
    })
}

impl Services {
    fn session_hash(&self, token: &str) -> Vec<u8> {
        self.key.hash(SESSION, token)
    }

    /// Starts a new session (a fresh id) for `user` in `org`.
    pub(crate) async fn start_session(
        &self,
        user: User,
        tenant: Option<Tenant>,
    ) -> Result<(SessionToken, Auth)> {
        let token = new_token();
        let hash = self.session_hash(&token);
        let now = self.clock.now();
        self.store
            .create_session(
                &hash,
                user.id,
                tenant.as_ref().map(|t| t.org_id()),
                now,
                now + self.lifetimes.session_absolute,
            )
            .await?;
        Ok((
            SessionToken(token),
            Auth {
                user,
                session_hash: hash,
                tenant,
            },
        ))
    }

    /// Creates an account and its organisation, and signs the person in.
    pub async fn sign_up(
        &self,
        email: &str,
        password: &str,
        name: &str,
        org_name: &str,
        lang: Lang,
    ) -> Result<(SessionToken, Auth)> {
        let mut v = Validator::default();
        let email = v.check(
            "email",
            Email::parse(email).and_then(|e| self.deliverable(e)),
        );
        let password = v.check("password", Password::parse(password));
        let name = v.check("name", PersonName::parse(name));
        let org_name = v.check("org_name", OrgName::parse(org_name));
        v.finish()?;
        let (email, password, name, org_name) = (
            email.unwrap(),
            password.unwrap(),
            name.unwrap(),
            org_name.unwrap(),
        );
        let password_hash = hash_password(password).await?;
        let slug = Slug::from_name(org_name.as_str());
        let (user, tenant) = self
            .store
            .sign_up(
                NewUser {
                    email,
                    name,
                    password_hash,
                    lang,
                },
                &org_name,
                &slug,
                self.clock.now(),
            )
            .await?;
        self.start_session(user, Some(tenant)).await
    }

    /// A new device cookie for the account with this address.
    fn new_device(&self, email_key: &str) -> DeviceToken {
        let id = new_token();
        let mac = self.key.hash(DEVICE, &format!("{email_key}\0{id}"));
        DeviceToken(format!("{id}.{}", hex::encode(mac)))
    }

    /// The id of a device cookie that was issued for this account.
    fn known_device<'a>(&self, cookie: &'a str, email_key: &str) -> Option<&'a str> {
        let (id, mac) = cookie.split_once('.')?;
        let mac = hex::decode(mac).ok()?;
        (looks_like_token(id) && self.key.verify(DEVICE, &format!("{email_key}\0{id}"), &mac))
            .then_some(id)
    }

    /// Checks the password and starts a new session. `client` is the caller's
    /// network address and `device` the browser's device cookie, for the
    /// limits on guessing; a new device cookie comes back with the session.
    pub async fn sign_in(
        &self,
        email: &str,
        password: &str,
        client: &str,
        device: Option<&str>,
    ) -> Result<(SessionToken, Auth, DeviceToken)> {
        let now = self.clock.now();
        let email_key = email.trim().to_lowercase();
        let pair = format!("{email_key}\0{client}");
        let device = device.and_then(|d| self.known_device(d, &email_key));
        let l = &self.limits;
        let too_many = || ServiceError::RateLimited(aivet_domain::Msg::ErrRateLimited);
        if !l.sign_in_per_client.check(client, now) {
            return Err(too_many());
        }
        if !l.sign_in_per_account_client.check(&pair, now) {
            return Err(too_many());
        }
        match device {
            Some(id) if !l.sign_in_per_device.check(id, now) => return Err(too_many()),
            Some(_) => {}
            None if !l.sign_in_per_account.attempt(&email_key, now) => {
                return Err(ServiceError::RateLimited(
                    aivet_domain::Msg::ErrAccountProtected,
                ))
            }
            None => {}
        }
        let signed_in = self.check_password(email, password).await;
        if signed_in.as_ref().is_ok_and(Option::is_some) {
            // Right: no guess. Only failures count against the limits.
            l.sign_in_per_client.forgive(client, now);
            l.sign_in_per_account_client.forgive(&pair, now);
            match device {
                Some(id) => l.sign_in_per_device.forgive(id, now),
                None => l.sign_in_per_account.succeeded(&email_key),
            }
        }
        let Some(user) = signed_in? else {
            return Err(ServiceError::BadCredentials);
        };
        let tenant = self.store.first_tenant(user.id).await?;
        if let Some(t) = &tenant {
            self.store.audit(t, AuditEvent::SignedIn, now).await?;
        }
        let (token, auth) = self.start_session(user, tenant).await?;
        Ok((token, auth, self.new_device(&email_key)))
    }

    /// The account, if the password is its password.
    async fn check_password(&self, email: &str, password: &str) -> Result<Option<User>> {
        let Ok(email) = Email::parse(email) else {
            return Ok(None);
        };
        if password.chars().count() > Password::MAX_CHARS {
            return Ok(None);
        }
        let creds = self.store.credentials(&email).await?;
        let hash = creds.as_ref().map(|c| c.password_hash.clone());
        let ok = verify_password(password.to_owned(), hash).await?;
        match creds.filter(|_| ok) {
            Some(c) => Ok(Some(self.store.user(c.user_id).await?)),
            None => Ok(None),
        }
    }

    /// Resolves a session cookie. `None` for unknown, expired or idle sessions
    /// (which are deleted). Picks another organisation when the member was
    /// removed from the session's one.
    pub async fn authenticate(&self, token: &str) -> Result<Option<Auth>> {
        Ok(self
            .authenticate_with_menu(token, None)
            .await?
            .map(|(auth, _)| auth))
    }

    /// As [`Services::authenticate`], and with `menu_limit` also the
    /// header's organisation menu (see [`Services::org_menu`]), read in the
    /// same transaction as the session: what a page needs before it renders.
    /// The menu is `None` without a limit, and when the session had to move
    /// to another organisation (the caller then asks [`Services::org_menu`]).
    pub async fn authenticate_with_menu(
        &self,
        token: &str,
        menu_limit: Option<i64>,
    ) -> Result<Option<(Auth, Option<aivet_store::OrgMenu>)>> {
        if !looks_like_token(token) {
            return Ok(None);
        }
        let hash = self.session_hash(token);
        let Some(view) = self.store.session_view(&hash, menu_limit).await? else {
            return Ok(None);
        };
        let session = view.session;
        let now = self.clock.now();
        if now >= session.expires_at || now >= session.last_seen_at + self.lifetimes.session_idle {
            self.store.delete_session(&hash).await?;
            return Ok(None);
        }
        // Writing last_seen_at once a minute is enough for the idle timeout.
        if now - session.last_seen_at >= chrono::Duration::seconds(60) {
            self.store.touch_session(&hash, now).await?;
        }
        let user = session.user;
        let (mut tenant, mut menu) = (view.tenant, view.menu);
        if tenant.is_none() {
            menu = None;
            if let Some(t) = self.store.first_tenant(user.id).await? {
                self.store.set_session_org(&hash, t.org_id()).await?;
                tenant = Some(t);
            }
        }
        Ok(Some((
            Auth {
                user,
                session_hash: hash,
                tenant,
            },
            menu,
        )))
    }

    pub async fn sign_out(&self, auth: &Auth) -> Result<()> {
        self.store.delete_session(&auth.session_hash).await?;
        Ok(())
    }

    /// Changes the password after checking the current one, and ends the
    /// user's other sessions.
    pub async fn change_password(&self, auth: &Auth, current: &str, new: &str) -> Result<()> {
        let new =
            Password::parse(new).map_err(|m| ServiceError::Invalid(vec![("new_password", m)]))?;
        let now = self.clock.now();
        // Per user: only someone signed in as them counts here.
        let user_key = auth.user.id.0.to_string();
        let limit = &self.limits.password_change_per_user;
        if !limit.check(&user_key, now) {
            return Err(ServiceError::RateLimited(aivet_domain::Msg::ErrRateLimited));
        }
        let stored = self.store.password_hash(auth.user.id).await?;
        if verify_password(current.to_owned(), Some(stored)).await? {
            limit.forgive(&user_key, now);
        } else {
            return Err(ServiceError::Invalid(vec![(
                "current_password",
                aivet_domain::Msg::ErrPasswordWrong,
            )]));
        }
        let hash = hash_password(new).await?;
        self.store
            .set_password_hash(auth.user.id, &hash, now)
            .await?;
        self.store
            .delete_other_sessions(auth.user.id, &auth.session_hash)
            .await?;
        if let Some(t) = &auth.tenant {
            self.store
                .audit(t, AuditEvent::PasswordChanged, now)
                .await?;
        }
        Ok(())
    }

    pub async fn set_language(&self, auth: &Auth, lang: Lang) -> Result<()> {
        Ok(self.store.set_user_lang(auth.user.id, lang).await?)
    }

    /// At most `limit` of the user's organisations whose name contains
    /// `text`, by name, and how many match: for people (integrators) who
    /// belong to more organisations than a page can list.
    pub async fn my_orgs_matching(
        &self,
        auth: &Auth,
        text: Option<&aivet_domain::SearchText>,
        limit: i64,
    ) -> Result<(Vec<OrgMembership>, i64)> {
        Ok(self
            .store
            .orgs_of_user_matching(auth.user.id, text, limit)
            .await?)
    }

    /// The header's organisation menu (see [`aivet_store::Store::org_menu`]).
    pub async fn org_menu(&self, auth: &Auth, limit: i64) -> Result<aivet_store::OrgMenu> {
        Ok(self
            .store
            .org_menu(auth.user.id, auth.tenant.as_ref(), limit)
            .await?)
    }

    /// Makes `org` the session's organisation, if the user is a member.
    pub async fn switch_org(&self, auth: &Auth, org: OrgId) -> Result<Tenant> {
        let tenant = self.store.tenant_for(auth.user.id, org).await?;
        self.store.set_session_org(&auth.session_hash, org).await?;
        Ok(tenant)
    }

    /// Creates another organisation owned by the user and switches to it.
    pub async fn create_org(&self, auth: &Auth, name: &str) -> Result<Tenant> {
        let name =
            OrgName::parse(name).map_err(|m| ServiceError::Invalid(vec![("org_name", m)]))?;
        let tenant = self
            .store
            .create_org(
                auth.user.id,
                &name,
                &Slug::from_name(name.as_str()),
                self.clock.now(),
            )
            .await?;
        self.store
            .set_session_org(&auth.session_hash, tenant.org_id())
            .await?;
        Ok(tenant)
    }
}

const RESET: &str = "password-reset";

impl Services {
    /// Sends a reset link if an account has this address. Answers the same
    /// whether or not it exists, so nobody can probe for accounts.
    pub async fn request_password_reset(
        &self,
        email: &str,
        client: &str,
        lang: Lang,
    ) -> Result<()> {
        let now = self.clock.now();
        let email_key = email.trim().to_lowercase();
        // Failed sign-ins (anyone's) do not count here, so they cannot keep
        // the owner from resetting.
        if !self.limits.reset_per_client.check(client, now) {
            return Err(ServiceError::RateLimited(aivet_domain::Msg::ErrRateLimited));
        }
        let email = Email::parse(email).map_err(|m| ServiceError::Invalid(vec![("email", m)]))?;
        if !self.limits.reset_mails_per_account.check(&email_key, now) {
            // A link from the last hour is in the account's mailbox already.
            return Ok(());
        }
        let Some(creds) = self.store.credentials(&email).await? else {
            return Ok(());
        };
        let user = self.store.user(creds.user_id).await?;
        let token = new_token();
        let lang = if user.lang == Lang::default() {
            lang
        } else {
            user.lang
        };
        let mail = self
            .mail
            .mailer
            .compose(
                &aivet_mail::Recipient {
                    name: Some(user.name.clone()),
                    email: user.email.clone(),
                    lang,
                },
                None,
                None,
                &aivet_mail::PasswordResetMail {
                    name: user.name.clone(),
                    link: format!("{}/reset-password/{token}", self.base_url),
                    org_name: String::new(),
                },
                now,
            )
            .map_err(Self::mail_error)?;
        self.store
            .create_password_reset(
                user.id,
                &self.key.hash(RESET, &token),
                now,
                now + chrono::Duration::hours(1),
                mail,
            )
            .await?;
        self.mail.wake.notify_one();
        Ok(())
    }

    /// Whether a reset link can still be used (opening it changes nothing).
    pub async fn password_reset_open(&self, token: &str) -> Result<bool> {
        if !looks_like_token(token) {
            return Ok(false);
        }
        Ok(self
            .store
            .password_reset_user(&self.key.hash(RESET, token), self.clock.now())
            .await?
            .is_some())
    }

    /// Sets the new password through a reset link, ends every session of the
    /// account, and signs this browser in afresh. The link proves the
    /// mailbox: the account's failed sign-ins are forgotten, and the browser
    /// gets a device cookie.
    pub async fn reset_password(
        &self,
        token: &str,
        new_password: &str,
    ) -> Result<(SessionToken, Auth, DeviceToken)> {
        if !looks_like_token(token) {
            return Err(ServiceError::NotFound);
        }
        let password = Password::parse(new_password)
            .map_err(|m| ServiceError::Invalid(vec![("password", m)]))?;
        let hash_token = self.key.hash(RESET, token);
        if self
            .store
            .password_reset_user(&hash_token, self.clock.now())
            .await?
            .is_none()
        {
            return Err(ServiceError::NotFound);
        }
        let hash = hash_password(password).await?;
        let user_id = self
            .store
            .reset_password(&hash_token, &hash, self.clock.now())
            .await?;
        let user = self.store.user(user_id).await?;
        let tenant = self.store.first_tenant(user.id).await?;
        if let Some(t) = &tenant {
            self.store
                .audit(t, AuditEvent::PasswordReset, self.clock.now())
                .await?;
        }
        let email_key = user.email.as_str().to_lowercase();
        self.limits.sign_in_per_account.clear(&email_key);
        let (session, auth) = self.start_session(user, tenant).await?;
        Ok((session, auth, self.new_device(&email_key)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// The slots are shared by the process: these tests take turns.
    async fn one_at_a_time() -> tokio::sync::MutexGuard<'static, ()> {
        static TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
        TURN.lock().await
    }

    #[tokio::test]
    async fn unknown_accounts_verify_as_false_and_real_hashes_as_they_are() {
        let _turn = one_at_a_time().await;
        let hash = hash_password(Password::parse("correct horse battery staple").unwrap())
            .await
            .unwrap();
        let check = |p: &str, h: Option<&str>| verify_password(p.to_owned(), h.map(str::to_owned));
        assert!(check("correct horse battery staple", Some(&hash))
            .await
            .unwrap());
        assert!(!check("wrong horse battery staple", Some(&hash))
            .await
            .unwrap());
        assert!(!check("no such account, no such password", None)
            .await
            .unwrap());
        assert!(!check("x", Some("not a PHC string")).await.unwrap());
    }

    #[tokio::test]
    async fn no_more_hashes_run_at_once_than_there_are_slots() {
        let _turn = one_at_a_time().await;
        let slots = hashing_slots();
        // Take every slot, as that many concurrent sign-ins would.
        let held = slots
            .acquire_many(hashing_slot_count() as u32)
            .await
            .unwrap();
        let waiting = tokio::spawn(verify_password("p".into(), None));
        // A hash takes well under a second here; it must not have started.
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert!(!waiting.is_finished(), "a hash ran without a free slot");
        drop(held);
        let done = tokio::time::timeout(Duration::from_secs(30), waiting).await;
        assert!(!done.unwrap().unwrap().unwrap());
    }

    #[tokio::test]
    async fn a_given_up_request_keeps_its_slot_until_the_hash_ends() {
        let _turn = one_at_a_time().await;
        let slots = hashing_slots();
        // Leave one slot, then start a hash in it and give the request up.
        let held = slots
            .acquire_many(hashing_slot_count() as u32 - 1)
            .await
            .unwrap();
        let request = tokio::spawn(verify_password("p".into(), None));
        while slots.available_permits() > 0 {
            tokio::task::yield_now().await;
        }
        request.abort();
        assert!(request.await.unwrap_err().is_cancelled());
        assert_eq!(slots.available_permits(), 0, "the hash still runs");
        while slots.available_permits() == 0 {
            tokio::task::yield_now().await;
        }
        drop(held);
    }
}
