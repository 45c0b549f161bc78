//! The timeline of a service: what happened in the exchange with its
//! vendors, one typed entry per kind, and how each reads in the reader's
//! language.
//!
//! The store keeps an entry as its kind code and its fields as JSON.
//! Entries written before the timeline was typed have their fields as
//! short text; [`Event::from_stored`] reads both, and keeps an entry it
//! cannot read as it is ([`Event::Unreadable`]) instead of guessing.

use crate::clearance::Clearance;
use crate::follow_ups::FollowUpReason;
use crate::i18n::Msg;
use crate::questions::{Assessment, Review};
use crate::Lang;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// One entry of a service's timeline (the actor and time are kept beside it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "detail")]
pub enum Event {
    /// The questions went out to a vendor contact.
    #[serde(rename = "sent")]
    Sent {
        to_name: String,
        to_email: String,
        questions: usize,
    },
    /// The open questions went out again.
    #[serde(rename = "asked_again")]
    AskedAgain {
        to_name: String,
        to_email: String,
        questions: usize,
    },
    /// The mail server took the request's mail.
    #[serde(rename = "delivered")]
    Delivered { to: String },
    #[serde(rename = "saved")]
    DraftSaved { vendor: String },
    #[serde(rename = "submitted")]
    Submitted { vendor: String },
    /// Answers that came by mail or letter were entered by a member.
    #[serde(rename = "entered")]
    Entered { source: Option<String> },
    #[serde(rename = "reviewed")]
    Reviewed { question: i32, review: Review },
    #[serde(rename = "decided")]
    Decided { decision: Assessment },
    #[serde(rename = "revoked")]
    LinkRevoked { to: String },
    #[serde(rename = "reopened")]
    Reopened { to: String },
    /// A follow-up was moved to another day by hand.
    #[serde(rename = "follow_up_moved")]
    FollowUpMoved {
        reason: FollowUpReason,
        due_on: NaiveDate,
        note: Option<String>,
    },
    /// A follow-up was marked done by hand.
    #[serde(rename = "follow_up_done")]
    FollowUpDone { reason: FollowUpReason },
    /// A reminder went to the vendor contact.
    #[serde(rename = "reminder_sent")]
    ReminderSent { to: String, number: i32 },
    /// The reminders were used up without an answer.
    #[serde(rename = "no_answer")]
    NoAnswer { to: String, reminders: i32 },
    /// The deadline's day ended without an answer.
    #[serde(rename = "deadline_passed")]
    DeadlinePassed { to: String, deadline: NaiveDate },
    /// A data class was decided for the service.
    #[serde(rename = "clearance_decided")]
    ClearanceDecided {
        class: String,
        clearance: Clearance,
        condition: Option<String>,
        expires_on: Option<NaiveDate>,
    },
    /// An incident at the vendor was linked to the service.
    #[serde(rename = "incident_linked")]
    IncidentLinked { title: String },
    /// A stored entry this version cannot read; shown as it was stored.
    #[serde(skip)]
    Unreadable { kind: String, detail: String },
}

impl Event {
    /// The stored form: the kind code and the fields as JSON.
    pub fn to_stored(&self) -> (String, String) {
        match self {
            Event::Unreadable { kind, detail } => (kind.clone(), detail.clone()),
            _ => {
                let stored = StoredEvent::from(self);
                (stored.kind, stored.detail)
            }
        }
    }

    /// Reads a stored entry: JSON fields, or the short text of entries
    /// written before the timeline was typed.
    pub fn from_stored(kind: &str, detail: &str) -> Event {
        if let Some(e) = StoredEvent::parse(kind, detail) {
            return e;
        }
        let legacy = match kind {
            "sent" | "asked_again" => {
                legacy_recipient(detail).map(|(to_name, to_email, questions)| {
                    if kind == "sent" {
                        Event::Sent {
                            to_name,
                            to_email,
                            questions,
                        }
                    } else {
                        Event::AskedAgain {
                            to_name,
                            to_email,
                            questions,
                        }
                    }
                })
            }
            "delivered" => Some(Event::Delivered {
                to: detail.to_owned(),
            }),
            "saved" => Some(Event::DraftSaved {
                vendor: detail.to_owned(),
            }),
            "submitted" => Some(Event::Submitted {
                vendor: detail.to_owned(),
            }),
            "entered" => Some(Event::Entered {
                source: (!detail.is_empty()).then(|| detail.to_owned()),
            }),
            "reviewed" => detail.split_once(' ').and_then(|(q, r)| {
                Some(Event::Reviewed {
                    question: q.parse().ok()?,
                    review: r.parse().ok()?,
                })
            }),
            "decided" => detail
                .parse()
                .ok()
                .map(|decision| Event::Decided { decision }),
            "revoked" => Some(Event::LinkRevoked {
                to: detail.to_owned(),
            }),
            "reopened" => Some(Event::Reopened {
                to: detail.to_owned(),
            }),
            _ => None,
        };
        legacy.unwrap_or_else(|| Event::Unreadable {
            kind: kind.to_owned(),
            detail: detail.to_owned(),
        })
    }

    /// What happened, in a few words.
    pub fn label(&self) -> Option<Msg> {
        Some(match self {
            Event::Sent { .. } => Msg::EventSent,
            Event::AskedAgain { .. } => Msg::EventAskedAgain,
            Event::Delivered { .. } => Msg::EventDelivered,
            Event::DraftSaved { .. } => Msg::EventSaved,
            Event::Submitted { .. } => Msg::EventSubmitted,
            Event::Entered { .. } => Msg::EventEntered,
            Event::Reviewed { .. } => Msg::EventReviewed,
            Event::Decided { .. } => Msg::EventDecided,
            Event::LinkRevoked { .. } => Msg::EventRevoked,
            Event::Reopened { .. } => Msg::EventReopened,
            Event::DeadlinePassed { .. } => Msg::EventDeadlinePassed,
            Event::FollowUpMoved { .. } => Msg::EventFollowUpMoved,
            Event::FollowUpDone { .. } => Msg::EventFollowUpDone,
            Event::ReminderSent { .. } => Msg::EventReminderSent,
            Event::NoAnswer { .. } => Msg::EventNoAnswer,
            Event::ClearanceDecided { .. } => Msg::EventClearanceDecided,
            Event::IncidentLinked { .. } => Msg::EventIncidentLinked,
            Event::Unreadable { .. } => return None,
        })
    }

    /// The label in `lang` (an unreadable entry's stored kind).
    pub fn title(&self, lang: Lang) -> String {
        match (self.label(), self) {
            (Some(m), _) => m.text(lang).to_owned(),
            (None, Event::Unreadable { kind, .. }) => kind.clone(),
            (None, _) => String::new(),
        }
    }

    /// The particulars, in `lang`; empty when the label says it all.
    pub fn detail(&self, lang: Lang) -> String {
        use crate::msg;
        match self {
            Event::Sent {
                to_name,
                to_email,
                questions,
            }
            | Event::AskedAgain {
                to_name,
                to_email,
                questions,
            } => msg!(
                lang,
                Msg::EventToWithQuestions,
                name = to_name,
                email = to_email,
                n = *questions
            ),
            Event::Delivered { to } | Event::LinkRevoked { to } | Event::Reopened { to } => {
                to.clone()
            }
            Event::DraftSaved { vendor } | Event::Submitted { vendor } => vendor.clone(),
            Event::Entered { source } => source.clone().unwrap_or_default(),
            Event::Reviewed { question, review } => msg!(
                lang,
                Msg::EventReviewedDetail,
                question = *question,
                review = review.label().text(lang)
            ),
            Event::Decided { decision } => decision.label().text(lang).to_owned(),
            Event::FollowUpMoved {
                reason,
                due_on,
                note,
            } => {
                let moved = msg!(
                    lang,
                    Msg::EventFollowUpMovedDetail,
                    reason = reason.label().text(lang),
                    due_on = &crate::Fmt::new(lang, crate::Zone::UTC).date(*due_on)
                );
                match note {
                    Some(n) => format!("{moved}: {n}"),
                    None => moved,
                }
            }
            Event::FollowUpDone { reason } => reason.label().text(lang).to_owned(),
            Event::ReminderSent { to, number } => {
                msg!(
                    lang,
                    Msg::EventReminderSentDetail,
                    to = to,
                    number = *number
                )
            }
            Event::NoAnswer { to, reminders } => {
                msg!(lang, Msg::EventNoAnswerDetail, to = to, n = *reminders)
            }
            Event::DeadlinePassed { to, deadline } => msg!(
                lang,
                Msg::EventDeadlinePassedDetail,
                to = to,
                deadline = &crate::Fmt::new(lang, crate::Zone::UTC).date(*deadline)
            ),
            Event::ClearanceDecided {
                class,
                clearance,
                condition,
                expires_on,
            } => {
                let mut s = format!("{class}: {}", clearance.label().text(lang));
                if let Some(c) = condition {
                    s.push_str(&format!(" ({c})"));
                }
                if let Some(d) = expires_on {
                    s.push_str(&format!(
                        ", {} {}",
                        Msg::ClearanceLastDay.text(lang),
                        crate::Fmt::new(lang, crate::Zone::UTC).date(*d)
                    ));
                }
                s
            }
            Event::IncidentLinked { title } => title.clone(),
            Event::Unreadable { detail, .. } => detail.clone(),
        }
    }
}

/// "Name <email>, 5", as the first timeline entries were written.
fn legacy_recipient(detail: &str) -> Option<(String, String, usize)> {
    let (who, n) = detail.rsplit_once(", ")?;
    let (name, email) = who.rsplit_once(" <")?;
    Some((
        name.to_owned(),
        email.strip_suffix('>')?.to_owned(),
        n.trim().parse().ok()?,
    ))
}

/// The serde form of an event, split into the two stored columns.
struct StoredEvent {
    kind: String,
    detail: String,
}

impl From<&Event> for StoredEvent {
    fn from(e: &Event) -> StoredEvent {
        // Serialising an enum of plain fields cannot fail.
        let value = serde_json_value(e);
        StoredEvent {
            kind: value.0,
            detail: value.1,
        }
    }
}

impl StoredEvent {
    fn parse(kind: &str, detail: &str) -> Option<Event> {
        if !detail.starts_with('{') {
            return None;
        }
        let json = format!("{{\"kind\":{},\"detail\":{detail}}}", json_string(kind));
        serde_json::from_str(&json).ok()
    }
}

fn serde_json_value(e: &Event) -> (String, String) {
    let mut v = serde_json::to_value(e).unwrap_or_default();
    let kind = v
        .get("kind")
        .and_then(|k| k.as_str())
        .unwrap_or_default()
        .to_owned();
    let detail = v
        .get_mut("detail")
        .map(serde_json::Value::take)
        .unwrap_or_else(|| serde_json::Value::Object(Default::default()));
    (kind, detail.to_string())
}

fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_round_trip_through_their_stored_form() {
        let events = [
            Event::Sent {
                to_name: "Kari".into(),
                to_email: "kari@vendor.example".into(),
                questions: 5,
            },
            Event::Reviewed {
                question: 3,
                review: Review::Unclear,
            },
            Event::Decided {
                decision: Assessment::Conditional,
            },
            Event::Entered { source: None },
            Event::ClearanceDecided {
                class: "Personal data".into(),
                clearance: Clearance::Conditional,
                condition: Some("only pseudonymised".into()),
                expires_on: NaiveDate::from_ymd_opt(2027, 6, 30),
            },
            Event::IncidentLinked {
                title: "KV cache exposure".into(),
            },
        ];
        for e in events {
            let (kind, detail) = e.to_stored();
            assert_eq!(Event::from_stored(&kind, &detail), e, "{kind} {detail}");
        }
    }

    #[test]
    fn entries_written_before_typing_are_read() {
        assert_eq!(
            Event::from_stored("sent", "Kari Nordmann <kari@vendor.example>, 5"),
            Event::Sent {
                to_name: "Kari Nordmann".into(),
                to_email: "kari@vendor.example".into(),
                questions: 5
            }
        );
        assert_eq!(
            Event::from_stored("reviewed", "5 missing"),
            Event::Reviewed {
                question: 5,
                review: Review::Missing
            }
        );
        assert_eq!(
            Event::from_stored("decided", "not_cleared"),
            Event::Decided {
                decision: Assessment::NotCleared
            }
        );
    }

    #[test]
    fn an_unknown_entry_stays_as_it_was() {
        let e = Event::from_stored("escalated", "to the board");
        assert_eq!(e.label(), None);
        assert_eq!(e.title(Lang::De), "escalated");
        assert_eq!(e.detail(Lang::De), "to the board");
        // A known kind whose text does not parse is not turned into something else.
        let e = Event::from_stored("reviewed", "five missing");
        assert!(matches!(e, Event::Unreadable { .. }));
    }

    #[test]
    fn details_are_written_in_the_readers_language() {
        let e = Event::Reviewed {
            question: 5,
            review: Review::Missing,
        };
        assert_eq!(e.detail(Lang::En), "Question 5: Missing");
        assert_eq!(e.detail(Lang::De), "Frage 5: Fehlt");
        assert_eq!(e.detail(Lang::Nb), "Spørsmål 5: Mangler");
        let e = Event::Sent {
            to_name: "Kari".into(),
            to_email: "kari@vendor.example".into(),
            questions: 1,
        };
        assert_eq!(e.detail(Lang::De), "Kari <kari@vendor.example>, 1 Frage");
        assert_eq!(
            Event::Decided {
                decision: Assessment::Cleared
            }
            .detail(Lang::Nb),
            "Godkjent"
        );
    }
}
