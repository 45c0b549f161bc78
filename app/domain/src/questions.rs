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
    /// How a request's answers arrived: through the vendor's answer page,
    /// or entered by a member from a mail or letter.
    AnsweredVia {
        Portal = "portal" => AnsweredViaPortal,
        Manual = "manual" => AnsweredViaManual,
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

impl RequestStatus {
    /// Whether a request in this state, withdrawn or not, given up as "no
    /// answer" or not, still waits for the vendor's answer.
    pub fn waiting(self, withdrawn: bool, given_up: bool) -> bool {
        self != RequestStatus::Submitted && !withdrawn && !given_up
    }
}

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

/// Whether `code` can name a question in a set: lower-case letters,
/// digits and `_`, at most 40.
pub fn valid_code(code: &str) -> bool {
    !code.is_empty()
        && code.len() <= 40
        && code
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// The wording of one question in one language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wording {
    pub lang: Lang,
    pub text: String,
    pub why: String,
}

/// One question of an organisation's set: a standard question (by its
/// code, possibly reworded) or the organisation's own (`own_…`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetItem {
    pub code: String,
    /// Asked unless the sender leaves it out; the five core questions are
    /// always asked.
    pub enabled: bool,
    /// The organisation's wording; languages without one use the catalogue
    /// (standard questions) or the first wording given (own questions).
    pub wordings: Vec<Wording>,
}

/// An organisation's question set. Each change is a new version; requests
/// keep the text they were sent with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionSet {
    /// 0 for the catalogue as shipped.
    pub version: i32,
    pub items: Vec<SetItem>,
}

impl QuestionSet {
    /// The catalogue: the five core questions on, the optional ones off.
    pub fn standard() -> QuestionSet {
        QuestionSet {
            version: 0,
            items: StandardQuestion::CORE
                .into_iter()
                .map(|q| (q, true))
                .chain(StandardQuestion::OPTIONAL.into_iter().map(|q| (q, false)))
                .map(|(q, enabled)| SetItem {
                    code: q.code().to_owned(),
                    enabled,
                    wordings: Vec::new(),
                })
                .collect(),
        }
    }

    pub fn item(&self, code: &str) -> Option<&SetItem> {
        self.items.iter().find(|i| i.code == code)
    }

    /// Whether the question is one of the five every request asks.
    pub fn is_core(code: &str) -> bool {
        StandardQuestion::CORE.iter().any(|q| q.code() == code)
    }

    /// The question in `lang` as this set words it.
    pub fn wording(&self, item: &SetItem, lang: Lang) -> QuestionText {
        let own = item.wordings.iter().find(|w| w.lang == lang).or_else(|| {
            StandardQuestion::from_code(&item.code)
                .is_none()
                .then(|| item.wordings.first())
                .flatten()
        });
        match (own, StandardQuestion::from_code(&item.code)) {
            (Some(w), _) => QuestionText {
                code: item.code.clone(),
                text: w.text.clone(),
                why: w.why.clone(),
            },
            (None, Some(q)) => QuestionText {
                code: item.code.clone(),
                text: q.text(lang).to_owned(),
                why: q.why(lang).to_owned(),
            },
            (None, None) => QuestionText {
                code: item.code.clone(),
                text: String::new(),
                why: String::new(),
            },
        }
    }

    /// The questions of a new request in `lang`: the core questions and
    /// the further ones named in `further`, in the set's order.
    pub fn texts(&self, lang: Lang, further: &[String]) -> Vec<QuestionText> {
        self.items
            .iter()
            .filter(|i| Self::is_core(&i.code) || further.contains(&i.code))
            .map(|i| self.wording(i, lang))
            .collect()
    }

    /// The further (not core) questions, for the send form.
    pub fn further(&self) -> impl Iterator<Item = &SetItem> {
        self.items.iter().filter(|i| !Self::is_core(&i.code))
    }
}

/// The raw form of one question in the set editor.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SetItemForm {
    pub code: String,
    pub enabled: bool,
    pub en_text: String,
    pub en_why: String,
    pub de_text: String,
    pub de_why: String,
    pub nb_text: String,
    pub nb_why: String,
    /// Own questions only: take it out of the set.
    pub remove: bool,
}

/// The raw set editor: every question, and maybe a new own one.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct QuestionSetForm {
    pub items: Vec<SetItemForm>,
    pub new_text: String,
    pub new_why: String,
    pub new_lang: String,
}

/// The longest wording of a question or its reason.
pub const MAX_QUESTION_CHARS: usize = 1000;

fn question_text(input: &str) -> Result<Option<String>, Msg> {
    let t = long_text(input)?;
    match t {
        Some(t) if t.chars().count() > MAX_QUESTION_CHARS => Err(Msg::ErrTooLong1000),
        t => Ok(t),
    }
}

impl QuestionSetForm {
    /// The set this form describes, as the next version after `current`.
    /// Wordings equal to the catalogue's are not stored; errors are keyed
    /// `items.<n>.<field>` and `new_text`.
    pub fn parse(&self, current: &QuestionSet) -> Result<QuestionSet, FieldErrors> {
        let mut f = Fields(Vec::new());
        let mut items: Vec<SetItem> = Vec::new();
        for (n, form) in self.items.iter().enumerate().take(MAX_QUESTIONS * 2) {
            let code = form.code.trim();
            let standard = StandardQuestion::from_code(code);
            let known = current.item(code).is_some() || standard.is_some();
            if !valid_code(code) || !known || items.iter().any(|i| i.code == code) {
                f.0.push((item_field(n, "code"), Msg::ErrChoiceInvalid));
                continue;
            }
            if form.remove && standard.is_none() {
                continue;
            }
            let mut wordings = Vec::new();
            for (lang, text, why) in [
                (Lang::En, &form.en_text, &form.en_why),
                (Lang::De, &form.de_text, &form.de_why),
                (Lang::Nb, &form.nb_text, &form.nb_why),
            ] {
                let t = f
                    .take(item_field(n, text_key(lang)), question_text(text))
                    .flatten();
                let w = f
                    .take(item_field(n, why_key(lang)), question_text(why))
                    .flatten();
                let Some(t) = t else { continue };
                let w = w.unwrap_or_default();
                if standard.is_some_and(|q| q.text(lang) == t && q.why(lang) == w) {
                    continue;
                }
                wordings.push(Wording {
                    lang,
                    text: t,
                    why: w,
                });
            }
            if standard.is_none() && wordings.is_empty() {
                f.0.push((item_field(n, "en_text"), Msg::ErrQuestionRequired));
            }
            items.push(SetItem {
                code: code.to_owned(),
                enabled: form.enabled || QuestionSet::is_core(code),
                wordings,
            });
        }
        // Standard questions the form left out stay as they were.
        for q in StandardQuestion::CORE
            .into_iter()
            .chain(StandardQuestion::OPTIONAL)
        {
            if !items.iter().any(|i| i.code == q.code()) {
                let keep = current.item(q.code()).cloned().unwrap_or(SetItem {
                    code: q.code().to_owned(),
                    enabled: QuestionSet::is_core(q.code()),
                    wordings: Vec::new(),
                });
                items.push(keep);
            }
        }
        let new_text = f.take("new_text", question_text(&self.new_text)).flatten();
        let new_why = f.take("new_why", question_text(&self.new_why)).flatten();
        if let Some(text) = new_text {
            let lang = self.new_lang.parse::<Lang>().unwrap_or_default();
            let used: Vec<&str> = items
                .iter()
                .chain(&current.items)
                .map(|i| i.code.as_str())
                .collect();
            let code = (1..)
                .map(|n| format!("own_{n}"))
                .find(|c| !used.contains(&c.as_str()))
                .expect("a free code");
            items.push(SetItem {
                code,
                enabled: true,
                wordings: vec![Wording {
                    lang,
                    text,
                    why: new_why.unwrap_or_default(),
                }],
            });
        }
        if items.len() > MAX_QUESTIONS {
            f.0.push(("new_text", Msg::ErrTooManyQuestions));
        }
        if f.0.is_empty() {
            Ok(QuestionSet {
                version: current.version + 1,
                items,
            })
        } else {
            Err(f.0)
        }
    }
}

fn text_key(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "en_text",
        Lang::De => "de_text",
        Lang::Nb => "nb_text",
    }
}

fn why_key(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "en_why",
        Lang::De => "de_why",
        Lang::Nb => "nb_why",
    }
}

/// The error key of a field of question `n` in the set editor. Keys are
/// static: at most 32 questions × 8 fields are named.
fn item_field(n: usize, field: &'static str) -> &'static str {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static KEYS: OnceLock<Mutex<HashMap<(usize, &'static str), &'static str>>> = OnceLock::new();
    let n = n.min(MAX_QUESTIONS * 2);
    let mut keys = KEYS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    keys.entry((n, field))
        .or_insert_with(|| Box::leak(format!("items.{n}.{field}").into_boxed_str()))
}

/// The raw "ask the vendor" form.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SendForm {
    /// Chosen once when the form is shown; the same key twice sends once.
    pub send_key: String,
    pub contacts: Vec<String>,
    /// Further services of the same vendor to ask about in the same mail
    /// (from a vendor's page: all of them).
    pub services: Vec<String>,
    /// Empty: each contact's own language.
    pub lang: String,
    pub deadline: String,
    pub optional: Vec<String>,
    /// An incident of the organisation to ask about as well (from the
    /// incident's page): its own question comes first.
    pub incident: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SendDraft {
    pub send_key: String,
    pub contacts: Vec<ContactId>,
    pub services: Vec<crate::ServiceId>,
    pub lang: Option<Lang>,
    pub deadline: NaiveDate,
    /// Codes of the set's further questions to ask as well (checked against
    /// the organisation's question set when sending).
    pub optional: Vec<String>,
    /// The incident to ask about (checked against the organisation's
    /// incidents when sending).
    pub incident: Option<crate::IncidentId>,
}

/// The code of the question about one incident, asked first when a
/// request is sent from an incident.
pub const INCIDENT_QUESTION: &str = "incident";

/// Whether `key` is a usable idempotency key (what the form generates).
pub fn valid_send_key(key: &str) -> bool {
    (16..=64).contains(&key.len())
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn send_key(key: &str) -> Result<String, Msg> {
    if valid_send_key(key) {
        Ok(key.to_owned())
    } else {
        Err(Msg::ErrFormExpired)
    }
}

/// A deadline after `today`.
fn deadline(input: &str, today: NaiveDate) -> Result<NaiveDate, Msg> {
    match crate::inventory::optional_date(input)? {
        None => Err(Msg::ErrDeadlineRequired),
        Some(d) if d <= today => Err(Msg::ErrDeadlinePast),
        Some(d) => Ok(d),
    }
}

/// The two fields of the "ask again" form: the send key and a deadline.
pub fn parse_key_and_deadline(
    key: &str,
    input: &str,
    today: NaiveDate,
) -> Result<(String, NaiveDate), FieldErrors> {
    let mut f = Fields(Vec::new());
    let key = f.take("send_key", send_key(key));
    let date = f.take("deadline", deadline(input, today));
    match (key, date) {
        (Some(k), Some(d)) => Ok((k, d)),
        _ => Err(f.0),
    }
}

impl SendForm {
    /// `today` is the sender's date: the deadline must lie after it.
    pub fn parse(&self, today: NaiveDate) -> Result<SendDraft, FieldErrors> {
        let mut f = Fields(Vec::new());
        let send_key = f.take("send_key", send_key(&self.send_key));
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
        let mut services = Vec::new();
        for s in &self.services {
            match optional_id::<crate::ServiceId>(s) {
                Ok(Some(id)) if !services.contains(&id) => services.push(id),
                Ok(_) => {}
                Err(m) => f.0.push(("services", m)),
            }
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
        let deadline = f.take("deadline", deadline(&self.deadline, today));
        let mut optional: Vec<String> = Vec::new();
        for code in &self.optional {
            let code = code.trim();
            if code.is_empty() || optional.iter().any(|c| c == code) {
                continue;
            }
            if valid_code(code) && !QuestionSet::is_core(code) {
                optional.push(code.to_owned());
            } else if !f.0.iter().any(|(n, _)| *n == "optional") {
                f.0.push(("optional", Msg::ErrChoiceInvalid));
            }
        }
        let incident = f.take("incident", optional_id::<crate::IncidentId>(&self.incident));
        match (send_key, lang, deadline, incident) {
            (Some(send_key), Some(lang), Some(deadline), Some(incident)) if f.0.is_empty() => {
                Ok(SendDraft {
                    send_key,
                    contacts,
                    services,
                    lang,
                    deadline,
                    optional,
                    incident,
                })
            }
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
            optional: vec!["separation".into(), "no spaces".into()],
            services: vec!["not-an-id".into()],
            incident: "not-an-incident".into(),
        }
        .parse(today())
        .unwrap_err();
        let fields: Vec<_> = e.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            fields,
            ["send_key", "contacts", "services", "lang", "deadline", "optional", "incident"],
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
            services: vec![],
            incident: id.clone(),
        }
        .parse(today())
        .unwrap();
        assert_eq!(d.incident.map(|i| i.0.to_string()), Some(id.clone()));
        assert_eq!(d.contacts.len(), 1);
        assert_eq!(d.lang, None);
        assert_eq!(d.optional, ["overlong"]);
        let texts = QuestionSet::standard().texts(Lang::De, &d.optional);
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
    fn a_set_rewords_adds_and_versions() {
        let standard = QuestionSet::standard();
        assert_eq!(standard.texts(Lang::En, &[]).len(), 5);
        let form = QuestionSetForm {
            items: vec![
                SetItemForm {
                    code: "separation".into(),
                    enabled: false,
                    en_text: "How are tenants kept apart?".into(),
                    en_why: "Because of 2026.".into(),
                    // The catalogue's wording is not stored again.
                    de_text: StandardQuestion::Separation.text(Lang::De).into(),
                    de_why: StandardQuestion::Separation.why(Lang::De).into(),
                    ..Default::default()
                },
                SetItemForm {
                    code: "overlong".into(),
                    enabled: true,
                    ..Default::default()
                },
            ],
            new_text: "Do you hold ISO 27001?".into(),
            new_lang: "en".into(),
            ..Default::default()
        };
        let set = form.parse(&standard).unwrap();
        assert_eq!(set.version, 1);
        let sep = set.item("separation").unwrap();
        assert!(sep.enabled, "core questions stay on");
        assert_eq!(sep.wordings.len(), 1);
        let own = set.item("own_1").unwrap();
        assert!(own.enabled);
        let en = set.texts(Lang::En, &["overlong".into(), "own_1".into()]);
        assert_eq!(en.len(), 7);
        assert_eq!(en[0].text, "How are tenants kept apart?");
        // German: the catalogue for the reworded one, the only wording for the own one.
        let de = set.texts(Lang::De, &["own_1".into()]);
        assert_eq!(de[0].text, StandardQuestion::Separation.text(Lang::De));
        assert_eq!(de[5].text, "Do you hold ISO 27001?");
        // Removing the own question; an unknown code is refused.
        let again = QuestionSetForm {
            items: vec![SetItemForm {
                code: "own_1".into(),
                remove: true,
                ..Default::default()
            }],
            ..Default::default()
        }
        .parse(&set)
        .unwrap();
        assert!(again.item("own_1").is_none());
        assert_eq!(
            again.item("separation"),
            set.item("separation"),
            "kept as it was"
        );
        let e = QuestionSetForm {
            items: vec![SetItemForm {
                code: "own_9".into(),
                ..Default::default()
            }],
            ..Default::default()
        }
        .parse(&set)
        .unwrap_err();
        assert_eq!(e, [("items.0.code", Msg::ErrChoiceInvalid)]);
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
