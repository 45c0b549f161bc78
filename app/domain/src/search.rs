//! What a person types into a list's search field.
//!
//! Parsed once at the edge: at most [`SearchText::MAX_CHARS`] characters, no
//! control characters but white space. The store matches it literally (its `%`, `_` and `\`
//! are no wildcards); an overlong term is refused with a message instead of
//! reaching the database, whose pattern matching has limits of its own.

use crate::Msg;

/// A search term: trimmed, runs of white space made one space, never empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchText(String);

impl SearchText {
    pub const MAX_CHARS: usize = 200;

    /// `None` for an empty search (everything matches).
    pub fn parse(input: &str) -> Result<Option<SearchText>, Msg> {
        // White space of any kind separates words; other control
        // characters have no place in a search.
        if input.chars().any(|c| c.is_control() && !c.is_whitespace()) {
            return Err(Msg::ErrTextControl);
        }
        let s = input.split_whitespace().collect::<Vec<_>>().join(" ");
        if s.chars().count() > Self::MAX_CHARS {
            return Err(Msg::ErrSearchTooLong);
        }
        Ok((!s.is_empty()).then_some(SearchText(s)))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_trimmed_bounded_and_free_of_control_characters() {
        assert_eq!(SearchText::parse(""), Ok(None));
        assert_eq!(SearchText::parse("  \t "), Ok(None));
        assert_eq!(
            SearchText::parse("  chat \t co ")
                .unwrap()
                .unwrap()
                .as_str(),
            "chat co"
        );
        let longest = "ø".repeat(SearchText::MAX_CHARS);
        assert_eq!(
            SearchText::parse(&longest).unwrap().unwrap().as_str(),
            longest
        );
        assert_eq!(
            SearchText::parse(&format!("{longest}x")),
            Err(Msg::ErrSearchTooLong)
        );
        assert_eq!(
            SearchText::parse(&"a".repeat(50_001)),
            Err(Msg::ErrSearchTooLong)
        );
        assert_eq!(SearchText::parse("a\0b"), Err(Msg::ErrTextControl));
        assert_eq!(
            SearchText::parse("100%_\\").unwrap().unwrap().as_str(),
            "100%_\\"
        );
    }
}
