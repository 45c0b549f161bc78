//! A small writer of iCalendar text (RFC 5545): content lines with escaped
//! text values, folded at 75 octets, ended by CRLF. It writes what the
//! calendar files and feeds hold (one VCALENDAR of all-day VEVENTs) straight
//! into one string; a feed of 500 follow-ups is one allocation.

use chrono::{DateTime, NaiveDate, Utc};
use std::fmt::Write as _;

/// The longest content line, in octets, before it is folded (3.1).
const LINE: usize = 75;

/// An iCalendar document being written.
pub struct Ics {
    out: String,
}

impl Ics {
    /// Starts a VCALENDAR named `name`, refreshed every `refresh` (an
    /// RFC 5545 duration) by the apps that subscribe to it; `events` is a
    /// guess of how many events follow.
    pub fn calendar(name: &str, refresh: &str, events: usize) -> Ics {
        let mut ics = Ics {
            out: String::with_capacity(256 + 320 * events),
        };
        ics.raw("BEGIN", "VCALENDAR");
        ics.raw("VERSION", "2.0");
        ics.raw("PRODID", "-//aivet//aivet//EN");
        ics.raw("CALSCALE", "GREGORIAN");
        // NAME is RFC 7986's; X-WR-CALNAME is what Apple, Google and
        // Outlook read.
        ics.text("NAME", name);
        ics.text("X-WR-CALNAME", name);
        ics.raw("X-PUBLISHED-TTL", refresh);
        ics.raw("REFRESH-INTERVAL;VALUE=DURATION", refresh);
        ics
    }

    /// Adds an event.
    pub fn event(&mut self, e: &Event<'_>) {
        self.raw("BEGIN", "VEVENT");
        self.raw("UID", e.uid);
        self.utc("DTSTAMP", e.stamp);
        self.text("SUMMARY", e.summary);
        self.text("DESCRIPTION", e.description);
        // An all-day event of one day: DTEND is the next day (3.6.1).
        self.date("DTSTART;VALUE=DATE", e.day);
        self.date("DTEND;VALUE=DATE", e.day.succ_opt().unwrap_or(e.day));
        self.line("SEQUENCE", format_args!("{}", e.sequence));
        self.raw("URL", e.url);
        self.raw("END", "VEVENT");
    }

    /// Ends the calendar.
    pub fn finish(mut self) -> String {
        self.raw("END", "VCALENDAR");
        self.out
    }

    fn date(&mut self, name: &str, day: NaiveDate) {
        self.line(name, format_args!("{}", day.format("%Y%m%d")));
    }

    fn utc(&mut self, name: &str, at: DateTime<Utc>) {
        self.line(name, format_args!("{}", at.format("%Y%m%dT%H%M%SZ")));
    }

    /// A property whose value needs no escaping (a date, a number, a URI
    /// or a fixed word).
    fn raw(&mut self, name: &str, value: &str) {
        self.line(name, format_args!("{value}"));
    }

    fn line(&mut self, name: &str, value: std::fmt::Arguments<'_>) {
        let start = self.out.len();
        self.out.push_str(name);
        self.out.push(':');
        self.out.write_fmt(value).expect("writing to a string");
        self.fold_from(start);
    }

    /// A TEXT property: backslash, semicolon, comma and line breaks
    /// escaped (3.3.11); other control characters, which TEXT may not
    /// hold, left out.
    fn text(&mut self, name: &str, value: &str) {
        let start = self.out.len();
        self.out.push_str(name);
        self.out.push(':');
        let mut chars = value.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' => self.out.push_str("\\\\"),
                ';' => self.out.push_str("\\;"),
                ',' => self.out.push_str("\\,"),
                '\r' if chars.peek() == Some(&'\n') => {}
                '\n' | '\r' => self.out.push_str("\\n"),
                '\t' => self.out.push('\t'),
                c if c.is_control() => {}
                c => self.out.push(c),
            }
        }
        self.fold_from(start);
    }

    /// Folds the line that begins at `start` into lines of at most 75
    /// octets (a continuation line begins with a space, which counts),
    /// never inside a character, and ends it.
    fn fold_from(&mut self, start: usize) {
        if self.out.len() - start <= LINE {
            self.out.push_str("\r\n");
            return;
        }
        let line = self.out.split_off(start);
        let mut rest = line.as_str();
        let mut room = LINE;
        while rest.len() > room {
            let mut cut = room;
            while !rest.is_char_boundary(cut) {
                cut -= 1;
            }
            self.out.push_str(&rest[..cut]);
            self.out.push_str("\r\n ");
            rest = &rest[cut..];
            room = LINE - 1;
        }
        self.out.push_str(rest);
        self.out.push_str("\r\n");
    }
}

/// One all-day event.
pub struct Event<'a> {
    /// Stays the same for the life of the thing the event stands for.
    pub uid: &'a str,
    /// The thing's last change, so that an unchanged calendar is the same
    /// bytes.
    pub stamp: DateTime<Utc>,
    pub summary: &'a str,
    pub description: &'a str,
    pub day: NaiveDate,
    /// Grows with every change of the day.
    pub sequence: i32,
    pub url: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;
    use icalendar::{Calendar, CalendarComponent, Component};

    fn event<'a>(summary: &'a str, description: &'a str) -> Event<'a> {
        Event {
            uid: "5f0c@aivet",
            stamp: "2026-11-30T09:15:02Z".parse().unwrap(),
            summary,
            description,
            day: NaiveDate::from_ymd_opt(2026, 12, 31).unwrap(),
            sequence: 3,
            url: "https://aivet.example/follow-ups",
        }
    }

    fn write(name: &str, events: &[Event<'_>]) -> String {
        let mut ics = Ics::calendar(name, "PT4H", events.len());
        for e in events {
            ics.event(e);
        }
        ics.finish()
    }

    #[test]
    fn lines_end_in_crlf_and_fold_at_75_octets_between_characters() {
        let long =
            "Ærlig talt, dette er et svært langt navn på en tjeneste — 🤖 med emoji og mer tekst "
                .repeat(4);
        let ics = write("Firma", &[event(&long, "Svar ventet")]);
        assert!(ics.ends_with("END:VCALENDAR\r\n"));
        assert!(!ics.replace("\r\n", "").contains('\n'), "only CRLF");
        let lines: Vec<&str> = ics.split("\r\n").collect();
        assert!(lines.iter().all(|l| l.len() <= 75), "{lines:#?}");
        let folded = lines.iter().filter(|l| l.starts_with(' ')).count();
        assert!(folded >= 4, "the long summary is folded: {lines:#?}");
        // Unfolding gives the value back.
        let unfolded = ics.replace("\r\n ", "");
        assert!(unfolded.contains(&format!("SUMMARY:{}\r\n", long.replace(',', "\\,"))));
    }

    #[test]
    fn text_is_escaped_and_control_characters_left_out() {
        let ics = write("A; B, C", &[event("x\\y;z,w\r\nnext\u{7}line", "d")]);
        assert!(ics.contains("NAME:A\\; B\\, C\r\n"), "{ics}");
        assert!(
            ics.contains("SUMMARY:x\\\\y\\;z\\,w\\nnextline\r\n"),
            "{ics}"
        );
    }

    #[test]
    fn an_independent_parser_reads_back_every_value() {
        let names = [
            "Meeting notes",
            "Grüße, Ärger; \"Zitat\" \\ Pfad",
            "שלום עולם",
            &"a".repeat(300),
            "line\nbreak",
            "🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖🤖",
        ];
        let events: Vec<Event<'_>> = names.iter().map(|n| event(n, "Antwort fällig")).collect();
        let ics = write("Firma GmbH", &events);
        let parsed: Calendar = ics.parse().expect("RFC 5545");
        assert_eq!(parsed.get_name(), Some("Firma GmbH"));
        let read: Vec<_> = parsed
            .components
            .iter()
            .filter_map(|c| match c {
                CalendarComponent::Event(e) => Some(e),
                _ => None,
            })
            .collect();
        assert_eq!(read.len(), names.len());
        for (e, name) in read.iter().zip(names) {
            assert_eq!(e.get_summary(), Some(name));
            assert_eq!(e.get_uid(), Some("5f0c@aivet"));
            assert_eq!(e.get_description(), Some("Antwort fällig"));
            assert_eq!(e.property_value("SEQUENCE"), Some("3"));
            assert_eq!(e.property_value("DTSTART"), Some("20261231"));
            assert_eq!(e.property_value("DTEND"), Some("20270101"), "the next day");
            assert_eq!(e.property_value("DTSTAMP"), Some("20261130T091502Z"));
            assert_eq!(e.get_url(), Some("https://aivet.example/follow-ups"));
        }
    }
}
