//! The inventory of AI services: vendors and their contacts, services, what
//! the documents say (findings) and the data classes sent to each service.
//!
//! Form input is parsed here into drafts that are valid by construction; the
//! store only ever writes drafts. Each parser collects every field's error, so
//! a form shows all its mistakes at once.

use crate::account::has_control;
use crate::{DataClassId, Email, Lang, MembershipId, Msg, VendorId};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Errors per form field.
pub type FieldErrors = Vec<(&'static str, Msg)>;

/// A closed set of choices stored as a short code, shown with a label.
macro_rules! choice {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $code:literal => $label:ident),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(try_from = "String", into = "String")]
        pub enum $name { $($variant),* }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),*];
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $code),* }
            }
            pub fn label(self) -> Msg {
                match self { $($name::$variant => Msg::$label),* }
            }
        }
        impl FromStr for $name {
            type Err = Msg;
            fn from_str(s: &str) -> Result<Self, Msg> {
                match s.trim() {
                    $($code => Ok($name::$variant),)*
                    _ => Err(Msg::ErrChoiceInvalid),
                }
            }
        }
        impl TryFrom<String> for $name {
            type Error = String;
            fn try_from(s: String) -> Result<Self, String> {
                s.parse().map_err(|_| format!("unknown {} {s:?}", stringify!($name)))
            }
        }
        impl From<$name> for String {
            fn from(v: $name) -> String { v.as_str().to_owned() }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(self.as_str()) }
        }
    };
}
pub(crate) use choice;

choice!(
    /// Where a vendor stands in the AI supply chain.
    VendorRole {
        ModelProvider = "model_provider" => VendorRoleModelProvider,
        InferenceHost = "inference_host" => VendorRoleInferenceHost,
        Application = "application" => VendorRoleApplication,
        Integrator = "integrator" => VendorRoleIntegrator,
    }
);
choice!(
    /// What a vendor contact does there.
    ContactRole {
        Security = "security" => ContactRoleSecurity,
        Dpo = "dpo" => ContactRoleDpo,
        AccountManager = "account_manager" => ContactRoleAccountManager,
        Other = "other" => ContactRoleOther,
    }
);
choice!(
    /// Whether the model runs on hardware shared with other customers.
    Deployment {
        Unknown = "unknown" => DeploymentUnknown,
        Shared = "shared" => DeploymentShared,
        Dedicated = "dedicated" => DeploymentDedicated,
        OnPremises = "on_premises" => DeploymentOnPremises,
    }
);
choice!(
    ServiceStatus {
        InUse = "in_use" => StatusInUse,
        Trial = "trial" => StatusTrial,
        Retired = "retired" => StatusRetired,
    }
);
choice!(
    /// Who reports a personal-data breach to the supervisory authority.
    AuthorityNotifier {
        Unclear = "unclear" => NotifierUnclear,
        Us = "us" => NotifierUs,
        Vendor = "vendor" => NotifierVendor,
    }
);
choice!(
    /// The three things step 2 of the checklist looks for in the documents.
    FindingTopic {
        Separation = "separation" => TopicSeparation,
        Retention = "retention" => TopicRetention,
        Notification = "notification" => TopicNotification,
    }
);
choice!(
    /// How sure we are of a finding.
    FindingStatus {
        Unknown = "unknown" => FindingUnknown,
        Stated = "stated" => FindingStated,
        Verified = "verified" => FindingVerified,
    }
);

choice!(
    /// The part a vendor plays in one service (whom the questions can go to).
    ServicePart {
        Vendor = "vendor" => FieldVendor,
        Integrator = "integrator" => FieldIntegrator,
        ModelProvider = "model_provider" => FieldModelProvider,
        InferenceHost = "inference_host" => FieldInferenceHost,
    }
);

/// A name of an inventory record (vendor, service, contact, data class).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ItemName(String);

impl ItemName {
    pub const MAX_CHARS: usize = 200;

    pub fn parse(input: &str) -> Result<ItemName, Msg> {
        let s = input.split_whitespace().collect::<Vec<_>>().join(" ");
        if s.is_empty() {
            return Err(Msg::ErrItemNameRequired);
        }
        if s.chars().count() > Self::MAX_CHARS {
            return Err(Msg::ErrTooLong200);
        }
        if has_control(&s) {
            return Err(Msg::ErrTextControl);
        }
        Ok(ItemName(s))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
    /// The form in which two names count as the same (case and width of
    /// white space do not matter).
    pub fn key(&self) -> String {
        self.0.to_lowercase()
    }
}

impl fmt::Display for ItemName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An optional one-line text of at most 200 characters.
pub fn short_text(input: &str) -> Result<Option<String>, Msg> {
    let s = input.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > 200 {
        return Err(Msg::ErrTooLong200);
    }
    if has_control(&s) {
        return Err(Msg::ErrTextControl);
    }
    Ok((!s.is_empty()).then_some(s))
}

/// An optional multi-line text of at most 5,000 characters. Line breaks are
/// kept (as `\n`); other control characters are refused.
pub fn long_text(input: &str) -> Result<Option<String>, Msg> {
    let s = input.replace("\r\n", "\n").replace('\r', "\n");
    let s = s.trim();
    if s.chars().count() > 5000 {
        return Err(Msg::ErrTooLong5000);
    }
    if s.chars()
        .any(|c| (c.is_control() && c != '\n' && c != '\t') || c == '\u{2028}' || c == '\u{2029}')
    {
        return Err(Msg::ErrTextControl);
    }
    Ok((!s.is_empty()).then(|| s.to_owned()))
}

/// A web address people can open: http or https, a host, no spaces.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WebUrl(String);

impl WebUrl {
    pub fn parse(input: &str) -> Result<Option<WebUrl>, Msg> {
        let s = input.trim();
        if s.is_empty() {
            return Ok(None);
        }
        if s.chars().count() > 2000 {
            return Err(Msg::ErrUrlInvalid);
        }
        let lower = s.to_ascii_lowercase();
        let rest = lower
            .strip_prefix("https://")
            .or_else(|| lower.strip_prefix("http://"))
            .ok_or(Msg::ErrUrlInvalid)?;
        let host = rest.split(['/', '?', '#']).next().unwrap_or("");
        let host = host.rsplit('@').next().unwrap_or("");
        let host = host.split(':').next().unwrap_or("");
        let host_ok = !host.is_empty()
            && host.contains('.')
            && !host.starts_with('.')
            && !host.ends_with('.')
            && host
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '.');
        if !host_ok || s.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(Msg::ErrUrlInvalid);
        }
        Ok(Some(WebUrl(s.to_owned())))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An optional calendar date as forms send it (`YYYY-MM-DD`).
pub fn optional_date(input: &str) -> Result<Option<NaiveDate>, Msg> {
    let s = input.trim();
    if s.is_empty() {
        return Ok(None);
    }
    NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .ok()
        .filter(|d| (1990..=2200).contains(&chrono::Datelike::year(d)))
        .map(Some)
        .ok_or(Msg::ErrDateInvalid)
}

/// A contractual notification deadline in whole hours (1 hour to 1 year).
pub fn optional_hours(input: &str) -> Result<Option<i32>, Msg> {
    let s = input.trim();
    if s.is_empty() {
        return Ok(None);
    }
    s.parse::<i32>()
        .ok()
        .filter(|h| (1..=8760).contains(h))
        .map(Some)
        .ok_or(Msg::ErrHoursInvalid)
}

/// An optional id from a select; a value that is no id at all is an error.
pub fn optional_id<T: FromStr>(input: &str) -> Result<Option<T>, Msg> {
    let s = input.trim();
    if s.is_empty() {
        return Ok(None);
    }
    s.parse().map(Some).map_err(|_| Msg::ErrChoiceInvalid)
}

pub(crate) struct Fields(pub(crate) FieldErrors);

impl Fields {
    pub(crate) fn take<T>(&mut self, field: &'static str, r: Result<T, Msg>) -> Option<T> {
        r.map_err(|m| self.0.push((field, m))).ok()
    }
}

/// The raw vendor form.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct VendorForm {
    pub name: String,
    pub website: String,
    pub role: String,
    pub dpa_url: String,
    pub privacy_url: String,
    pub subprocessors_url: String,
    pub status_url: String,
    pub trust_url: String,
    pub notes: String,
}

/// A vendor as it will be written.
#[derive(Clone, Debug, PartialEq)]
pub struct VendorDraft {
    pub name: ItemName,
    pub website: Option<WebUrl>,
    pub role: VendorRole,
    pub dpa_url: Option<WebUrl>,
    pub privacy_url: Option<WebUrl>,
    pub subprocessors_url: Option<WebUrl>,
    pub status_url: Option<WebUrl>,
    pub trust_url: Option<WebUrl>,
    pub notes: Option<String>,
}

impl VendorDraft {
    /// A vendor known by its name and role only; the rest follows on its page.
    pub fn named(name: ItemName, role: VendorRole) -> VendorDraft {
        VendorDraft {
            name,
            website: None,
            role,
            dpa_url: None,
            privacy_url: None,
            subprocessors_url: None,
            status_url: None,
            trust_url: None,
            notes: None,
        }
    }
}

impl VendorForm {
    pub fn parse(&self) -> Result<VendorDraft, FieldErrors> {
        let mut f = Fields(Vec::new());
        let name = f.take("name", ItemName::parse(&self.name));
        let website = f.take("website", WebUrl::parse(&self.website));
        let role = f.take("role", self.role.parse());
        let dpa_url = f.take("dpa_url", WebUrl::parse(&self.dpa_url));
        let privacy_url = f.take("privacy_url", WebUrl::parse(&self.privacy_url));
        let subprocessors_url = f.take("subprocessors_url", WebUrl::parse(&self.subprocessors_url));
        let status_url = f.take("status_url", WebUrl::parse(&self.status_url));
        let trust_url = f.take("trust_url", WebUrl::parse(&self.trust_url));
        let notes = f.take("notes", long_text(&self.notes));
        match (
            name,
            website,
            role,
            dpa_url,
            privacy_url,
            subprocessors_url,
            status_url,
            trust_url,
            notes,
        ) {
            (
                Some(name),
                Some(website),
                Some(role),
                Some(dpa_url),
                Some(privacy_url),
                Some(subprocessors_url),
                Some(status_url),
                Some(trust_url),
                Some(notes),
            ) if f.0.is_empty() => Ok(VendorDraft {
                name,
                website,
                role,
                dpa_url,
                privacy_url,
                subprocessors_url,
                status_url,
                trust_url,
                notes,
            }),
            _ => Err(f.0),
        }
    }
}

/// The raw contact form.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ContactForm {
    pub name: String,
    pub email: String,
    pub lang: String,
    pub role: String,
    pub primary: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ContactDraft {
    pub name: ItemName,
    pub email: Email,
    pub lang: Lang,
    pub role: ContactRole,
    pub primary: bool,
}

impl ContactForm {
    pub fn parse(&self) -> Result<ContactDraft, FieldErrors> {
        let mut f = Fields(Vec::new());
        let name = f.take("name", ItemName::parse(&self.name));
        let email = f.take("email", Email::parse(&self.email));
        let lang = f.take(
            "lang",
            self.lang.parse::<Lang>().map_err(|_| Msg::ErrChoiceInvalid),
        );
        let role = f.take("role", self.role.parse());
        match (name, email, lang, role) {
            (Some(name), Some(email), Some(lang), Some(role)) => Ok(ContactDraft {
                name,
                email,
                lang,
                role,
                primary: self.primary,
            }),
            _ => Err(f.0),
        }
    }
}

/// The raw service form. Ids arrive as text from selects.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ServiceForm {
    pub name: String,
    pub purpose: String,
    pub vendor_id: String,
    pub integrator_id: String,
    pub model_provider_id: String,
    pub inference_host_id: String,
    pub model: String,
    pub engine: String,
    pub engine_kind: String,
    pub engine_version: String,
    pub engine_source: String,
    pub deployment: String,
    pub owner_id: String,
    pub status: String,
    pub data_classes: Vec<String>,
    pub dpa_signed_on: String,
    pub dpa_url: String,
    pub notice_hours: String,
    pub notice_channel: String,
    pub authority_notifier: String,
    /// A vendor not in the list yet, made with the service (when
    /// `vendor_id` is empty): its name and role.
    pub new_vendor_name: String,
    pub new_vendor_role: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ServiceDraft {
    pub name: ItemName,
    pub purpose: Option<String>,
    pub vendor_id: VendorId,
    pub integrator_id: Option<VendorId>,
    pub model_provider_id: Option<VendorId>,
    pub inference_host_id: Option<VendorId>,
    pub model: Option<String>,
    pub engine: Option<String>,
    pub engine_kind: Option<crate::advisory::Engine>,
    pub engine_version: Option<String>,
    pub engine_source: Option<crate::advisory::VersionSource>,
    pub deployment: Deployment,
    pub owner_id: Option<MembershipId>,
    pub status: ServiceStatus,
    pub data_classes: Vec<DataClassId>,
    pub dpa_signed_on: Option<NaiveDate>,
    pub dpa_url: Option<WebUrl>,
    pub notice_hours: Option<i32>,
    pub notice_channel: Option<String>,
    pub authority_notifier: AuthorityNotifier,
}

/// An optional choice from a select ("" for none).
pub fn optional_choice<T: FromStr<Err = Msg>>(s: &str) -> Result<Option<T>, Msg> {
    if s.trim().is_empty() {
        Ok(None)
    } else {
        s.parse().map(Some)
    }
}

fn choice_or<T: FromStr<Err = Msg>>(s: &str, default: T) -> Result<T, Msg> {
    if s.trim().is_empty() {
        Ok(default)
    } else {
        s.parse()
    }
}

impl ServiceForm {
    pub fn parse(&self) -> Result<ServiceDraft, FieldErrors> {
        let mut f = Fields(Vec::new());
        let name = f.take("name", ItemName::parse(&self.name));
        let purpose = f.take("purpose", long_text(&self.purpose));
        let vendor_id = f.take(
            "vendor_id",
            optional_id::<VendorId>(&self.vendor_id).and_then(|v| v.ok_or(Msg::ErrVendorRequired)),
        );
        let integrator_id = f.take("integrator_id", optional_id(&self.integrator_id));
        let model_provider_id = f.take("model_provider_id", optional_id(&self.model_provider_id));
        let inference_host_id = f.take("inference_host_id", optional_id(&self.inference_host_id));
        let model = f.take("model", short_text(&self.model));
        let engine = f.take("engine", short_text(&self.engine));
        let engine_kind = f.take("engine_kind", optional_choice(&self.engine_kind));
        let engine_version = f.take("engine_version", short_text(&self.engine_version));
        let engine_source = f.take("engine_source", optional_choice(&self.engine_source));
        if matches!(engine_version, Some(Some(_))) && engine_kind == Some(None) {
            f.0.push(("engine_kind", Msg::ErrEngineForVersion));
        }
        let deployment = f.take(
            "deployment",
            choice_or(&self.deployment, Deployment::Unknown),
        );
        let owner_id = f.take("owner_id", optional_id(&self.owner_id));
        let status = f.take("status", choice_or(&self.status, ServiceStatus::InUse));
        let mut data_classes = Vec::new();
        for raw in &self.data_classes {
            if let Some(Some(id)) = f.take("data_classes", optional_id::<DataClassId>(raw)) {
                if !data_classes.contains(&id) {
                    data_classes.push(id);
                }
            }
        }
        let dpa_signed_on = f.take("dpa_signed_on", optional_date(&self.dpa_signed_on));
        let dpa_url = f.take("dpa_url", WebUrl::parse(&self.dpa_url));
        let notice_hours = f.take("notice_hours", optional_hours(&self.notice_hours));
        let notice_channel = f.take("notice_channel", short_text(&self.notice_channel));
        let authority_notifier = f.take(
            "authority_notifier",
            choice_or(&self.authority_notifier, AuthorityNotifier::Unclear),
        );
        if !f.0.is_empty() {
            return Err(f.0);
        }
        let missing = || vec![("name", Msg::ErrFormInvalid)];
        Ok(ServiceDraft {
            name: name.ok_or_else(missing)?,
            purpose: purpose.ok_or_else(missing)?,
            vendor_id: vendor_id.ok_or_else(missing)?,
            integrator_id: integrator_id.ok_or_else(missing)?,
            model_provider_id: model_provider_id.ok_or_else(missing)?,
            inference_host_id: inference_host_id.ok_or_else(missing)?,
            model: model.ok_or_else(missing)?,
            engine: engine.ok_or_else(missing)?,
            engine_kind: engine_kind.ok_or_else(missing)?,
            engine_version: engine_version.ok_or_else(missing)?,
            engine_source: engine_source.ok_or_else(missing)?,
            deployment: deployment.ok_or_else(missing)?,
            owner_id: owner_id.ok_or_else(missing)?,
            status: status.ok_or_else(missing)?,
            data_classes,
            dpa_signed_on: dpa_signed_on.ok_or_else(missing)?,
            dpa_url: dpa_url.ok_or_else(missing)?,
            notice_hours: notice_hours.ok_or_else(missing)?,
            notice_channel: notice_channel.ok_or_else(missing)?,
            authority_notifier: authority_notifier.ok_or_else(missing)?,
        })
    }
}

/// The raw form of one finding.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FindingForm {
    pub topic: String,
    pub status: String,
    pub summary: String,
    pub source_url: String,
    pub checked_on: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FindingDraft {
    pub topic: FindingTopic,
    pub status: FindingStatus,
    pub summary: Option<String>,
    pub source_url: Option<WebUrl>,
    pub checked_on: Option<NaiveDate>,
}

impl FindingForm {
    pub fn parse(&self) -> Result<FindingDraft, FieldErrors> {
        let mut f = Fields(Vec::new());
        let topic = f.take("topic", self.topic.parse());
        let status = f.take("status", self.status.parse());
        let summary = f.take("summary", long_text(&self.summary));
        let source_url = f.take("source_url", WebUrl::parse(&self.source_url));
        let checked_on = f.take("checked_on", optional_date(&self.checked_on));
        match (topic, status, summary, source_url, checked_on) {
            (Some(topic), Some(status), Some(summary), Some(source_url), Some(checked_on)) => {
                // "Verified" needs something to have been verified against.
                if status == FindingStatus::Verified && source_url.is_none() && summary.is_none() {
                    return Err(vec![("source_url", Msg::ErrVerifiedNeedsSource)]);
                }
                Ok(FindingDraft {
                    topic,
                    status,
                    summary,
                    source_url,
                    checked_on,
                })
            }
            _ => Err(f.0),
        }
    }
}

/// What an owner marks a data class as: personal data (the services that
/// receive it are flagged), and whether it needs clearance before it may go
/// into an AI service.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassMarks {
    pub personal: bool,
    pub needs_clearance: bool,
}

/// The data classes a new organisation starts with, as (name, personal data).
pub fn default_data_classes(lang: Lang) -> [(&'static str, bool); 5] {
    [
        (Msg::DataClassPublic.text(lang), false),
        (Msg::DataClassInternal.text(lang), false),
        (Msg::DataClassConfidential.text(lang), false),
        (Msg::DataClassPersonal.text(lang), true),
        (Msg::DataClassSpecial.text(lang), true),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_round_trip_and_refuse_unknown_codes() {
        for r in VendorRole::ALL {
            assert_eq!(r.as_str().parse::<VendorRole>(), Ok(*r));
        }
        for d in Deployment::ALL {
            assert_eq!(d.as_str().parse::<Deployment>(), Ok(*d));
        }
        assert_eq!("owner".parse::<VendorRole>(), Err(Msg::ErrChoiceInvalid));
        assert_eq!("".parse::<ServiceStatus>(), Err(Msg::ErrChoiceInvalid));
    }

    #[test]
    fn names_are_trimmed_bounded_and_compared_without_case() {
        let n = ItemName::parse("  Open   AI ").unwrap();
        assert_eq!(n.as_str(), "Open AI");
        assert_eq!(n.key(), ItemName::parse("open ai").unwrap().key());
        assert_eq!(ItemName::parse("   "), Err(Msg::ErrItemNameRequired));
        assert_eq!(ItemName::parse(&"x".repeat(201)), Err(Msg::ErrTooLong200));
        assert!(ItemName::parse(&"ü".repeat(200)).is_ok());
        assert_eq!(ItemName::parse("a\u{7}b"), Err(Msg::ErrTextControl));
    }

    #[test]
    fn urls_need_a_scheme_and_a_host() {
        assert!(WebUrl::parse("https://example.com/dpa.pdf")
            .unwrap()
            .is_some());
        assert!(WebUrl::parse("http://sub.example.co.uk:8080/x?y=1#z")
            .unwrap()
            .is_some());
        assert_eq!(WebUrl::parse("  "), Ok(None));
        for bad in [
            "example.com",
            "javascript:alert(1)",
            "https://",
            "https://localhost",
            "https://exa mple.com",
            "ftp://example.com",
            "https://.example.com",
            "https://example.com/\nx",
        ] {
            assert_eq!(WebUrl::parse(bad), Err(Msg::ErrUrlInvalid), "{bad}");
        }
        assert_eq!(
            WebUrl::parse(&format!("https://example.com/{}", "a".repeat(2000))),
            Err(Msg::ErrUrlInvalid)
        );
    }

    #[test]
    fn long_text_keeps_lines_and_refuses_control_characters() {
        assert_eq!(long_text(" a\r\nb \n"), Ok(Some("a\nb".into())));
        assert_eq!(long_text(""), Ok(None));
        assert_eq!(long_text("a\u{0}b"), Err(Msg::ErrTextControl));
        assert_eq!(long_text(&"x".repeat(5001)), Err(Msg::ErrTooLong5000));
    }

    #[test]
    fn dates_and_hours() {
        assert_eq!(
            optional_date("2026-11-30"),
            Ok(NaiveDate::from_ymd_opt(2026, 11, 30))
        );
        assert_eq!(optional_date(""), Ok(None));
        assert_eq!(optional_date("30.11.2026"), Err(Msg::ErrDateInvalid));
        assert_eq!(optional_date("2026-02-30"), Err(Msg::ErrDateInvalid));
        assert_eq!(optional_hours("72"), Ok(Some(72)));
        assert_eq!(optional_hours("0"), Err(Msg::ErrHoursInvalid));
        assert_eq!(optional_hours("3 days"), Err(Msg::ErrHoursInvalid));
    }

    #[test]
    fn a_service_form_reports_every_wrong_field_at_once() {
        let form = ServiceForm {
            name: "".into(),
            vendor_id: "not-an-id".into(),
            dpa_url: "www.example.com".into(),
            notice_hours: "-1".into(),
            status: "maybe".into(),
            data_classes: vec!["x".into()],
            ..Default::default()
        };
        let errors = form.parse().unwrap_err();
        let fields: Vec<&str> = errors.iter().map(|(f, _)| *f).collect();
        assert_eq!(
            fields,
            [
                "name",
                "vendor_id",
                "status",
                "data_classes",
                "dpa_url",
                "notice_hours"
            ]
        );
    }

    #[test]
    fn a_service_form_defaults_the_choices_it_may_leave_open() {
        let vendor = VendorId(uuid::Uuid::from_u128(1));
        let dc = DataClassId(uuid::Uuid::from_u128(2));
        let d = ServiceForm {
            name: "Chat assistant".into(),
            vendor_id: vendor.to_string(),
            data_classes: vec![dc.to_string(), dc.to_string()],
            ..Default::default()
        }
        .parse()
        .unwrap();
        assert_eq!(d.vendor_id, vendor);
        assert_eq!(d.status, ServiceStatus::InUse);
        assert_eq!(d.deployment, Deployment::Unknown);
        assert_eq!(d.authority_notifier, AuthorityNotifier::Unclear);
        assert_eq!(d.data_classes, vec![dc], "duplicates collapse");
        assert_eq!(
            ServiceForm::default().parse().unwrap_err(),
            vec![
                ("name", Msg::ErrItemNameRequired),
                ("vendor_id", Msg::ErrVendorRequired)
            ]
        );
    }

    #[test]
    fn a_verified_finding_needs_a_source() {
        let form = FindingForm {
            topic: "separation".into(),
            status: "verified".into(),
            ..Default::default()
        };
        assert_eq!(
            form.parse().unwrap_err(),
            vec![("source_url", Msg::ErrVerifiedNeedsSource)]
        );
        let ok = FindingForm {
            source_url: "https://vendor.example/trust".into(),
            ..form
        }
        .parse()
        .unwrap();
        assert_eq!(ok.topic, FindingTopic::Separation);
    }
}
