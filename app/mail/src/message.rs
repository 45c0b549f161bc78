//! Building the message that goes over the wire: addresses parsed with
//! lettre's types, headers encoded by lettre (so no name, subject or address
//! can inject a header) — the Subject by us where lettre would copy text
//! that a mail client decodes —, both bodies, our own Message-ID.

use crate::templates::{self, MailTemplate, TemplateError};
use aivet_domain::{Lang, MailId, OrgId};
use aivet_store::NewMail;
use chrono::{DateTime, Duration, Utc};
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart, SinglePart};
use lettre::Address;

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error("invalid address {0:?}")]
    Address(String),
    #[error("building the message: {0}")]
    Build(#[from] lettre::error::Error),
}

/// Who a mail goes to.
#[derive(Clone, Debug)]
pub struct Recipient {
    pub name: Option<String>,
    pub email: String,
    pub lang: Lang,
}

/// Renders and builds mails. One per server, shared.
#[derive(Clone, Debug)]
pub struct Mailer {
    from: Mailbox,
    sealer: crate::Sealer,
    /// The domain of our Message-IDs (the base URL's host).
    id_domain: String,
    give_up_after: Duration,
}

/// An address as it goes over the wire: a domain beyond ASCII in its
/// ASCII form (IDNA, `blåbær.no` → `xn--blbr-roah.no`), so that only a local
/// part beyond ASCII needs a server that speaks SMTPUTF8.
pub fn wire_address(email: &str) -> Option<Address> {
    let (local, domain) = email.trim().rsplit_once('@')?;
    let domain = if domain.is_ascii() {
        domain.to_owned()
    } else {
        match url::Host::parse(domain).ok()? {
            url::Host::Domain(ascii) => ascii,
            _ => return None,
        }
    };
    Address::new(local, domain).ok()
}

fn mailbox(name: Option<&str>, email: &str) -> Result<Mailbox, MailError> {
    let address = wire_address(email).ok_or_else(|| MailError::Address(email.to_owned()))?;
    // Names are single-line display text; lettre encodes what remains.
    let name = name.map(|n| {
        n.split(|c: char| c.is_control() || c == '\u{2028}' || c == '\u{2029}')
            .collect::<Vec<_>>()
            .join(" ")
    });
    Ok(Mailbox::new(name.filter(|n| !n.trim().is_empty()), address))
}

/// The Subject header. lettre copies words of plain ASCII as they are, also
/// one that reads like an RFC 2047 encoded word (`=?utf-8?q?…?=`), which
/// mail clients then decode — into a line break and a "Bcc:" of a name's
/// choosing, say. A subject with `=?` in it is therefore encoded by us as a
/// whole, so that it decodes to exactly the text it is.
#[derive(Clone, Debug)]
struct Subject(String);

impl Header for Subject {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Subject")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Subject(s.to_owned()))
    }

    fn display(&self) -> HeaderValue {
        if !self.0.contains("=?") {
            return HeaderValue::new(Self::name(), self.0.clone());
        }
        let mut encoded = String::new();
        {
            use email_encoding::headers::writer::EmailWriter;
            let mut w = EmailWriter::new(&mut encoded, "Subject: ".len(), 0, false);
            email_encoding::headers::rfc2047::encode(&self.0, &mut w)
                .expect("writing to a String does not fail");
        }
        // What the encoder wrote is base64 encoded words folded with CRLF and
        // a space: ASCII that no value can break out of.
        debug_assert!(encoded
            .split("\r\n ")
            .all(|l| l.bytes().all(|b| (b' '..=b'~').contains(&b))));
        HeaderValue::dangerous_new_pre_encoded(Self::name(), self.0.clone(), encoded)
    }
}

impl Mailer {
    /// `from` like `aivet <aivet@example.com>` or a bare address.
    pub fn new(
        from: &str,
        id_domain: &str,
        give_up_after: Duration,
        sealer: crate::Sealer,
    ) -> Result<Mailer, MailError> {
        let from: Mailbox = from
            .parse()
            .map_err(|_| MailError::Address(from.to_owned()))?;
        Ok(Mailer {
            from,
            sealer,
            id_domain: id_domain.to_owned(),
            give_up_after,
        })
    }

    pub fn from_address(&self) -> String {
        self.from.to_string()
    }

    pub fn envelope_from(&self) -> &Address {
        &self.from.email
    }

    /// The message as queued, unsealed for sending.
    pub fn unseal(&self, stored: &[u8]) -> Option<Vec<u8>> {
        self.sealer.open(stored)
    }

    /// Renders `mail` in the recipient's language and builds the complete
    /// message, ready to be queued.
    pub fn compose<T: MailTemplate>(
        &self,
        to: &Recipient,
        reply_to: Option<&str>,
        org: Option<OrgId>,
        mail: &T,
        now: DateTime<Utc>,
    ) -> Result<NewMail, MailError> {
        Ok(self.compose_with_text(to, reply_to, org, mail, now)?.0)
    }

    /// Like [`Mailer::compose`], also returning the plain-text body (for a
    /// preview), rendered once.
    pub fn compose_with_text<T: MailTemplate>(
        &self,
        to: &Recipient,
        reply_to: Option<&str>,
        org: Option<OrgId>,
        mail: &T,
        now: DateTime<Utc>,
    ) -> Result<(NewMail, String), MailError> {
        let rendered = templates::render(to.lang, mail)?;
        let text = rendered.text.clone();
        let id = MailId(uuid::Uuid::new_v4());
        let message_id = format!("<{}@{}>", id.0.simple(), self.id_domain);
        let mut builder = lettre::Message::builder()
            .from(self.from.clone())
            .to(mailbox(to.name.as_deref(), &to.email)?)
            .header(Subject(rendered.subject.clone()))
            .message_id(Some(message_id.clone()))
            .date(now.into());
        if let Some(r) = reply_to {
            builder = builder.reply_to(mailbox(None, r)?);
        }
        let message = builder.multipart(
            MultiPart::alternative()
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_PLAIN)
                        .body(rendered.text),
                )
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_HTML)
                        .body(rendered.html),
                ),
        )?;
        let mail = NewMail {
            id,
            org_id: org,
            kind: T::NAME,
            recipient: to.email.trim().to_owned(),
            subject: rendered.subject,
            message: self.sealer.seal(&message.formatted()),
            message_id,
            created_at: now,
            give_up_at: now + self.give_up_after,
        };
        Ok((mail, text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::templates::InviteMail;
    use mailparse::MailHeaderMap;

    fn mailer() -> Mailer {
        Mailer::new(
            "aivet <aivet@aivet.test>",
            "aivet.test",
            Duration::hours(72),
            crate::Sealer::new(&[1; 32]),
        )
        .unwrap()
    }

    /// E1: names, subjects and values with CR, LF, U+2028/2029, NUL or
    /// encoded-word look-alikes never add a header or a recipient.
    #[test]
    fn hostile_values_cannot_inject_headers() {
        let hostile = [
            "Eve\r\nBcc: spy@evil.example",
            "Eve\nBcc: spy@evil.example",
            "Eve\rBcc: spy@evil.example",
            "Eve\u{2028}Bcc: spy@evil.example",
            "Eve\u{2029}X-Injected: 1",
            "=?utf-8?q?Eve=0D=0ABcc:_spy@evil.example?=",
            "Eve\0Bcc: spy@evil.example",
            "\"Eve\" <spy@evil.example>, other@evil.example",
        ];
        for (i, h) in hostile.iter().enumerate() {
            let mail = InviteMail {
                org_name: (*h).into(),
                inviter: (*h).into(),
                role: (*h).into(),
                link: "https://aivet.test/invite/x".into(),
                expires: (*h).into(),
            };
            let to = Recipient {
                name: Some((*h).into()),
                email: "ola@example.no".into(),
                lang: Lang::ALL[i % 3],
            };
            let m = mailer()
                .compose(&to, Some("kari@example.no"), None, &mail, Utc::now())
                .unwrap();
            let plain = crate::Sealer::new(&[1; 32]).open(&m.message).unwrap();
            let parsed = mailparse::parse_mail(&plain).unwrap();
            let headers = &parsed.headers;
            assert!(headers.get_first_value("Bcc").is_none(), "{h:?}");
            assert!(headers.get_first_value("X-Injected").is_none(), "{h:?}");
            assert_eq!(headers.get_all_values("To").len(), 1, "{h:?}");
            let to_addrs =
                mailparse::addrparse_header(headers.get_first_header("To").unwrap()).unwrap();
            assert_eq!(to_addrs.len(), 1, "{h:?}");
            let only = match &to_addrs[0] {
                mailparse::MailAddr::Single(s) => s.addr.clone(),
                other => panic!("{other:?}"),
            };
            assert_eq!(only, "ola@example.no", "{h:?}");
            assert_eq!(headers.get_all_values("Subject").len(), 1);
            assert!(!m.subject.contains(['\r', '\n']), "{h:?}");
            assert_eq!(
                headers.get_first_value("Reply-To").as_deref(),
                Some("kari@example.no")
            );
        }
    }

    /// The headers we write (Reply-To only when asked to).
    const OUR_HEADERS: &[&str] = &[
        "from",
        "reply-to",
        "to",
        "subject",
        "message-id",
        "date",
        "mime-version",
        "content-type",
    ];

    /// Text from users that reads like encoded words, quoted strings or
    /// address lists.
    const LOOKALIKES: &[&str] = &[
        "=?utf-8?q?Eve=0D=0ABcc:_spy@evil.example?=",
        "=?utf-8?b?RXZlDQpCY2M6IHNweUBldmlsLmV4YW1wbGU=?=",
        "Eve =?iso-8859-1?q?=E6?= Corp",
        "x=?utf-8?q?a?=y",
        "Ærlig =? AS ?=",
        "\"Eve\" <spy@evil.example>, other@evil.example",
        "Ola Nordmann (IT)",
        "Café Ølstue",
    ];

    /// Parses a composed mail with mailparse and checks what every mail
    /// must hold: only the headers we write, one recipient whose display
    /// name reads back as the user's text, and a Subject that decodes to
    /// exactly the subject we rendered, with the user's text in it literally.
    fn reads_back_literally<T: MailTemplate>(mail: &T, value: &str, in_subject: bool) {
        let to = Recipient {
            name: Some(value.to_owned()),
            email: "ola@example.no".into(),
            lang: Lang::Nb,
        };
        let m = mailer()
            .compose(&to, Some("kari@example.no"), None, mail, Utc::now())
            .unwrap();
        let plain = mailer().unseal(&m.message).unwrap();
        let parsed = mailparse::parse_mail(&plain).unwrap();
        let kind = T::NAME;
        for h in &parsed.headers {
            let name = h.get_key().to_ascii_lowercase();
            assert!(
                OUR_HEADERS.contains(&name.as_str()),
                "{kind}: unexpected header {name:?} for {value:?}"
            );
        }
        let subjects = parsed.headers.get_all_values("Subject");
        assert_eq!(
            subjects,
            std::slice::from_ref(&m.subject),
            "{kind}: {value:?}"
        );
        if in_subject {
            assert!(m.subject.contains(value), "{kind}: {:?}", m.subject);
        }
        let to_addrs =
            mailparse::addrparse_header(parsed.headers.get_first_header("To").unwrap()).unwrap();
        match &to_addrs[..] {
            [mailparse::MailAddr::Single(s)] => {
                assert_eq!(s.addr, "ola@example.no", "{kind}: {value:?}");
                assert_eq!(s.display_name.as_deref(), Some(value), "{kind}");
            }
            other => panic!("{kind}: {value:?} gave {other:?}"),
        }
        let from = parsed.headers.get_all_values("From");
        assert_eq!(from, ["aivet <aivet@aivet.test>"], "{kind}");
    }

    /// E1, for every kind of mail whose subject or recipient name carries
    /// a user's text (organisation, inviter, vendor, service and contact
    /// names): what the user typed is what the mail client shows.
    #[test]
    fn user_text_reads_back_literally_in_every_mail_kind() {
        use crate::templates::{MailQuestion, PasswordResetMail, QuestionsMail, TestMail};
        for v in LOOKALIKES {
            let v = v.to_string();
            reads_back_literally(
                &InviteMail {
                    org_name: v.clone(),
                    inviter: v.clone(),
                    role: v.clone(),
                    link: "https://aivet.test/invite/x".into(),
                    expires: v.clone(),
                },
                &v,
                true,
            );
            reads_back_literally(
                &TestMail {
                    org_name: v.clone(),
                    sender: v.clone(),
                },
                &v,
                true,
            );
            reads_back_literally(
                &PasswordResetMail {
                    name: v.clone(),
                    link: "https://aivet.test/reset-password/x".into(),
                    org_name: String::new(),
                },
                &v,
                false,
            );
            reads_back_literally(
                &QuestionsMail {
                    org_name: v.clone(),
                    sender: v.clone(),
                    contact_name: v.clone(),
                    vendor_name: v.clone(),
                    service_name: v.clone(),
                    questions: vec![MailQuestion {
                        text: v.clone(),
                        why: v.clone(),
                        earlier: Some(v.clone()),
                        note: Some(v.clone()),
                    }],
                    link: "https://aivet.test/answer/x".into(),
                    deadline: v.clone(),
                    expires: v.clone(),
                    again: true,
                },
                &v,
                true,
            );
        }
        // A long subject is folded over several lines and still reads back.
        let long = format!("=?{}?=", "Ærlig leverandør AS ".repeat(12));
        reads_back_literally(
            &TestMail {
                org_name: long.clone(),
                sender: "x".into(),
            },
            long.trim_end(),
            false,
        );
    }

    /// The same property over random values: 500 strings drawn from an
    /// alphabet of line breaks, separators, header-like words and non-ASCII.
    #[test]
    fn random_values_never_add_headers_or_recipients() {
        use rand::{Rng, SeedableRng};
        const PIECES: &[&str] = &[
            "\r",
            "\n",
            "\r\n",
            "\u{2028}",
            "\u{2029}",
            "\u{85}",
            "\0",
            "\t",
            " ",
            ":",
            ";",
            ",",
            "<",
            ">",
            "\"",
            "=?utf-8?q?",
            "?=",
            "Bcc",
            "To",
            "X-Injected",
            "@",
            "evil.example",
            "ø",
            "ß",
            "漢",
            "a",
            "Z",
            "1",
        ];
        let mut rng = rand::rngs::StdRng::seed_from_u64(0x41_49_56_45_54);
        for _ in 0..500 {
            let mut value = String::new();
            for _ in 0..rng.gen_range(1..24) {
                value.push_str(PIECES[rng.gen_range(0..PIECES.len())]);
            }
            let mail = InviteMail {
                org_name: value.clone(),
                inviter: value.clone(),
                role: value.clone(),
                link: "https://aivet.test/invite/x".into(),
                expires: value.clone(),
            };
            let to = Recipient {
                name: Some(value.clone()),
                email: "ola@example.no".into(),
                lang: Lang::En,
            };
            let m = mailer()
                .compose(&to, None, None, &mail, Utc::now())
                .unwrap();
            let plain = mailer().unseal(&m.message).unwrap();
            let parsed = mailparse::parse_mail(&plain).unwrap();
            let names: Vec<String> = parsed
                .headers
                .iter()
                .map(|h| h.get_key().to_ascii_lowercase())
                .collect();
            for allowed in &names {
                assert!(
                    OUR_HEADERS.contains(&allowed.as_str()) && allowed != "reply-to",
                    "unexpected header {allowed:?} for {value:?}"
                );
            }
            assert_eq!(names.iter().filter(|n| *n == "to").count(), 1, "{value:?}");
            let to_addrs =
                mailparse::addrparse_header(parsed.headers.get_first_header("To").unwrap())
                    .unwrap();
            assert_eq!(to_addrs.len(), 1, "{value:?}");
            assert!(!m.subject.contains(['\r', '\n']), "{value:?}");
        }
    }

    /// A domain beyond ASCII goes out in its ASCII form, in the header as
    /// in the envelope; a local part beyond ASCII stays as it is (it needs
    /// SMTPUTF8, which the services check before queueing).
    #[test]
    fn international_domains_are_sent_in_ascii() {
        assert_eq!(
            wire_address("Ola@Blåbær.no").unwrap().to_string(),
            "Ola@xn--blbr-roah.no"
        );
        assert_eq!(
            wire_address("ærlig@eksempel.no").unwrap().to_string(),
            "ærlig@eksempel.no"
        );
        assert!(wire_address("nobody").is_none());
        let to = Recipient {
            name: Some("Ola".into()),
            email: "ola@blåbær.no".into(),
            lang: Lang::Nb,
        };
        let mail = crate::templates::TestMail {
            org_name: "A".into(),
            sender: "B".into(),
        };
        let m = mailer()
            .compose(&to, None, None, &mail, Utc::now())
            .unwrap();
        let plain = mailer().unseal(&m.message).unwrap();
        assert!(plain.is_ascii(), "the header needs no SMTPUTF8");
        let parsed = mailparse::parse_mail(&plain).unwrap();
        assert_eq!(
            parsed.headers.get_first_value("To").as_deref(),
            Some("Ola <ola@xn--blbr-roah.no>")
        );
    }

    #[test]
    fn addresses_are_parsed() {
        let to = Recipient {
            name: None,
            email: "not an address".into(),
            lang: Lang::En,
        };
        let mail = crate::templates::TestMail {
            org_name: "A".into(),
            sender: "B".into(),
        };
        assert!(matches!(
            mailer().compose(&to, None, None, &mail, Utc::now()),
            Err(MailError::Address(_))
        ));
        assert!(Mailer::new(
            "nobody",
            "x",
            Duration::hours(1),
            crate::Sealer::new(&[1; 32])
        )
        .is_err());
        let ok = Recipient {
            name: None,
            email: "a@example.com".into(),
            lang: Lang::En,
        };
        let m = mailer()
            .compose(&ok, None, None, &mail, Utc::now())
            .unwrap();
        assert!(m.message_id.starts_with('<') && m.message_id.ends_with("@aivet.test>"));
        let plain = mailer().unseal(&m.message).unwrap();
        let parsed = mailparse::parse_mail(&plain).unwrap();
        assert_eq!(
            parsed.headers.get_first_value("Message-ID").as_deref(),
            Some(m.message_id.as_str())
        );
    }
}
