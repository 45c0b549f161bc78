//! An organisation's members, invitations into it and its settings (the
//! time zone). Owners manage them; every change is written to the audit
//! log in the same transaction.

use crate::secrets::{looks_like_token, new_token};
use crate::{Auth, ServiceError, Services, SessionToken};
use aivet_domain::{
    Email, Fmt, InviteId, Lang, MembershipId, Msg, Password, PersonName, Role, Zone,
};
use aivet_mail::{InviteMail, Recipient};
use aivet_store::{AuditEvent, Invite, Member, NewUser, OpenInvite, Tenant};

type Result<T> = std::result::Result<T, ServiceError>;

const INVITE: &str = "invite";

/// The address of an invitation, built from the configured base URL.
pub fn invite_link(base_url: &str, token: &str) -> String {
    format!("{base_url}/invite/{token}")
}

/// A newly made invitation with its link token, shown once to the owner.
#[derive(Debug)]
pub struct NewInvite {
    pub invite: Invite,
    pub token: String,
}

fn require_owner(t: &Tenant) -> Result<()> {
    if t.role().can_manage_members() {
        Ok(())
    } else {
        Err(ServiceError::Forbidden)
    }
}

impl Services {
    /// Sets the organisation's time zone (owners only): dates are shown,
    /// and "today" is counted, there from the next request on.
    pub async fn set_time_zone(&self, auth: &Auth, name: &str) -> Result<Zone> {
        let t = auth.tenant()?;
        require_owner(t)?;
        let zone = Zone::parse(name).map_err(|m| ServiceError::Invalid(vec![("time_zone", m)]))?;
        let event = AuditEvent::TimeZoneChanged {
            zone: zone.name().to_owned(),
        };
        self.store
            .set_time_zone(t, zone, event, self.clock.now())
            .await?;
        Ok(zone)
    }

    pub async fn members(&self, auth: &Auth) -> Result<Vec<Member>> {
        Ok(self.store.members(auth.tenant()?).await?)
    }

    pub async fn remove_member(&self, auth: &Auth, id: MembershipId) -> Result<Member> {
        let t = auth.tenant()?;
        require_owner(t)?;
        let event = AuditEvent::MemberRemoved { membership: id };
        Ok(self
            .store
            .remove_member(t, id, event, self.clock.now())
            .await?)
    }

    pub async fn set_member_role(
        &self,
        auth: &Auth,
        id: MembershipId,
        role: Role,
    ) -> Result<Member> {
        let t = auth.tenant()?;
        require_owner(t)?;
        let event = AuditEvent::MemberRoleChanged {
            membership: id,
            role,
        };
        Ok(self
            .store
            .set_member_role(t, id, role, event, self.clock.now())
            .await?)
    }

    pub async fn create_invite(&self, auth: &Auth, email: &str, role: &str) -> Result<NewInvite> {
        let t = auth.tenant()?;
        require_owner(t)?;
        let email = Email::parse(email).and_then(|e| self.deliverable(e));
        let role = role.parse::<Role>();
        let mut errors = Vec::new();
        if let Err(m) = &email {
            errors.push(("email", *m));
        }
        if let Err(m) = &role {
            errors.push(("role", *m));
        }
        let (Ok(email), Ok(role)) = (email, role) else {
            return Err(ServiceError::Invalid(errors));
        };
        let token = new_token();
        let now = self.clock.now();
        let expires = now + self.lifetimes.invite;
        let org = self.store.org(t).await?;
        let lang = auth.user.lang;
        let mail = self
            .mail
            .mailer
            .compose(
                &Recipient {
                    name: None,
                    email: email.as_str().to_owned(),
                    lang,
                },
                Some(&auth.user.email),
                Some(t.org_id()),
                &InviteMail {
                    org_name: org.name,
                    inviter: auth.user.name.clone(),
                    role: role.label().text(lang).to_owned(),
                    link: invite_link(&self.base_url, &token),
                    expires: Fmt::new(lang, t.zone()).day(expires),
                },
                now,
            )
            .map_err(Self::mail_error)?;
        let invite = self
            .store
            .create_invite(
                t,
                &email,
                role,
                &self.key.hash(INVITE, &token),
                now,
                expires,
                Some(mail),
            )
            .await
            .map_err(|e| match ServiceError::from(e) {
                ServiceError::Refused(m) => ServiceError::Invalid(vec![("email", m)]),
                other => other,
            })?;
        self.mail.wake.notify_one();
        Ok(NewInvite { invite, token })
    }

    pub async fn pending_invites(&self, auth: &Auth) -> Result<Vec<Invite>> {
        let t = auth.tenant()?;
        Ok(self.store.pending_invites(t, self.clock.now()).await?)
    }

    pub async fn revoke_invite(&self, auth: &Auth, id: InviteId) -> Result<Invite> {
        let t = auth.tenant()?;
        require_owner(t)?;
        Ok(self.store.revoke_invite(t, id, self.clock.now()).await?)
    }

    /// The invitation behind a link, if it is still open. Unknown, used,
    /// revoked and expired links all give `None`.
    pub async fn open_invite(&self, token: &str) -> Result<Option<OpenInvite>> {
        if !looks_like_token(token) {
            return Ok(None);
        }
        Ok(self
            .store
            .open_invite(&self.key.hash(INVITE, token), self.clock.now())
            .await?)
    }

    /// A signed-in user accepts; the invitation must be for their address.
    pub async fn accept_invite(&self, auth: &Auth, token: &str) -> Result<Tenant> {
        let open = self
            .open_invite(token)
            .await?
            .ok_or(ServiceError::NotFound)?;
        if open.invite.email != auth.user.email {
            return Err(ServiceError::Refused(Msg::ErrInviteEmailMismatch));
        }
        let tenant = self
            .store
            .accept_invite(
                &self.key.hash(INVITE, token),
                auth.user.id,
                self.clock.now(),
            )
            .await?;
        self.store
            .set_session_org(&auth.session_hash, tenant.org_id())
            .await?;
        Ok(tenant)
    }

    /// Someone without an account accepts: creates the account for the invited
    /// address and signs them in.
    pub async fn sign_up_with_invite(
        &self,
        token: &str,
        name: &str,
        password: &str,
        lang: Lang,
    ) -> Result<(SessionToken, Auth)> {
        let open = self
            .open_invite(token)
            .await?
            .ok_or(ServiceError::NotFound)?;
        let mut errors = Vec::new();
        let name = PersonName::parse(name)
            .map_err(|m| errors.push(("name", m)))
            .ok();
        let password = Password::parse(password)
            .map_err(|m| errors.push(("password", m)))
            .ok();
        let (Some(name), Some(password)) = (name, password) else {
            return Err(ServiceError::Invalid(errors));
        };
        let email = Email::parse(&open.invite.email).map_err(|_| ServiceError::NotFound)?;
        let password_hash = crate::accounts::hash_password(password).await?;
        let (user, tenant) = self
            .store
            .sign_up_with_invite(
                &self.key.hash(INVITE, token),
                NewUser {
                    email,
                    name,
                    password_hash,
                    lang,
                },
                self.clock.now(),
            )
            .await?;
        self.start_session(user, Some(tenant)).await
    }
}
