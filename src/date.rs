//! Calendar dates read from metadata values, free text and URLs, and the window a publication
//! date must fall in.

/// A day of the proleptic Gregorian calendar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    /// The year (1000–9999 when parsed).
    pub year: u16,
    /// The month, 1–12.
    pub month: u8,
    /// The day of the month, 1–31 and valid for the month.
    pub day: u8,
}

/// The earliest publication date taken: before it there was hardly a web to publish on
/// (htmldate's floor too); earlier values are copyright years, birth dates or junk.
pub const EARLIEST: Date = Date {
    year: 1995,
    month: 1,
    day: 1,
};

impl Date {
    /// The date when it exists (`2025-02-29` does not).
    pub fn new(year: u32, month: u32, day: u32) -> Option<Date> {
        if !(1000..=9999).contains(&year) || !(1..=12).contains(&month) || day == 0 {
            return None;
        }
        let leap =
            year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
        let days = match month {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        (day <= days).then_some(Date {
            year: year as u16,
            month: month as u8,
            day: day as u8,
        })
    }

    /// The day `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    pub fn from_unix_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        Date {
            year: year.clamp(0, 9999) as u16,
            month: month as u8,
            day: day as u8,
        }
    }

    /// Today by the system clock (UTC).
    pub fn today() -> Date {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Date::from_unix_days((secs / 86_400) as i64)
    }

    /// Whether a page could have been published on this day, seen on `today`: from
    /// [`EARLIEST`] to one day after `today` (a page's time zone may be ahead of UTC).
    pub fn plausible(self, today: Date) -> bool {
        let tomorrow = Date::from_unix_days(today.unix_days() + 1);
        (EARLIEST..=tomorrow).contains(&self)
    }

    /// Days since 1970-01-01 (Hinnant's `days_from_civil`).
    pub fn unix_days(self) -> i64 {
        let (m, d) = (i64::from(self.month), i64::from(self.day));
        let y = i64::from(self.year) - i64::from(m <= 2);
        let era = y.div_euclid(400);
        let yoe = y.rem_euclid(400);
        let mp = if m > 2 { m - 3 } else { m + 9 };
        let doy = (153 * mp + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// ISO 8601, `YYYY-MM-DD`.
    pub fn iso(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// English month names and their common abbreviations, with the month's number.
const MONTHS: &[(&str, u32)] = &[
    ("january", 1),
    ("jan", 1),
    ("february", 2),
    ("feb", 2),
    ("march", 3),
    ("mar", 3),
    ("april", 4),
    ("apr", 4),
    ("may", 5),
    ("june", 6),
    ("jun", 6),
    ("july", 7),
    ("jul", 7),
    ("august", 8),
    ("aug", 8),
    ("september", 9),
    ("sept", 9),
    ("sep", 9),
    ("october", 10),
    ("oct", 10),
    ("november", 11),
    ("nov", 11),
    ("december", 12),
    ("dec", 12),
];

/// The month an English month name or abbreviation names.
pub(crate) fn month_of(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.');
    MONTHS
        .iter()
        .find(|(name, _)| w.eq_ignore_ascii_case(name))
        .map(|&(_, m)| m)
}

/// The first date written in `s`: ISO `YYYY-MM-DD` (or `/`, `.`, a `T` time after it, or the
/// basic `YYYYMMDD` of a whole value), `DD.MM.YYYY`, `MM/DD/YYYY` (day first when the first
/// number is over 12), or an English month name with a day and a year (`September 4, 2025`,
/// `4 Sep 2025`, `Thu, 04 Sep 2025 10:00 GMT`). Only the date as written is read: a time zone
/// does not move it to another day. Values that look like a Unix time are not read.
///
/// # Complexity
/// O(len) over at most the first 200 bytes (metadata values and bylines are short).
pub fn parse(s: &str) -> Option<Date> {
    let s = cut(s, 200);
    let t = s.trim();
    if t.len() == 8 && t.bytes().all(|b| b.is_ascii_digit()) {
        let n = |a: usize, b: usize| t[a..b].parse::<u32>().ok();
        return Date::new(n(0, 4)?, n(4, 6)?, n(6, 8)?);
    }
    numeric(s).or_else(|| named(s))
}

/// `s` cut to at most `max` bytes, at a character boundary.
pub(crate) fn cut(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Runs of ASCII digits in `s` with their byte ranges.
fn digit_runs(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut runs = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            runs.push((start, i));
        } else {
            i += 1;
        }
    }
    runs
}

fn numeric(s: &str) -> Option<Date> {
    let b = s.as_bytes();
    let runs = digit_runs(s);
    let num = |r: (usize, usize)| s[r.0..r.1].parse::<u32>().ok();
    for w in runs.windows(3) {
        let (a, m, c) = (w[0], w[1], w[2]);
        // The three numbers must be joined by one and the same separator.
        let sep1 = &b[a.1..m.0];
        let sep2 = &b[m.1..c.0];
        if sep1.len() != 1 || sep1 != sep2 || !matches!(sep1[0], b'-' | b'/' | b'.') {
            continue;
        }
        let (la, lm, lc) = (a.1 - a.0, m.1 - m.0, c.1 - c.0);
        if la == 4 && (1..=2).contains(&lm) && (1..=2).contains(&lc) {
            if let Some(d) = Date::new(num(a)?, num(m)?, num(c)?) {
                return Some(d);
            }
        } else if (1..=2).contains(&la) && (1..=2).contains(&lm) && lc == 4 {
            let (x, y, year) = (num(a)?, num(m)?, num(c)?);
            // Dots are written day first; slashes month first unless the first is over 12.
            let (month, day) = if sep1[0] == b'/' && x <= 12 {
                (x, y)
            } else {
                (y, x)
            };
            if let Some(d) = Date::new(year, month, day) {
                return Some(d);
            }
        }
    }
    None
}

fn named(s: &str) -> Option<Date> {
    let words: Vec<&str> = s
        .split(|c: char| !c.is_alphanumeric() && c != '.')
        .map(|w| w.trim_matches('.'))
        .filter(|w| !w.is_empty())
        .collect();
    let day_of = |w: &str| {
        let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let suffix = &w[digits.len()..];
        let ordinal = suffix.is_empty() || matches!(suffix, "st" | "nd" | "rd" | "th");
        (ordinal && (1..=2).contains(&digits.len()))
            .then(|| digits.parse::<u32>().ok())
            .flatten()
    };
    let year_of = |w: &str| {
        (w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()))
            .then(|| w.parse::<u32>().ok())
            .flatten()
    };
    for (k, w) in words.iter().enumerate() {
        let Some(month) = month_of(w) else { continue };
        // `May` is also a word: only as a date with a day and a year around it.
        let next = words.get(k + 1).copied();
        let after = words.get(k + 2).copied();
        let before = k.checked_sub(1).map(|j| words[j]);
        // September 4, 2025 / Sep 4th 2025
        if let (Some(d), Some(y)) = (next.and_then(day_of), after.and_then(year_of)) {
            if let Some(date) = Date::new(y, month, d) {
                return Some(date);
            }
        }
        // 4 September 2025
        if let (Some(d), Some(y)) = (before.and_then(day_of), next.and_then(year_of)) {
            if let Some(date) = Date::new(y, month, d) {
                return Some(date);
            }
        }
    }
    None
}

/// A date in a URL's path: `/2025/09/04/`, `/2025-09-04-…`, `/20250904/`; the year from 1995 on.
///
/// # Complexity
/// O(len of the URL).
pub fn in_url(url: &str) -> Option<Date> {
    let path_start = url.find("://").map_or(0, |k| k + 3);
    let path = &url[path_start..];
    let path = &path[path.find('/').unwrap_or(path.len())..];
    let path = &path[..path.find(['?', '#']).unwrap_or(path.len())];
    let b = path.as_bytes();
    let runs = digit_runs(path);
    let num = |r: (usize, usize)| path[r.0..r.1].parse::<u32>().ok();
    for (k, &r) in runs.iter().enumerate() {
        let len = r.1 - r.0;
        // A run must stand alone between separators, not inside an id.
        let bounded = |r: (usize, usize)| {
            (r.0 == 0 || !b[r.0 - 1].is_ascii_alphanumeric())
                && (r.1 == b.len() || !b[r.1].is_ascii_alphanumeric())
        };
        if len == 8 && bounded(r) {
            let t = &path[r.0..r.1];
            let n = |a: usize, z: usize| t[a..z].parse::<u32>().ok();
            if let Some(d) = Date::new(n(0, 4)?, n(4, 6)?, n(6, 8)?) {
                if d >= EARLIEST {
                    return Some(d);
                }
            }
        }
        if len != 4 || !bounded(r) {
            continue;
        }
        let (Some(&m), Some(&d)) = (runs.get(k + 1), runs.get(k + 2)) else {
            continue;
        };
        let sep = |x: usize, y: usize| y == x + 1 && matches!(b[x], b'/' | b'-' | b'_');
        if !(sep(r.1, m.0) && sep(m.1, d.0) && m.1 - m.0 <= 2 && d.1 - d.0 <= 2 && bounded(d)) {
            continue;
        }
        if let Some(date) = Date::new(num(r)?, num(m)?, num(d)?) {
            if date >= EARLIEST {
                return Some(date);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iso(s: &str) -> Option<String> {
        parse(s).map(Date::iso)
    }

    #[test]
    fn parses_the_common_forms() {
        assert_eq!(
            iso("2025-09-04T10:00:00+02:00").as_deref(),
            Some("2025-09-04")
        );
        assert_eq!(iso("2025/9/4").as_deref(), Some("2025-09-04"));
        assert_eq!(iso("20250904").as_deref(), Some("2025-09-04"));
        assert_eq!(iso("04.09.2025").as_deref(), Some("2025-09-04"));
        assert_eq!(iso("09/04/2025").as_deref(), Some("2025-09-04"));
        assert_eq!(iso("24/09/2025").as_deref(), Some("2025-09-24"));
        assert_eq!(iso("September 4, 2025").as_deref(), Some("2025-09-04"));
        assert_eq!(
            iso("Posted on 4th Sep 2025 by Ann").as_deref(),
            Some("2025-09-04")
        );
        assert_eq!(
            iso("Thu, 04 Sep 2025 10:00:00 GMT").as_deref(),
            Some("2025-09-04")
        );
        assert_eq!(iso("2025-02-29"), None);
        assert_eq!(iso("May I help you in 2025"), None);
        assert_eq!(iso("1735689600"), None);
    }

    #[test]
    fn days_round_trip_and_the_window() {
        for days in [-1000, 0, 59, 10_957, 20_000, 20_454] {
            assert_eq!(Date::from_unix_days(days).unix_days(), days);
        }
        assert_eq!(Date::from_unix_days(0).iso(), "1970-01-01");
        let today = Date::new(2026, 11, 27).unwrap();
        assert!(Date::new(2026, 11, 28).unwrap().plausible(today));
        assert!(!Date::new(2026, 11, 29).unwrap().plausible(today));
        assert!(!Date::new(1994, 12, 31).unwrap().plausible(today));
    }

    #[test]
    fn reads_dates_in_urls() {
        let d = |u: &str| in_url(u).map(Date::iso);
        assert_eq!(
            d("https://x.com/2025/09/04/top-trends/").as_deref(),
            Some("2025-09-04")
        );
        assert_eq!(
            d("https://x.com/news/2024-01-31-title").as_deref(),
            Some("2024-01-31")
        );
        assert_eq!(
            d("https://x.com/a/20231105/story").as_deref(),
            Some("2023-11-05")
        );
        assert_eq!(d("https://x.com/2025/09/"), None);
        assert_eq!(d("https://x.com/item/1234567890123/"), None);
        assert_eq!(d("https://2025.x.com/p?d=2025/01/02"), None);
    }
}
