//! The mail templates: `templates/email/<name>/<lang>/{subject.txt,body.txt,
//! body.html}` on the shared `layout.txt` / `layout.html`, built into the
//! binary. Each mail has a typed context; a variable the template uses but the
//! context lacks is an error, never an empty string.

use aivet_domain::Lang;
use minijinja::{Environment, UndefinedBehavior};
use serde::Serialize;
use std::sync::OnceLock;

/// A mail's context: its fields are the template's variables.
pub trait MailTemplate: Serialize {
    /// The template folder under `templates/email/`.
    const NAME: &'static str;
    /// The organisation the mail speaks for (shown in the layout's footer).
    fn org_name(&self) -> &str;
}

#[derive(Clone, Debug, Serialize)]
pub struct InviteMail {
    pub org_name: String,
    pub inviter: String,
    pub role: String,
    pub link: String,
    pub expires: String,
}

impl MailTemplate for InviteMail {
    const NAME: &'static str = "invite";
    fn org_name(&self) -> &str {
        &self.org_name
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct TestMail {
    pub org_name: String,
    pub sender: String,
}

impl MailTemplate for TestMail {
    const NAME: &'static str = "test";
    fn org_name(&self) -> &str {
        &self.org_name
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct PasswordResetMail {
    pub name: String,
    pub link: String,
    /// Empty: a password reset speaks for no organisation.
    pub org_name: String,
}

impl MailTemplate for PasswordResetMail {
    const NAME: &'static str = "password_reset";
    fn org_name(&self) -> &str {
        &self.org_name
    }
}

/// One question as the mail quotes it.
#[derive(Clone, Debug, Serialize)]
pub struct MailQuestion {
    pub text: String,
    pub why: String,
    /// When asked again: the vendor's earlier answer, and why it was not
    /// enough.
    pub earlier: Option<String>,
    pub note: Option<String>,
}

/// The questions to a vendor, with the personal answer link.
#[derive(Clone, Debug, Serialize)]
pub struct QuestionsMail {
    pub org_name: String,
    pub sender: String,
    /// Empty when the contact has no name.
    pub contact_name: String,
    pub vendor_name: String,
    pub service_name: String,
    pub questions: Vec<MailQuestion>,
    pub link: String,
    pub deadline: String,
    pub expires: String,
    /// Asking again the questions that stayed open.
    pub again: bool,
}

impl MailTemplate for QuestionsMail {
    const NAME: &'static str = "questions";
    fn org_name(&self) -> &str {
        &self.org_name
    }
}

/// One open question quoted in a reminder, with its number in the request.
#[derive(Clone, Debug, Serialize)]
pub struct ReminderQuestion {
    pub number: usize,
    pub text: String,
}

/// A reminder to the vendor contact of a request still waiting for an
/// answer: the open questions, the same answer link, the deadline.
#[derive(Clone, Debug, Serialize)]
pub struct ReminderMail {
    pub org_name: String,
    pub contact_name: String,
    pub service_name: String,
    pub questions: Vec<ReminderQuestion>,
    /// The answer link the first mail carried (requests sent before links
    /// were kept have none: the vendor uses the first mail's).
    pub link: Option<String>,
    pub deadline: String,
    /// The deadline has passed.
    pub overdue: bool,
}

impl MailTemplate for ReminderMail {
    const NAME: &'static str = "reminder";
    fn org_name(&self) -> &str {
        &self.org_name
    }
}

/// One item of a digest.
#[derive(Clone, Debug, Serialize)]
pub struct DigestItem {
    pub service: String,
    pub vendor: String,
    pub reason: String,
    pub due: String,
    pub overdue: bool,
    pub link: String,
}

/// A member's digest of their follow-ups.
#[derive(Clone, Debug, Serialize)]
pub struct DigestMail {
    pub org_name: String,
    pub name: String,
    /// "3 follow-ups, 1 overdue", in the member's language.
    pub summary: String,
    pub items: Vec<DigestItem>,
    pub board_link: String,
    pub weekly: bool,
}

impl MailTemplate for DigestMail {
    const NAME: &'static str = "digest";
    fn org_name(&self) -> &str {
        &self.org_name
    }
}

/// To the member who asked (and the services' owners): the vendor has
/// answered, here is the review.
#[derive(Clone, Debug, Serialize)]
pub struct AnswersArrivedMail {
    pub org_name: String,
    pub name: String,
    pub vendor_name: String,
    /// Who answered, as they gave their name.
    pub responder: String,
    /// The services asked about, as a list in the reader's language.
    pub service_name: String,
    pub link: String,
}

impl MailTemplate for AnswersArrivedMail {
    const NAME: &'static str = "answers_arrived";
    fn org_name(&self) -> &str {
        &self.org_name
    }
}

/// To the organisation's owners: an incident with personal data has no
/// Art. 33 decision yet, `hours` after we became aware (at 72: the
/// deadline passed).
#[derive(Clone, Debug, Serialize)]
pub struct Art33AlertMail {
    pub org_name: String,
    pub name: String,
    pub title: String,
    pub hours: u8,
    pub missed: bool,
    /// The deadline in the reader's language and the organisation's zone.
    pub deadline: String,
    /// The time left, in words (empty when missed).
    pub left: String,
    pub link: String,
}

impl MailTemplate for Art33AlertMail {
    const NAME: &'static str = "art33_alert";
    fn org_name(&self) -> &str {
        &self.org_name
    }
}

/// The mail names, for the completeness tests.
pub const NAMES: &[&str] = &[
    "invite",
    "test",
    "password_reset",
    "questions",
    "reminder",
    "digest",
    "answers_arrived",
    "art33_alert",
];

macro_rules! embed {
    ($($name:literal),*) => {
        &[
            "layout.html", include_str!("../../../templates/email/layout.html"),
            "layout.txt", include_str!("../../../templates/email/layout.txt"),
            $(
                concat!($name, "/en/subject.txt"), include_str!(concat!("../../../templates/email/", $name, "/en/subject.txt")),
                concat!($name, "/en/body.txt"), include_str!(concat!("../../../templates/email/", $name, "/en/body.txt")),
                concat!($name, "/en/body.html"), include_str!(concat!("../../../templates/email/", $name, "/en/body.html")),
                concat!($name, "/de/subject.txt"), include_str!(concat!("../../../templates/email/", $name, "/de/subject.txt")),
                concat!($name, "/de/body.txt"), include_str!(concat!("../../../templates/email/", $name, "/de/body.txt")),
                concat!($name, "/de/body.html"), include_str!(concat!("../../../templates/email/", $name, "/de/body.html")),
                concat!($name, "/nb/subject.txt"), include_str!(concat!("../../../templates/email/", $name, "/nb/subject.txt")),
                concat!($name, "/nb/body.txt"), include_str!(concat!("../../../templates/email/", $name, "/nb/body.txt")),
                concat!($name, "/nb/body.html"), include_str!(concat!("../../../templates/email/", $name, "/nb/body.html")),
            )*
        ]
    };
}

type Pair = (&'static str, &'static str);

fn pairs() -> Vec<Pair> {
    let flat: &[&str] = embed!(
        "invite",
        "test",
        "password_reset",
        "questions",
        "reminder",
        "digest",
        "answers_arrived",
        "art33_alert"
    );
    flat.chunks(2).map(|c| (c[0], c[1])).collect()
}

fn env() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        for (name, source) in pairs() {
            env.add_template(name, source)
                .unwrap_or_else(|e| panic!("template {name}: {e}"));
        }
        env
    })
}

/// A rendered mail: one subject line, a plain text and an HTML body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    pub subject: String,
    pub text: String,
    pub html: String,
}

#[derive(Debug, thiserror::Error)]
#[error("mail template {name}: {source}")]
pub struct TemplateError {
    pub name: String,
    #[source]
    pub source: minijinja::Error,
}

#[derive(Serialize)]
struct Context<'a, T: Serialize> {
    lang: &'static str,
    subject: &'a str,
    #[serde(flatten)]
    mail: &'a T,
}

/// Renders a mail in one language.
pub fn render<T: MailTemplate>(lang: Lang, mail: &T) -> Result<Rendered, TemplateError> {
    let env = env();
    let path = |part: &str| format!("{}/{}/{part}", T::NAME, lang.code());
    let get = |part: &str| -> Result<String, TemplateError> {
        let name = path(part);
        let subject_ctx = Context {
            lang: lang.code(),
            subject: "",
            mail,
        };
        env.get_template(&name)
            .and_then(|t| t.render(&subject_ctx))
            .map_err(|source| TemplateError { name, source })
    };
    // One line, whatever the template or the values contain.
    let subject = get("subject.txt")?
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let ctx = Context {
        lang: lang.code(),
        subject: &subject,
        mail,
    };
    let body = |part: &str| -> Result<String, TemplateError> {
        let name = path(part);
        env.get_template(&name)
            .and_then(|t| t.render(&ctx))
            .map_err(|source| TemplateError { name, source })
    };
    let text = body("body.txt")?.trim().to_owned() + "\n";
    let html = body("body.html")?;
    Ok(Rendered {
        subject: subject.clone(),
        text,
        html,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invite() -> InviteMail {
        InviteMail {
            org_name: "Müller & Söhne <GmbH>".into(),
            inviter: "Kari Nordmann".into(),
            role: "editor".into(),
            link: "https://aivet.example/invite/abc".into(),
            expires: "7 Dec 2026".into(),
        }
    }

    #[test]
    fn every_template_exists_in_every_language() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../templates/email");
        let on_disk: Vec<String> = std::fs::read_dir(&root)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        for name in &on_disk {
            assert!(
                NAMES.contains(&name.as_str()),
                "templates/email/{name} is not built into the binary (add it to NAMES and embed!)"
            );
        }
        for name in NAMES {
            for lang in Lang::ALL {
                for part in ["subject.txt", "body.txt", "body.html"] {
                    let p = root.join(name).join(lang.code()).join(part);
                    assert!(p.exists(), "missing {}", p.display());
                }
            }
        }
    }

    #[test]
    fn renders_every_language_with_escaping() {
        for lang in Lang::ALL {
            let r = render(lang, &invite()).unwrap();
            assert!(!r.subject.contains('\n'));
            assert!(r.text.contains("https://aivet.example/invite/abc"));
            assert!(
                r.text.contains("Müller & Söhne <GmbH>"),
                "plain text is not escaped"
            );
            assert!(
                r.html.contains("Müller &amp; Söhne &lt;GmbH&gt;"),
                "HTML is escaped"
            );
            // minijinja escapes "/" in HTML as &#x2f;, which every mail client decodes.
            assert!(r
                .html
                .replace("&#x2f;", "/")
                .contains(r#"href="https://aivet.example/invite/abc""#));
            assert!(r
                .html
                .contains(&format!(r#"<html lang="{}">"#, lang.code())));
        }
        assert!(render(Lang::De, &invite())
            .unwrap()
            .text
            .contains("Guten Tag"));
        assert!(render(Lang::Nb, &invite())
            .unwrap()
            .subject
            .contains("inviterer deg"));
    }

    #[derive(Serialize)]
    struct Incomplete {
        org_name: String,
    }
    impl MailTemplate for Incomplete {
        const NAME: &'static str = "invite";
        fn org_name(&self) -> &str {
            &self.org_name
        }
    }

    #[test]
    fn a_missing_variable_is_an_error() {
        let e = render(
            Lang::En,
            &Incomplete {
                org_name: "X".into(),
            },
        )
        .unwrap_err();
        assert!(e.to_string().contains("invite/en/subject.txt"), "{e}");
    }

    /// Snapshots: the rendered text of each mail in each language, checked
    /// against `app/mail/tests/snapshots/`. Set AIVET_TEST_UPDATE_SNAPSHOTS=1 to
    /// write them after a deliberate change.
    #[test]
    fn rendered_mails_match_their_snapshots() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
        let update = std::env::var("AIVET_TEST_UPDATE_SNAPSHOTS").as_deref() == Ok("1");
        let test_mail = TestMail {
            org_name: "Bærum Regnskap AS".into(),
            sender: "Kari".into(),
        };
        let mut mismatches = Vec::new();
        for lang in Lang::ALL {
            // Dates and counts come formatted in the reader's language, as
            // the callers do it.
            let fmt = aivet_domain::Fmt::new(lang, aivet_domain::Zone::default_for(lang));
            let day = |d: u32| fmt.date(chrono::NaiveDate::from_ymd_opt(2026, 12, d).unwrap());
            let reset = PasswordResetMail {
                name: "Kari".into(),
                link: "https://aivet.example/reset-password/abc".into(),
                org_name: String::new(),
            };
            let questions = QuestionsMail {
                org_name: "Bærum Regnskap AS".into(),
                sender: "Kari Nordmann".into(),
                contact_name: "Dana Scully".into(),
                vendor_name: "Example AI Ltd".into(),
                service_name: "Meeting notes".into(),
                questions: vec![
                    MailQuestion {
                        text: "Are caches separated?".into(),
                        why: "Because of 2026.".into(),
                        earlier: None,
                        note: None,
                    },
                    MailQuestion {
                        text: "Who notifies whom?".into(),
                        why: "The 72-hour clock.".into(),
                        earlier: Some("We <will> tell you.".into()),
                        note: Some("Whom, and within how many hours?".into()),
                    },
                ],
                link: "https://aivet.example/answer/abc".into(),
                deadline: day(14),
                expires: fmt.date(chrono::NaiveDate::from_ymd_opt(2027, 1, 13).unwrap()),
                again: lang == Lang::Nb,
            };
            let reminder = ReminderMail {
                org_name: "Bærum Regnskap AS".into(),
                contact_name: "Dana Scully".into(),
                service_name: "Meeting notes".into(),
                questions: vec![ReminderQuestion {
                    number: 3,
                    text: "Do you test for <leaks>?".into(),
                }],
                link: Some("https://aivet.example/answer/abc".into()),
                deadline: day(14),
                overdue: lang != Lang::En,
            };
            let digest = DigestMail {
                org_name: "Bærum Regnskap AS".into(),
                name: "Kari".into(),
                summary: format!(
                    "{}, {}",
                    aivet_domain::msg!(lang, aivet_domain::Msg::DigestSummary, n = 2usize),
                    aivet_domain::msg!(lang, aivet_domain::Msg::DigestOverdue, n = 1usize)
                ),
                items: vec![
                    DigestItem {
                        service: "Meeting notes".into(),
                        vendor: "Example AI Ltd".into(),
                        reason: aivet_domain::Msg::ReasonAnswerDue.text(lang).into(),
                        due: day(14),
                        overdue: true,
                        link: "https://aivet.example/requests/1".into(),
                    },
                    DigestItem {
                        service: "Translator <b>".into(),
                        vendor: "Lingo".into(),
                        reason: aivet_domain::Msg::ReasonReviewDue.text(lang).into(),
                        due: day(16),
                        overdue: false,
                        link: "https://aivet.example/requests/2".into(),
                    },
                ],
                board_link: "https://aivet.example/follow-ups".into(),
                weekly: lang == Lang::De,
            };
            let arrived = AnswersArrivedMail {
                org_name: "Bærum Regnskap AS".into(),
                name: "Kari".into(),
                vendor_name: "TextKI GmbH".into(),
                responder: "Dana <Scully>".into(),
                service_name: lang.list(&["Meeting notes".into(), "Translator".into()]),
                link: "https://aivet.example/requests/1".into(),
            };
            for (name, r) in [
                ("answers_arrived", render(lang, &arrived).unwrap()),
                ("digest", render(lang, &digest).unwrap()),
                ("reminder", render(lang, &reminder).unwrap()),
                ("invite", render(lang, &invite()).unwrap()),
                ("questions", render(lang, &questions).unwrap()),
                // Several services of one vendor in one mail: the sentence
                // that names them must read right for any vendor's name.
                (
                    "questions_several",
                    render(
                        lang,
                        &QuestionsMail {
                            vendor_name: "TextKI GmbH".into(),
                            service_name: lang.list(&[
                                "Meeting notes".into(),
                                "Translator".into(),
                                "Letter drafts".into(),
                            ]),
                            ..questions.clone()
                        },
                    )
                    .unwrap(),
                ),
                ("test", render(lang, &test_mail).unwrap()),
                ("password_reset", render(lang, &reset).unwrap()),
            ] {
                let text = format!(
                    "Subject: {}\n\n{}\n---- html ----\n{}",
                    r.subject, r.text, r.html
                );
                let path = dir.join(format!("{name}.{}.txt", lang.code()));
                if update {
                    std::fs::create_dir_all(&dir).unwrap();
                    std::fs::write(&path, &text).unwrap();
                } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                    mismatches.push(path.display().to_string());
                }
            }
        }
        assert!(mismatches.is_empty(), "rendered mails differ from their snapshots (AIVET_TEST_UPDATE_SNAPSHOTS=1 to accept): {mismatches:?}");
    }
}
