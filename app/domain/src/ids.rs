//! Typed identifiers. A `ServiceId` can never be passed where an `OrgId` is
//! expected; all ids are random UUIDs so that no organisation can infer another's
//! record counts from them.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use uuid::Uuid;

macro_rules! id_type {
    ($($(#[$meta:meta])* $name:ident),* $(,)?) => {$(
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub Uuid);

        impl $name {
            pub fn as_uuid(&self) -> Uuid { self.0 }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { self.0.fmt(f) }
        }
        impl FromStr for $name {
            type Err = uuid::Error;
            fn from_str(s: &str) -> Result<Self, Self::Err> { Uuid::parse_str(s.trim()).map(Self) }
        }
        impl From<Uuid> for $name {
            fn from(u: Uuid) -> Self { Self(u) }
        }
    )*};
}

id_type!(
    /// An organisation (a tenant).
    OrgId,
    /// A person who can sign in.
    UserId,
    /// A user's membership in one organisation.
    MembershipId,
    /// A pending invitation into an organisation.
    InviteId,
    /// One entry of an organisation's audit log.
    AuditId,
    /// One mail in the outbox.
    MailId,
    /// A company that supplies or builds in an AI service.
    VendorId,
    /// A person to write to at a vendor.
    ContactId,
    /// An AI service the organisation uses.
    ServiceId,
    /// A class of data (public, personal, …) of one organisation.
    DataClassId,
    /// One written request of questions to one vendor contact.
    RequestId,
    /// A document attached to a request's answers.
    AttachmentId,
    /// A job: work that runs later or on a schedule.
    JobId,
    /// Something to look at by a date, and why.
    FollowUpId,
    /// An incident at a vendor, in the register.
    IncidentId,
);
