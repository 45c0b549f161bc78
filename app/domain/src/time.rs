//! Time as the people of an organisation read it: the organisation's time
//! zone, "today" and "this week" there, and dates, times and durations as
//! they are written in English, German and Norwegian Bokmål.
//!
//! Instants are stored and compared in UTC everywhere else; this module is
//! the one place that turns them into local dates and times, and the one
//! place that writes them for people (pages, mails, the report). It takes
//! "now" as an argument: it never reads a clock.

use crate::i18n::Msg;
use crate::lang::Lang;
use chrono::{DateTime, Datelike, Duration, LocalResult, NaiveDate, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// An organisation's time zone (an IANA name such as `Europe/Berlin`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Zone(Tz);

impl Zone {
    pub const UTC: Zone = Zone(Tz::UTC);

    /// Parses an IANA time zone name (letter case does not matter).
    pub fn parse(name: &str) -> Result<Zone, Msg> {
        let name = name.trim();
        Tz::from_str(name)
            .ok()
            .or_else(|| {
                chrono_tz::TZ_VARIANTS
                    .iter()
                    .find(|tz| tz.name().eq_ignore_ascii_case(name))
                    .copied()
            })
            .map(Zone)
            .ok_or(Msg::ErrTimeZoneInvalid)
    }

    /// Where a new organisation is most likely to be, from its owner's
    /// language.
    pub fn default_for(lang: Lang) -> Zone {
        Zone(match lang {
            Lang::De => Tz::Europe__Berlin,
            Lang::Nb => Tz::Europe__Oslo,
            Lang::En => Tz::Europe__London,
        })
    }

    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// The zones an owner can choose from: the geographic IANA zones and
    /// UTC, by name.
    pub fn choices() -> Vec<Zone> {
        const AREAS: [&str; 9] = [
            "Africa/",
            "America/",
            "Antarctica/",
            "Asia/",
            "Atlantic/",
            "Australia/",
            "Europe/",
            "Indian/",
            "Pacific/",
        ];
        let mut zones: Vec<Zone> = chrono_tz::TZ_VARIANTS
            .iter()
            .filter(|tz| AREAS.iter().any(|a| tz.name().starts_with(a)))
            .map(|tz| Zone(*tz))
            .collect();
        zones.push(Zone::UTC);
        zones.sort_by_key(|z| z.name());
        zones
    }

    /// The instant in this zone's local time.
    pub fn local(self, at: DateTime<Utc>) -> DateTime<Tz> {
        at.with_timezone(&self.0)
    }

    /// The local date at the instant `now`.
    pub fn today(self, now: DateTime<Utc>) -> NaiveDate {
        self.local(now).date_naive()
    }

    /// The instant at which the clocks of this zone show `time` on `date`.
    /// A time that does not exist there (the hour skipped when summer time
    /// begins) is moved forward by the gap, as clocks are; a time that
    /// exists twice (when summer time ends) is taken the first time.
    pub fn at(self, date: NaiveDate, time: NaiveTime) -> DateTime<Utc> {
        let naive = date.and_time(time);
        match self.0.from_local_datetime(&naive) {
            LocalResult::Single(t) => t.with_timezone(&Utc),
            LocalResult::Ambiguous(first, _) => first.with_timezone(&Utc),
            LocalResult::None => {
                // Read the time with the offset in force just before the
                // gap: 02:30 at +01:00 is 01:30 UTC, when clocks show 03:30.
                let mut before = naive;
                for _ in 0..(48 * 60) {
                    before -= Duration::minutes(1);
                    if let Some(t) = self.0.from_local_datetime(&before).latest() {
                        let offset = chrono::Offset::fix(t.offset()).local_minus_utc();
                        return Utc.from_utc_datetime(&naive)
                            - Duration::seconds(i64::from(offset));
                    }
                }
                Utc.from_utc_datetime(&naive)
            }
        }
    }

    /// The first instant of `date` in this zone.
    pub fn start_of(self, date: NaiveDate) -> DateTime<Utc> {
        self.at(date, NaiveTime::MIN)
    }

    /// The first instant after `date` in this zone (days are 23 or 25
    /// hours long when the clocks change).
    pub fn end_of(self, date: NaiveDate) -> DateTime<Utc> {
        self.start_of(date.succ_opt().unwrap_or(date))
    }

    /// The zone's abbreviation at `at` (CET, CEST, GMT, BST), as printed
    /// next to a deadline.
    pub fn abbreviation(self, at: DateTime<Utc>) -> String {
        self.local(at).format("%Z").to_string()
    }
}

impl Default for Zone {
    fn default() -> Self {
        Zone::default_for(Lang::default())
    }
}

impl fmt::Display for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl TryFrom<String> for Zone {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        Zone::parse(&s).map_err(|_| format!("unknown time zone {s:?}"))
    }
}

impl From<Zone> for String {
    fn from(z: Zone) -> String {
        z.name().to_owned()
    }
}

/// A calendar week, Monday to Sunday (as in all of Europe).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Week {
    pub monday: NaiveDate,
    pub sunday: NaiveDate,
}

impl Week {
    pub fn of(date: NaiveDate) -> Week {
        let monday = date - Duration::days(i64::from(date.weekday().num_days_from_monday()));
        Week {
            monday,
            sunday: monday + Duration::days(6),
        }
    }
    pub fn contains(&self, date: NaiveDate) -> bool {
        self.monday <= date && date <= self.sunday
    }
}

const MONTHS_EN: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const MONTHS_EN_SHORT: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const MONTHS_DE: [&str; 12] = [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
];
const MONTHS_NB: [&str; 12] = [
    "januar",
    "februar",
    "mars",
    "april",
    "mai",
    "juni",
    "juli",
    "august",
    "september",
    "oktober",
    "november",
    "desember",
];

/// Writes dates, times and durations for one reader: in their language,
/// in the organisation's time zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fmt {
    pub lang: Lang,
    pub zone: Zone,
}

impl Fmt {
    pub fn new(lang: Lang, zone: Zone) -> Fmt {
        Fmt { lang, zone }
    }

    /// A date as a letter writes it: `1 December 2026`,
    /// `1. Dezember 2026`, `1. desember 2026`.
    pub fn date(&self, d: NaiveDate) -> String {
        let m = d.month0() as usize;
        match self.lang {
            Lang::En => format!("{} {} {}", d.day(), MONTHS_EN[m], d.year()),
            Lang::De => format!("{}. {} {}", d.day(), MONTHS_DE[m], d.year()),
            Lang::Nb => format!("{}. {} {}", d.day(), MONTHS_NB[m], d.year()),
        }
    }

    /// A date for tables and lists: `1 Dec 2026`, `01.12.2026`.
    pub fn date_short(&self, d: NaiveDate) -> String {
        match self.lang {
            Lang::En => format!(
                "{} {} {}",
                d.day(),
                MONTHS_EN_SHORT[d.month0() as usize],
                d.year()
            ),
            Lang::De | Lang::Nb => d.format("%d.%m.%Y").to_string(),
        }
    }

    /// The local date of an instant, as [`Fmt::date`] writes it.
    pub fn day(&self, at: DateTime<Utc>) -> String {
        self.date(self.zone.today(at))
    }

    /// The local date of an instant, as [`Fmt::date_short`] writes it.
    pub fn day_short(&self, at: DateTime<Utc>) -> String {
        self.date_short(self.zone.today(at))
    }

    /// The local time of an instant: `14:00`.
    pub fn time(&self, at: DateTime<Utc>) -> String {
        self.zone.local(at).format("%H:%M").to_string()
    }

    /// Date and time: `1 December 2026, 14:00`, `1. Dezember 2026, 14:00`,
    /// `1. desember 2026 kl. 14:00`.
    pub fn date_time(&self, at: DateTime<Utc>) -> String {
        self.join(self.day(at), self.time(at))
    }

    /// Date and time for tables: `1 Dec 2026, 14:00`, `01.12.2026, 14:00`,
    /// `01.12.2026 kl. 14:00`.
    pub fn date_time_short(&self, at: DateTime<Utc>) -> String {
        self.join(self.day_short(at), self.time(at))
    }

    /// Date and time with the zone, for deadlines read by people elsewhere:
    /// `1. Dezember 2026, 14:00 CET`.
    pub fn date_time_zone(&self, at: DateTime<Utc>) -> String {
        format!("{} {}", self.date_time(at), self.zone.abbreviation(at))
    }

    fn join(&self, date: String, time: String) -> String {
        match self.lang {
            Lang::Nb => format!("{date} kl. {time}"),
            Lang::En | Lang::De => format!("{date}, {time}"),
        }
    }

    /// A length of time in its two largest units, rounded down:
    /// `3 days`, `2 days and 5 hours`, `1 hour and 1 minute`,
    /// `less than a minute`. The sign is ignored (the sentence around it
    /// says whether it is left or past).
    pub fn duration(&self, d: Duration) -> String {
        let total = d.num_minutes().abs();
        let (days, hours, minutes) = (total / (24 * 60), total / 60 % 24, total % 60);
        let parts: Vec<String> = [
            (days, Msg::DurationDays),
            (hours, Msg::DurationHours),
            (minutes, Msg::DurationMinutes),
        ]
        .into_iter()
        .skip_while(|(n, _)| *n == 0)
        .take(2)
        .filter(|(n, _)| *n > 0)
        .map(|(n, m)| m.format(self.lang, &[("n", crate::i18n::Arg::Count(n))]))
        .collect();
        if parts.is_empty() {
            Msg::DurationUnderMinute.text(self.lang).to_owned()
        } else {
            self.lang.list(&parts)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap()
    }
    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }
    fn hm(h: u32, m: u32) -> NaiveTime {
        NaiveTime::from_hms_opt(h, m, 0).unwrap()
    }
    const BERLIN: &str = "Europe/Berlin";
    const OSLO: &str = "Europe/Oslo";

    #[test]
    fn the_examples_of_each_language() {
        let at = utc(2026, 12, 1, 13, 0);
        let de = Fmt::new(Lang::De, Zone::parse(BERLIN).unwrap());
        let nb = Fmt::new(Lang::Nb, Zone::parse(OSLO).unwrap());
        let en = Fmt::new(Lang::En, Zone::parse("Europe/London").unwrap());
        assert_eq!(de.date_time(at), "1. Dezember 2026, 14:00");
        assert_eq!(nb.date_time(at), "1. desember 2026 kl. 14:00");
        assert_eq!(en.date_time(at), "1 December 2026, 13:00");
        assert_eq!(de.date_time_short(at), "01.12.2026, 14:00");
        assert_eq!(nb.date_time_short(at), "01.12.2026 kl. 14:00");
        assert_eq!(en.date_time_short(at), "1 Dec 2026, 13:00");
        assert_eq!(de.date_time_zone(at), "1. Dezember 2026, 14:00 CET");
        assert_eq!(en.date(date(2026, 3, 9)), "9 March 2026");
        assert_eq!(de.date(date(2026, 3, 9)), "9. März 2026");
        assert_eq!(nb.date(date(2026, 3, 9)), "9. mars 2026");
    }

    #[test]
    fn defaults_follow_the_owners_language() {
        assert_eq!(Zone::default_for(Lang::De).name(), BERLIN);
        assert_eq!(Zone::default_for(Lang::Nb).name(), OSLO);
        assert_eq!(Zone::default_for(Lang::En).name(), "Europe/London");
    }

    #[test]
    fn names_parse_and_unknown_ones_are_refused() {
        assert_eq!(Zone::parse("europe/berlin").unwrap().name(), BERLIN);
        assert_eq!(Zone::parse(" Europe/Oslo ").unwrap().name(), OSLO);
        assert_eq!(Zone::parse("Mars/Olympus"), Err(Msg::ErrTimeZoneInvalid));
        assert_eq!(Zone::parse(""), Err(Msg::ErrTimeZoneInvalid));
        let choices = Zone::choices();
        assert!(choices.contains(&Zone::parse(BERLIN).unwrap()));
        assert!(choices.contains(&Zone::UTC));
        assert!(choices.windows(2).all(|w| w[0].name() < w[1].name()));
    }

    #[test]
    fn today_is_the_local_date() {
        let berlin = Zone::parse(BERLIN).unwrap();
        // 23:30 UTC on 28 March is already 29 March in Berlin.
        assert_eq!(berlin.today(utc(2026, 3, 28, 23, 30)), date(2026, 3, 29));
        assert_eq!(Zone::UTC.today(utc(2026, 3, 28, 23, 30)), date(2026, 3, 28));
        // In summer Berlin is two hours ahead: 22:30 UTC is past midnight.
        assert_eq!(berlin.today(utc(2026, 7, 1, 22, 30)), date(2026, 7, 2));
        assert_eq!(berlin.today(utc(2026, 7, 1, 21, 59)), date(2026, 7, 1));
    }

    #[test]
    fn summer_time_begins_in_berlin_and_oslo() {
        // 29 March 2026: clocks go from 02:00 to 03:00.
        for name in [BERLIN, OSLO] {
            let z = Zone::parse(name).unwrap();
            let d = date(2026, 3, 29);
            assert_eq!(z.start_of(d), utc(2026, 3, 28, 23, 0), "{name}");
            assert_eq!(
                z.end_of(d),
                utc(2026, 3, 29, 22, 0),
                "{name}: a 23-hour day"
            );
            assert_eq!(z.end_of(d) - z.start_of(d), Duration::hours(23));
            assert_eq!(z.at(d, hm(1, 59)), utc(2026, 3, 29, 0, 59));
            // 02:30 does not exist: the clocks show 03:30 then.
            assert_eq!(z.at(d, hm(2, 30)), utc(2026, 3, 29, 1, 30), "{name}");
            assert_eq!(z.at(d, hm(3, 0)), utc(2026, 3, 29, 1, 0));
            let f = Fmt::new(Lang::De, z);
            assert_eq!(f.time(utc(2026, 3, 29, 0, 59)), "01:59");
            assert_eq!(f.time(utc(2026, 3, 29, 1, 0)), "03:00");
            assert_eq!(f.zone.abbreviation(utc(2026, 3, 29, 1, 0)), "CEST");
        }
    }

    #[test]
    fn summer_time_ends_in_berlin_and_oslo() {
        // 25 October 2026: clocks go from 03:00 back to 02:00.
        for name in [BERLIN, OSLO] {
            let z = Zone::parse(name).unwrap();
            let d = date(2026, 10, 25);
            assert_eq!(z.start_of(d), utc(2026, 10, 24, 22, 0));
            assert_eq!(z.end_of(d) - z.start_of(d), Duration::hours(25), "{name}");
            // 02:30 happens twice: the first one counts.
            assert_eq!(z.at(d, hm(2, 30)), utc(2026, 10, 25, 0, 30));
            let f = Fmt::new(Lang::Nb, z);
            assert_eq!(
                f.date_time(utc(2026, 10, 25, 0, 30)),
                "25. oktober 2026 kl. 02:30"
            );
            assert_eq!(
                f.date_time(utc(2026, 10, 25, 1, 30)),
                "25. oktober 2026 kl. 02:30"
            );
            assert_eq!(f.zone.abbreviation(utc(2026, 10, 25, 0, 30)), "CEST");
            assert_eq!(f.zone.abbreviation(utc(2026, 10, 25, 1, 30)), "CET");
            // 72 hours of a clock that runs across the change end one
            // local hour "earlier" on the wall.
            let aware = utc(2026, 10, 23, 12, 0);
            let deadline = aware + Duration::hours(72);
            assert_eq!(
                Fmt::new(Lang::De, z).date_time(aware),
                "23. Oktober 2026, 14:00"
            );
            assert_eq!(
                Fmt::new(Lang::De, z).date_time(deadline),
                "26. Oktober 2026, 13:00"
            );
        }
    }

    #[test]
    fn weeks_run_monday_to_sunday() {
        let w = Week::of(date(2026, 12, 1)); // a Tuesday
        assert_eq!(w.monday, date(2026, 11, 30));
        assert_eq!(w.sunday, date(2026, 12, 6));
        assert!(w.contains(date(2026, 12, 6)));
        assert!(!w.contains(date(2026, 12, 7)));
        assert_eq!(Week::of(date(2026, 11, 30)), w);
        assert_eq!(Week::of(date(2026, 12, 6)), w);
    }

    #[test]
    fn durations_in_their_two_largest_units() {
        let en = Fmt::new(Lang::En, Zone::UTC);
        let de = Fmt::new(Lang::De, Zone::UTC);
        let nb = Fmt::new(Lang::Nb, Zone::UTC);
        assert_eq!(en.duration(Duration::hours(72)), "3 days");
        assert_eq!(en.duration(Duration::hours(25)), "1 day and 1 hour");
        assert_eq!(de.duration(Duration::hours(25)), "1 Tag und 1 Stunde");
        assert_eq!(nb.duration(Duration::hours(49)), "2 dager og 1 time");
        assert_eq!(en.duration(Duration::minutes(61)), "1 hour and 1 minute");
        assert_eq!(
            de.duration(Duration::minutes(125)),
            "2 Stunden und 5 Minuten"
        );
        assert_eq!(nb.duration(Duration::minutes(2)), "2 minutter");
        assert_eq!(
            en.duration(Duration::days(2) + Duration::minutes(5)),
            "2 days"
        );
        assert_eq!(en.duration(Duration::seconds(59)), "less than a minute");
        assert_eq!(de.duration(-Duration::hours(5)), "5 Stunden");
    }
}
