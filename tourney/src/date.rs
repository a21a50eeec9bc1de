//! Dates for the PDN Date tag.

use time::{Date, OffsetDateTime};

/// Today's date (UTC) as `YYYY.MM.DD`.
pub(super) fn today() -> String {
    pdn_date(OffsetDateTime::now_utc().date())
}

/// `date` as PDN writes it: `YYYY.MM.DD`.
fn pdn_date(date: Date) -> String {
    format!(
        "{:04}.{:02}.{:02}",
        date.year(),
        u8::from(date.month()),
        date.day()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::Month;

    #[test]
    fn dates() {
        let d = |y, m, day| Date::from_calendar_date(y, m, day).unwrap();
        assert_eq!(pdn_date(d(1970, Month::January, 1)), "1970.01.01");
        assert_eq!(pdn_date(d(2024, Month::February, 29)), "2024.02.29");
        assert_eq!(pdn_date(d(2026, Month::November, 25)), "2026.11.25");
        // Days since 1970 as the old hand-written conversion counted them.
        let epoch = d(1970, Month::January, 1);
        assert_eq!(pdn_date(epoch + time::Duration::days(19_782)), "2024.02.29");
    }
}
