//! Follow-ups in calendars (RFC 5545): a downloadable `.ics` for one
//! follow-up, and each member's personal feed that Outlook, Google and
//! Apple calendars subscribe to.
//!
//! Follow-ups are all-day events on their due date. Every event keeps its
//! UID; its SEQUENCE grows with every change of the date, and its DTSTAMP
//! is the follow-up's last change, so an unchanged feed is the same bytes
//! and an edited date moves the event instead of adding one. Titles say
//! little (feeds are fetched by third parties). Calendar apps ignore alarms
//! in subscribed feeds: reminders to people go by mail (the digest).
//!
//! The feed's link is derived from the server's secret, the membership and
//! a version; only its hash is stored. A new version (rotation) makes the
//! old link a 404, like any wrong one.

use crate::ics::{Event, Ics};
use crate::{Auth, ServiceError, Services};
use aivet_domain::{FollowUpId, Lang, Msg};
use aivet_store::follow_ups::{FollowUpRow, MyFollowUpSettings};
use aivet_store::{AuditEvent, Tenant};

const FEED: &str = "calendar-feed";

/// How often calendar apps should fetch the feed.
const REFRESH: &str = "PT4H";

/// A calendar named `name` of the follow-ups `rows`.
fn calendar(base_url: &str, name: &str, rows: &[FollowUpRow], lang: Lang) -> String {
    let url = format!("{base_url}/follow-ups");
    let mut ics = Ics::calendar(name, REFRESH, rows.len());
    let mut uid = String::new();
    for f in rows {
        uid.clear();
        use std::fmt::Write as _;
        write!(uid, "{}@aivet", f.id).expect("writing to a string");
        let summary = aivet_domain::msg!(lang, Msg::CalendarEventTitle, service = &f.service_name);
        ics.event(&Event {
            uid: &uid,
            stamp: f.updated_at,
            summary: &summary,
            description: f.reason.label().text(lang),
            day: f.due_on,
            sequence: f.sequence,
            url: &url,
        });
    }
    ics.finish()
}

/// The link of a calendar feed.
pub fn feed_link(base_url: &str, token: &str) -> String {
    format!("{base_url}/calendar/{token}.ics")
}

impl Services {
    fn feed_token(&self, auth_membership: aivet_domain::MembershipId, version: i32) -> String {
        use base64::Engine as _;
        let mac = self
            .key
            .hash(FEED, &format!("{}:{version}", auth_membership.0));
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&mac[..24])
    }

    fn feed_hash(&self, token: &str) -> Vec<u8> {
        self.key.hash("calendar-feed-hash", token)
    }

    /// The member's feed link, if their feed is on.
    pub async fn calendar_link(&self, auth: &Auth) -> Result<Option<String>, ServiceError> {
        let t = auth.tenant()?;
        let s = self.store.my_follow_up_settings(t).await?;
        Ok(self.calendar_link_of(t, &s))
    }

    /// The feed link of a member with settings `s`, if their feed is on.
    pub(crate) fn calendar_link_of(&self, t: &Tenant, s: &MyFollowUpSettings) -> Option<String> {
        s.calendar.then(|| {
            feed_link(
                &self.base_url,
                &self.feed_token(t.membership_id(), s.calendar_version),
            )
        })
    }

    /// Makes a new feed link for the member (the old one stops working) and
    /// returns it.
    pub async fn rotate_calendar(&self, auth: &Auth) -> Result<String, ServiceError> {
        let t = auth.tenant()?;
        let s = self.store.my_follow_up_settings(t).await?;
        let version = s.calendar_version + 1;
        let token = self.feed_token(t.membership_id(), version);
        self.store
            .set_calendar(
                t,
                Some(&self.feed_hash(&token)),
                version,
                AuditEvent::CalendarFeed { on: true },
                self.clock.now(),
            )
            .await?;
        Ok(feed_link(&self.base_url, &token))
    }

    /// Switches the member's feed off.
    pub async fn stop_calendar(&self, auth: &Auth) -> Result<(), ServiceError> {
        let t = auth.tenant()?;
        let s = self.store.my_follow_up_settings(t).await?;
        self.store
            .set_calendar(
                t,
                None,
                s.calendar_version + 1,
                AuditEvent::CalendarFeed { on: false },
                self.clock.now(),
            )
            .await?;
        Ok(())
    }

    /// The feed behind a link: the member's open follow-ups; `None` (a
    /// plain 404) for a wrong, rotated or switched-off link.
    pub async fn calendar_feed(&self, token: &str) -> Result<Option<String>, ServiceError> {
        if token.len() != 32
            || !token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Ok(None);
        }
        let Some(feed) = self.store.calendar_feed(&self.feed_hash(token)).await? else {
            return Ok(None);
        };
        let name = aivet_domain::msg!(feed.lang, Msg::CalendarName, org = &feed.org_name);
        Ok(Some(calendar(&self.base_url, &name, &feed.rows, feed.lang)))
    }

    /// One follow-up as a calendar file.
    pub async fn follow_up_ics(&self, auth: &Auth, id: FollowUpId) -> Result<String, ServiceError> {
        let t = auth.tenant()?;
        let f = self.store.follow_up(t, id).await?;
        let lang = auth.user.lang;
        let name = aivet_domain::msg!(lang, Msg::CalendarEventTitle, service = &f.service_name);
        Ok(calendar(&self.base_url, &name, &[f], lang))
    }
}
