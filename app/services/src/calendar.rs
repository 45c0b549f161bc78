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

use crate::{Auth, ServiceError, Services};
use aivet_domain::{FollowUpId, Lang, Msg};
use aivet_store::follow_ups::FollowUpRow;
use aivet_store::AuditEvent;
use chrono::Duration;
use icalendar::{Calendar, Component, Event, EventLike};

const FEED: &str = "calendar-feed";

/// How often calendar apps should fetch the feed.
const REFRESH: &str = "PT4H";

fn event(base_url: &str, f: &FollowUpRow, lang: Lang) -> Event {
    let summary = aivet_domain::msg!(lang, Msg::CalendarEventTitle, service = &f.service_name);
    let mut e = Event::new();
    e.uid(&format!("{}@aivet", f.id))
        .summary(&summary)
        .description(f.reason.label().text(lang))
        // DTEND is the next day: an all-day event of one day (RFC 5545 3.6.1).
        .starts(f.due_on)
        .ends(f.due_on + Duration::days(1))
        .timestamp(f.updated_at)
        .add_property("SEQUENCE", f.sequence.to_string())
        .url(&format!("{base_url}/follow-ups"));
    e.done()
}

fn calendar(name: &str, events: impl IntoIterator<Item = Event>) -> String {
    let mut c = Calendar::new();
    c.name(name)
        .append_property(("X-PUBLISHED-TTL", REFRESH))
        .append_property(("REFRESH-INTERVAL;VALUE=DURATION", REFRESH));
    for e in events {
        c.push(e);
    }
    c.done().to_string()
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
        Ok(s.calendar.then(|| {
            feed_link(
                &self.base_url,
                &self.feed_token(t.membership_id(), s.calendar_version),
            )
        }))
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
        let Some(t) = self.store.calendar_member(&self.feed_hash(token)).await? else {
            return Ok(None);
        };
        let org = self.store.org(&t).await?;
        let lang = self.store.user(t.user_id()).await?.lang;
        let rows = self.store.my_follow_ups(&t, None).await?;
        let name = aivet_domain::msg!(lang, Msg::CalendarName, org = &org.name);
        Ok(Some(calendar(
            &name,
            rows.iter().map(|f| event(&self.base_url, f, lang)),
        )))
    }

    /// One follow-up as a calendar file.
    pub async fn follow_up_ics(&self, auth: &Auth, id: FollowUpId) -> Result<String, ServiceError> {
        let t = auth.tenant()?;
        let f = self.store.follow_up(t, id).await?;
        let lang = auth.user.lang;
        let name = aivet_domain::msg!(lang, Msg::CalendarEventTitle, service = &f.service_name);
        Ok(calendar(&name, [event(&self.base_url, &f, lang)]))
    }
}
