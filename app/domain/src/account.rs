//! Accounts, organisations and roles: the validated values a sign-up, an invite
//! or a membership change is made of. Errors are UI message keys, so the edge can
//! show them in the user's language next to the field.

use crate::i18n::Msg;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// What a member may do in an organisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Reads everything, changes nothing.
    Viewer,
    /// Keeps the inventory, sends questions, reviews answers.
    Editor,
    /// Everything an editor does, plus members, invitations and settings.
    Owner,
}

impl Role {
    pub const ALL: [Role; 3] = [Role::Owner, Role::Editor, Role::Viewer];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Editor => "editor",
            Role::Viewer => "viewer",
        }
    }
    pub fn can_edit(self) -> bool {
        self >= Role::Editor
    }
    pub fn can_manage_members(self) -> bool {
        self == Role::Owner
    }
    pub fn label(self) -> Msg {
        match self {
            Role::Owner => Msg::RoleOwner,
            Role::Editor => Msg::RoleEditor,
            Role::Viewer => Msg::RoleViewer,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = Msg;
    fn from_str(s: &str) -> Result<Self, Msg> {
        match s {
            "owner" => Ok(Role::Owner),
            "editor" => Ok(Role::Editor),
            "viewer" => Ok(Role::Viewer),
            _ => Err(Msg::ErrRoleInvalid),
        }
    }
}

pub(crate) fn has_control(s: &str) -> bool {
    s.chars()
        .any(|c| c.is_control() || c == '\u{2028}' || c == '\u{2029}')
}

/// An email address, trimmed and lower-cased. Deliberately simple: one `@`, a
/// non-empty local part, a domain with a dot, no spaces or control characters.
/// The mail layer parses it once more with the mail library's own type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Email(String);

impl Email {
    pub const MAX_LEN: usize = 254;

    pub fn parse(input: &str) -> Result<Email, Msg> {
        let s = input.trim();
        if s.is_empty() {
            return Err(Msg::ErrEmailRequired);
        }
        if s.len() > Self::MAX_LEN || has_control(s) || s.chars().any(char::is_whitespace) {
            return Err(Msg::ErrEmailInvalid);
        }
        let (local, domain) = s.rsplit_once('@').ok_or(Msg::ErrEmailInvalid)?;
        let domain_ok = domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && !domain.contains("..")
            && domain
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '.');
        if local.is_empty() || local.contains('@') || local.len() > 64 || !domain_ok {
            return Err(Msg::ErrEmailInvalid);
        }
        if local.chars().any(|c| {
            matches!(
                c,
                '<' | '>' | '(' | ')' | ',' | ';' | ':' | '"' | '\\' | '[' | ']'
            )
        }) {
            return Err(Msg::ErrEmailInvalid);
        }
        Ok(Email(s.to_lowercase()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether the part before the `@` has letters beyond ASCII (`ærlig@…`):
    /// such an address can only be delivered through a mail server that
    /// speaks SMTPUTF8 (RFC 6531). A domain beyond ASCII (`…@blåbær.no`)
    /// needs nothing of the kind; it is sent in its ASCII form (IDNA).
    pub fn needs_smtputf8(&self) -> bool {
        self.0
            .rsplit_once('@')
            .is_some_and(|(local, _)| !local.is_ascii())
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl TryFrom<String> for Email {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        Email::parse(&s).map_err(|m| format!("{m:?}"))
    }
}
impl From<Email> for String {
    fn from(e: Email) -> String {
        e.0
    }
}

/// A new password as typed. Length is what matters (NIST 800-63B): at least 10
/// characters, long passphrases welcome up to 1,024 characters.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

impl Password {
    pub const MIN_CHARS: usize = 10;
    pub const MAX_CHARS: usize = 1024;

    pub fn parse(input: &str) -> Result<Password, Msg> {
        let n = input.chars().count();
        if n < Self::MIN_CHARS {
            return Err(Msg::ErrPasswordTooShort);
        }
        if n > Self::MAX_CHARS {
            return Err(Msg::ErrPasswordTooLong);
        }
        if input.trim().is_empty() {
            return Err(Msg::ErrPasswordTooShort);
        }
        Ok(Password(input.to_owned()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(***)")
    }
}

macro_rules! bounded_text {
    ($(#[$meta:meta])* $name:ident, $max:expr, $required:expr, $too_long:expr) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub struct $name(String);

        impl $name {
            pub const MAX_CHARS: usize = $max;

            /// Trims, collapses inner runs of whitespace, and refuses empty,
            /// over-long or control-character input.
            pub fn parse(input: &str) -> Result<Self, Msg> {
                let s = input.split_whitespace().collect::<Vec<_>>().join(" ");
                if s.is_empty() {
                    return Err($required);
                }
                if s.chars().count() > Self::MAX_CHARS {
                    return Err($too_long);
                }
                if has_control(&s) {
                    return Err(Msg::ErrTextControl);
                }
                Ok(Self(s))
            }
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

bounded_text!(
    /// An organisation's display name.
    OrgName, 120, Msg::ErrOrgNameRequired, Msg::ErrOrgNameTooLong
);
bounded_text!(
    /// A person's display name.
    PersonName, 120, Msg::ErrNameRequired, Msg::ErrNameTooLong
);

/// The URL-safe, unique handle of an organisation: lower-case ASCII letters,
/// digits and single hyphens, 2 to 60 characters.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Slug(String);

impl Slug {
    pub const MAX_LEN: usize = 60;

    pub fn parse(s: &str) -> Option<Slug> {
        let ok = (2..=Self::MAX_LEN).contains(&s.len())
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !s.starts_with('-')
            && !s.ends_with('-')
            && !s.contains("--");
        ok.then(|| Slug(s.to_owned()))
    }

    /// Derives a slug from a display name, transliterating the letters of our
    /// languages (ä → ae, ø → o, ß → ss, …). Falls back to "org" for names with
    /// no usable letter.
    pub fn from_name(name: &str) -> Slug {
        let mut out = String::new();
        for c in name.chars().flat_map(|c| c.to_lowercase()) {
            let piece: &str = match c {
                'a'..='z' | '0'..='9' => {
                    out.push(c);
                    continue;
                }
                'ä' | 'æ' => "ae",
                'ö' | 'œ' => "oe",
                'ü' => "ue",
                'ß' => "ss",
                'ø' | 'ó' | 'ò' | 'ô' => "o",
                'å' | 'á' | 'à' | 'â' => "a",
                'é' | 'è' | 'ê' | 'ë' => "e",
                'í' | 'ì' | 'î' | 'ï' => "i",
                'ú' | 'ù' | 'û' => "u",
                'ñ' => "n",
                'ç' => "c",
                _ => "-",
            };
            out.push_str(piece);
        }
        let mut collapsed = String::new();
        for part in out.split('-').filter(|p| !p.is_empty()) {
            if !collapsed.is_empty() {
                collapsed.push('-');
            }
            collapsed.push_str(part);
        }
        collapsed.truncate(Self::MAX_LEN - 8);
        let collapsed = collapsed.trim_end_matches('-').to_owned();
        if collapsed.len() < 2 {
            return Slug("org".to_owned());
        }
        Slug(collapsed)
    }

    /// The same slug with a numeric suffix, used when the plain one is taken.
    pub fn with_suffix(&self, n: u32) -> Slug {
        Slug(format!("{}-{n}", self.0))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Slug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for Role {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse().map_err(|_| format!("unknown role {s:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        assert_eq!(
            Email::parse("  Ola.Nordmann@Example.NO ").unwrap().as_str(),
            "ola.nordmann@example.no"
        );
        for bad in [
            "",
            "a",
            "a@b",
            "a@@b.c",
            "a b@c.de",
            "a@b..de",
            "x@.de",
            "a\r\n@b.de",
            "\"a\"@b.de",
            "a@b.de\nBcc: x@y.z",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad:?} accepted");
        }
        let utf8 = Email::parse("Ærlig@Eksempel.no").unwrap();
        assert_eq!(utf8.as_str(), "ærlig@eksempel.no");
        assert!(utf8.needs_smtputf8());
        assert!(!Email::parse("ola@blåbær.no").unwrap().needs_smtputf8());
        assert!(!Email::parse("ola@example.no").unwrap().needs_smtputf8());
    }

    #[test]
    fn passwords() {
        assert_eq!(
            Password::parse("short").unwrap_err(),
            Msg::ErrPasswordTooShort
        );
        assert!(Password::parse(&"x".repeat(64)).is_ok());
        assert!(Password::parse(&"ü".repeat(1024)).is_ok());
        assert_eq!(
            Password::parse(&"x".repeat(1025)).unwrap_err(),
            Msg::ErrPasswordTooLong
        );
        assert_eq!(
            Password::parse("          ").unwrap_err(),
            Msg::ErrPasswordTooShort
        );
        assert_eq!(
            format!("{:?}", Password::parse("correct horse battery").unwrap()),
            "Password(***)"
        );
    }

    #[test]
    fn names() {
        assert_eq!(
            OrgName::parse("  Müller   GmbH ").unwrap().as_str(),
            "Müller GmbH"
        );
        assert_eq!(OrgName::parse("   ").unwrap_err(), Msg::ErrOrgNameRequired);
        assert_eq!(
            OrgName::parse(&"a".repeat(121)).unwrap_err(),
            Msg::ErrOrgNameTooLong
        );
        assert_eq!(OrgName::parse("a\u{0}b").unwrap_err(), Msg::ErrTextControl);
    }

    #[test]
    fn slugs() {
        assert_eq!(
            Slug::from_name("Müller & Søn GmbH").as_str(),
            "mueller-son-gmbh"
        );
        assert_eq!(
            Slug::from_name("Bærum Regnskap AS").as_str(),
            "baerum-regnskap-as"
        );
        assert_eq!(Slug::from_name("Straße 1").as_str(), "strasse-1");
        assert_eq!(Slug::from_name("!!!").as_str(), "org");
        assert_eq!(Slug::from_name("東京").as_str(), "org");
        let long = Slug::from_name(&"a b ".repeat(100));
        assert!(Slug::parse(long.with_suffix(99999).as_str()).is_some());
        assert!(Slug::parse("ok-slug").is_some());
        for bad in ["-a", "a-", "a--b", "A", "a_b", "x"] {
            assert!(Slug::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn roles_order_permissions() {
        assert!(Role::Owner.can_manage_members() && Role::Owner.can_edit());
        assert!(!Role::Editor.can_manage_members() && Role::Editor.can_edit());
        assert!(!Role::Viewer.can_edit());
        for r in Role::ALL {
            assert_eq!(r.as_str().parse::<Role>(), Ok(r));
        }
    }
}
