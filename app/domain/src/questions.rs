//! The questions aivet asks a vendor: the five core questions of the
//! checklist and the optional ones an organisation can switch on, each with
//! one sentence saying why we ask, in every language of the interface.
//!
//! The stable `code` identifies a standard question in stored question sets;
//! the text itself is copied into each request when it is sent, so that what
//! the vendor was asked never changes afterwards.

use crate::inventory::{choice, long_text, optional_id, short_text, FieldErrors, Fields};
use crate::{ContactId, Email, Lang, Msg};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum StandardQuestion {
    Separation,
    Retention,
    LeakTests,
    Notification,
    AfterIncident,
    Engines,
    Overlong,
    Training,
    SupplyChain,
}

impl StandardQuestion {
    /// The five questions every request asks, in this order.
    pub const CORE: [StandardQuestion; 5] = [
        StandardQuestion::Separation,
        StandardQuestion::Retention,
        StandardQuestion::LeakTests,
        StandardQuestion::Notification,
        StandardQuestion::AfterIncident,
    ];

    /// Questions an organisation can add to its set.
    pub const OPTIONAL: [StandardQuestion; 4] = [
        StandardQuestion::Engines,
        StandardQuestion::Overlong,
        StandardQuestion::Training,
        StandardQuestion::SupplyChain,
    ];

    pub fn code(self) -> &'static str {
        match self {
            StandardQuestion::Separation => "separation",
            StandardQuestion::Retention => "retention",
            StandardQuestion::LeakTests => "leak_tests",
            StandardQuestion::Notification => "notification",
            StandardQuestion::AfterIncident => "after_incident",
            StandardQuestion::Engines => "engines",
            StandardQuestion::Overlong => "overlong",
            StandardQuestion::Training => "training",
            StandardQuestion::SupplyChain => "supply_chain",
        }
    }

    pub fn from_code(code: &str) -> Option<StandardQuestion> {
        Self::CORE
            .into_iter()
            .chain(Self::OPTIONAL)
            .find(|q| q.code() == code)
    }

    fn msgs(self) -> (Msg, Msg) {
        match self {
            StandardQuestion::Separation => (Msg::QSeparation, Msg::QSeparationWhy),
            StandardQuestion::Retention => (Msg::QRetention, Msg::QRetentionWhy),
            StandardQuestion::LeakTests => (Msg::QLeakTests, Msg::QLeakTestsWhy),
            StandardQuestion::Notification => (Msg::QNotification, Msg::QNotificationWhy),
            StandardQuestion::AfterIncident => (Msg::QAfterIncident, Msg::QAfterIncidentWhy),
            StandardQuestion::Engines => (Msg::QEngines, Msg::QEnginesWhy),
            StandardQuestion::Overlong => (Msg::QOverlong, Msg::QOverlongWhy),
            StandardQuestion::Training => (Msg::QTraining, Msg::QTrainingWhy),
            StandardQuestion::SupplyChain => (Msg::QSupplyChain, Msg::QSupplyChainWhy),
        }
    }

    /// The question as asked.
    pub fn text(self, lang: Lang) -> &'static str {
        self.msgs().0.text(lang)
    }

    /// One sentence on why we ask.
    pub fn why(self, lang: Lang) -> &'static str {
        self.msgs().1.text(lang)
    }
}

choice!(
    /// A reviewer's judgement of one answer.
    Review {
        Satisfactory = "satisfactory" => ReviewSatisfactory,
        Unclear = "unclear" => ReviewUnclear,
        Missing = "missing" => ReviewMissing,
    }
);
choice!(
    /// Where a service's vendor assessment stands.
    Assessment {
        NotAsked = "not_asked" => AssessmentNotAsked,
        Asked = "asked" => AssessmentAsked,
        Answered = "answered" => AssessmentAnswered,
        Cleared = "cleared" => AssessmentCleared,
        Conditional = "cleared_with_conditions" => AssessmentConditional,
        NotCleared = "not_cleared" => AssessmentNotCleared,
    }
);
choice!(
    /// Where one request stands on the vendor's side.
    RequestStatus {
        Sent = "sent" => RequestSent,
        Draft = "draft" => RequestDraft,
        Submitted = "submitted" => RequestSubmitted,
    }
);

impl Assessment {
    /// The outcomes a reviewer records at the end.
    pub const DECISIONS: [Assessment; 3] = [
        Assessment::Cleared,
        Assessment::Conditional,
        Assessment::NotCleared,
    ];
}

/// How long a vendor has to answer unless the sender says otherwise.
pub const DEFAULT_DEADLINE_DAYS: i64 = 14;
/// How long an answer link works after the deadline.
pub const LINK_DAYS_AFTER_DEADLINE: i64 = 30;
/// The longest answer to one question.
pub const MAX_ANSWER_CHARS: usize = 5000;

/// One question as it is sent: the text is copied into the request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionText {
    /// The standard question's code.
    pub code: String,
    pub text: String,
    pub why: String,
}

/// The questions of a new request in `lang`: the five core questions and
/// the chosen optional ones, in catalogue order.
pub fn question_texts(lang: Lang, optional: &[StandardQuestion]) -> Vec<QuestionText> {
    StandardQuestion::CORE
        .into_iter()
        .chain(
            StandardQuestion::OPTIONAL
                .into_iter()
                .filter(|q| optional.contains(q)),
        )
        .map(|q| QuestionText {
            code: q.code().to_owned(),
            text: q.text(lang).to_owned(),
            why: q.why(lang).to_owned(),
        })
        .collect()
}

/// The raw "ask the vendor" form.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SendForm {
    /// Chosen once when the form is shown; the same key twice sends once.
    pub send_key: String,
    pub contacts: Vec<String>,
    /// Empty: each contact's own language.
    pub lang: String,
    pub deadline: String,
    pub optional: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SendDraft {
    pub send_key: String,
    pub contacts: Vec<ContactId>,
    pub lang: Option<Lang>,
    pub deadline: NaiveDate,
    pub optional: Vec<StandardQuestion>,
}

/// Whether `key` is a usable idempotency key (what the form generates).
pub fn valid_send_key(key: &str) -> bool {
    (16..=64).contains(&key.len())
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl SendForm {
    /// `today` is the sender's date: the deadline must lie after it.
    pub fn parse(&self, today: NaiveDate) -> Result<SendDraft, FieldErrors> {
        let mut f = Fields(Vec::new());
        let send_key = f.take(
            "send_key",
            if valid_send_key(&self.send_key) {
                Ok(self.send_key.clone())
            } else {
                Err(Msg::ErrFormExpired)
            },
        );
        let mut contacts = Vec::new();
        for c in &self.contacts {
            match optional_id::<ContactId>(c) {
                Ok(Some(id)) if !contacts.contains(&id) => contacts.push(id),
                Ok(_) => {}
                Err(m) => f.0.push(("contacts", m)),
            }
        }
        if contacts.is_empty() && !f.0.iter().any(|(n, _)| *n == "contacts") {
            f.0.push(("contacts", Msg::ErrChooseContact));
        }
        let lang = f.take(
            "lang",
            match self.lang.trim() {
                "" => Ok(None),
                l => l
                    .parse::<Lang>()
                    .map(Some)
                    .map_err(|_| Msg::ErrChoiceInvalid),
            },
        );
        let deadline = f.take(
            "deadline",
            crate::inventory::optional_date(&self.deadline).and_then(|d| match d {
                None => Err(Msg::ErrDeadlineRequired),
                Some(d) if d <= today => Err(Msg::ErrDeadlinePast),
                Some(d) => Ok(d),
            }),
        );
        let mut optional = Vec::new();
        for code in &self.optional {
            match StandardQuestion::from_code(code.trim()) {
                Some(q) if StandardQuestion::OPTIONAL.contains(&q) => optional.push(q),
                _ => f.0.push(("optional", Msg::ErrChoiceInvalid)),
            }
        }
        match (send_key, lang, deadline) {
            (Some(send_key), Some(lang), Some(deadline)) if f.0.is_empty() => Ok(SendDraft {
                send_key,
                contacts,
                lang,
                deadline,
                optional,
            }),
            _ => Err(f.0),
        }
    }
}

/// The raw answer form, from the vendor's page or from manual entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AnswerForm {
    /// One per question, in the request's order.
    pub answers: Vec<String>,
    pub name: String,
    pub role: String,
    pub email: String,
    /// Manual entry only: when the answer arrived and how.
    pub received_on: String,
    pub source: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AnswerDraft {
    pub answers: Vec<Option<String>>,
    pub name: Option<String>,
    pub role: Option<String>,
    pub email: Option<Email>,
    pub received_on: Option<NaiveDate>,
    pub source: Option<String>,
}

/// The field name of the answer to question `i` (0-based) in errors.
pub const ANSWER_FIELDS: [&str; 16] = [
    "answer0", "answer1", "answer2", "answer3", "answer4", "answer5", "answer6", "answer7",
    "answer8", "answer9", "answer10", "answer11", "answer12", "answer13", "answer14", "answer15",
];

/// The most questions one request can hold.
pub const MAX_QUESTIONS: usize = ANSWER_FIELDS.len();

impl AnswerForm {
    /// Checks the form for a request of `questions` questions. A draft may be
    /// incomplete; a submission needs every answer and the responder's name
    /// and email.
    pub fn parse(&self, questions: usize, submit: bool) -> Result<AnswerDraft, FieldErrors> {
        let mut f = Fields(Vec::new());
        let mut answers = Vec::with_capacity(questions);
        for (i, field) in ANSWER_FIELDS.iter().copied().enumerate().take(questions) {
            let raw = self.answers.get(i).map(String::as_str).unwrap_or("");
            let a = f.take(field, long_text(raw)).flatten();
            if submit && a.is_none() && !f.0.iter().any(|(n, _)| *n == field) {
                f.0.push((field, Msg::ErrAnswerRequired));
            }
            answers.push(a);
        }
        let name = f.take("name", short_text(&self.name)).flatten();
        if submit && name.is_none() && !f.0.iter().any(|(n, _)| *n == "name") {
            f.0.push(("name", Msg::ErrNameRequired));
        }
        let role = f.take("role", short_text(&self.role)).flatten();
        let email = match self.email.trim() {
            "" if submit => {
                f.0.push(("email", Msg::ErrEmailRequired));
                None
            }
            "" => None,
            e => f.take("email", Email::parse(e)),
        };
        let received_on = f
            .take(
                "received_on",
                crate::inventory::optional_date(&self.received_on),
            )
            .flatten();
        let source = f.take("source", short_text(&self.source)).flatten();
        if f.0.is_empty() {
            Ok(AnswerDraft {
                answers,
                name,
                role,
                email,
                received_on,
                source,
            })
        } else {
            Err(f.0)
        }
    }
}

/// The raw review of one answer.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ReviewForm {
    pub review: String,
    pub note: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ReviewDraft {
    pub review: Review,
    pub note: Option<String>,
}

impl ReviewForm {
    pub fn parse(&self) -> Result<ReviewDraft, FieldErrors> {
        let mut f = Fields(Vec::new());
        let review = f.take("review", self.review.parse::<Review>());
        let note = f.take("note", long_text(&self.note)).flatten();
        match review {
            Some(review) if f.0.is_empty() => Ok(ReviewDraft { review, note }),
            _ => Err(f.0),
        }
    }
}

/// The raw decision on a service's assessment.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DecisionForm {
    pub decision: String,
    pub note: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DecisionDraft {
    pub decision: Assessment,
    pub note: Option<String>,
}

impl DecisionForm {
    pub fn parse(&self) -> Result<DecisionDraft, FieldErrors> {
        let mut f = Fields(Vec::new());
        let decision = f.take(
            "decision",
            self.decision.parse::<Assessment>().and_then(|a| {
                if Assessment::DECISIONS.contains(&a) {
                    Ok(a)
                } else {
                    Err(Msg::ErrChoiceInvalid)
                }
            }),
        );
        let note = f.take("note", long_text(&self.note)).flatten();
        match decision {
            Some(decision) if f.0.is_empty() => Ok(DecisionDraft { decision, note }),
            _ => Err(f.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 30).unwrap()
    }

    #[test]
    fn send_form_reports_every_mistake() {
        let e = SendForm {
            send_key: "short".into(),
            contacts: vec!["nope".into()],
            lang: "fr".into(),
            deadline: "2026-11-30".into(),
            optional: vec!["separation".into()],
        }
        .parse(today())
        .unwrap_err();
        let fields: Vec<_> = e.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            fields,
            ["send_key", "contacts", "lang", "deadline", "optional"],
            "{e:?}"
        );
        let e = SendForm::default().parse(today()).unwrap_err();
        assert!(e.contains(&("contacts", Msg::ErrChooseContact)));
        assert!(e.contains(&("deadline", Msg::ErrDeadlineRequired)));
    }

    #[test]
    fn send_form_parses_and_drops_duplicate_contacts() {
        let id = uuid::Uuid::from_u128(0x1234_5678).to_string();
        let d = SendForm {
            send_key: "a".repeat(22),
            contacts: vec![id.clone(), id.clone(), "".into()],
            lang: "".into(),
            deadline: "2026-12-14".into(),
            optional: vec!["overlong".into()],
        }
        .parse(today())
        .unwrap();
        assert_eq!(d.contacts.len(), 1);
        assert_eq!(d.lang, None);
        assert_eq!(d.optional, [StandardQuestion::Overlong]);
        let texts = question_texts(Lang::De, &d.optional);
        assert_eq!(texts.len(), 6);
        assert_eq!(texts[5].code, "overlong");
        assert!(texts[0].text.contains("Kunden"), "{}", texts[0].text);
    }

    #[test]
    fn a_draft_may_be_incomplete_a_submission_not() {
        let form = AnswerForm {
            answers: vec!["Yes, separate caches.".into(), "  ".into()],
            ..Default::default()
        };
        let d = form.parse(3, false).unwrap();
        assert_eq!(
            d.answers,
            [Some("Yes, separate caches.".into()), None, None]
        );
        let e = form.parse(3, true).unwrap_err();
        let fields: Vec<_> = e.iter().map(|(n, _)| *n).collect();
        assert_eq!(fields, ["answer1", "answer2", "name", "email"]);
        let e = AnswerForm {
            answers: vec!["x".repeat(5001)],
            email: "not-an-address".into(),
            ..Default::default()
        }
        .parse(1, false)
        .unwrap_err();
        assert_eq!(
            e,
            [
                ("answer0", Msg::ErrTooLong5000),
                ("email", Msg::ErrEmailInvalid)
            ]
        );
    }

    #[test]
    fn decisions_are_only_the_final_states() {
        assert!(DecisionForm {
            decision: "asked".into(),
            note: "".into()
        }
        .parse()
        .is_err());
        assert_eq!(
            DecisionForm {
                decision: "cleared_with_conditions".into(),
                note: " only public data ".into()
            }
            .parse()
            .unwrap(),
            DecisionDraft {
                decision: Assessment::Conditional,
                note: Some("only public data".into())
            }
        );
        assert!(ReviewForm::default().parse().is_err());
    }

    #[test]
    fn five_core_questions_and_the_optional_ones_round_trip() {
        assert_eq!(StandardQuestion::CORE.len(), 5);
        for q in StandardQuestion::CORE
            .into_iter()
            .chain(StandardQuestion::OPTIONAL)
        {
            assert_eq!(StandardQuestion::from_code(q.code()), Some(q));
            for lang in Lang::ALL {
                assert!(q.text(lang).ends_with('?'), "{q:?} {lang}: a question");
                assert!(q.why(lang).ends_with('.'), "{q:?} {lang}: a sentence");
                assert_ne!(q.text(lang), q.why(lang));
            }
        }
        assert_eq!(StandardQuestion::from_code("nope"), None);
    }
}
