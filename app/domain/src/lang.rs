//! The languages of the interface, the emails and the report.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    De,
    Nb,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::De, Lang::Nb];

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
            Lang::Nb => "nb",
        }
    }

    /// Names as a sentence in this language lists them: "A", "A and B",
    /// "A, B and C".
    pub fn list(self, names: &[String]) -> String {
        let and = match self {
            Lang::En => "and",
            Lang::De => "und",
            Lang::Nb => "og",
        };
        match names {
            [] => String::new(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} {and} {last}", rest.join(", ")),
        }
    }

    /// The language's own name, as shown in the language switcher.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::De => "Deutsch",
            Lang::Nb => "Norsk bokmål",
        }
    }

    /// Parses a language tag such as `de-AT`, `nb-NO`, `no` or `nn` (Norwegian
    /// readers understand Bokmål) into one of our languages.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "de" => Some(Lang::De),
            "nb" | "no" | "nn" => Some(Lang::Nb),
            _ => None,
        }
    }

    /// Picks the best of our languages from an `Accept-Language` header, honouring
    /// q-values; English when nothing matches.
    pub fn negotiate(accept_language: &str) -> Lang {
        let mut best: Option<(f32, usize, Lang)> = None;
        for (pos, part) in accept_language.split(',').enumerate() {
            let mut pieces = part.split(';');
            let tag = pieces.next().unwrap_or("");
            let q = pieces
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if q <= 0.0 {
                continue;
            }
            if let Some(lang) = Lang::from_tag(tag) {
                // Higher q wins; on a tie, the earlier entry wins.
                let better = match best {
                    None => true,
                    Some((bq, bpos, _)) => q > bq || (q == bq && pos < bpos),
                };
                if better {
                    best = Some((q, pos, lang));
                }
            }
        }
        best.map(|(_, _, l)| l).unwrap_or_default()
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Lang {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "en" => Ok(Lang::En),
            "de" => Ok(Lang::De),
            "nb" => Ok(Lang::Nb),
            _ => Err(()),
        }
    }
}

impl TryFrom<String> for Lang {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse().map_err(|_| format!("unknown language {s:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negotiates_accept_language() {
        assert_eq!(Lang::negotiate("de-DE,de;q=0.9,en;q=0.8"), Lang::De);
        assert_eq!(Lang::negotiate("fr-FR, nb;q=0.7, en;q=0.5"), Lang::Nb);
        assert_eq!(Lang::negotiate("no"), Lang::Nb);
        assert_eq!(Lang::negotiate("en;q=0.2, de;q=0.9"), Lang::De);
        assert_eq!(Lang::negotiate("fr, it"), Lang::En);
        assert_eq!(Lang::negotiate(""), Lang::En);
        assert_eq!(Lang::negotiate("de;q=0, nb"), Lang::Nb);
    }

    #[test]
    fn codes_round_trip() {
        for l in Lang::ALL {
            assert_eq!(l.code().parse::<Lang>(), Ok(l));
        }
    }
}
