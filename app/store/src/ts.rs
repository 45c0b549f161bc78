//! Timestamps that compare correctly in both databases.
//!
//! PostgreSQL stores `timestamptz`. SQLite has no time type, and sqlx writes
//! chrono values there with a variable number of fraction digits, which breaks
//! comparisons in SQL (`expires_at > $1`). `Ts` writes a fixed-width UTC text
//! with microseconds (the precision of PostgreSQL), so text order is time order.

use chrono::{DateTime, SubsecRound, Utc};
use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::{Decode, Encode, Postgres, Sqlite, Type};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ts(pub DateTime<Utc>);

/// A nullable timestamp column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptTs(pub Option<DateTime<Utc>>);

impl From<DateTime<Utc>> for Ts {
    fn from(t: DateTime<Utc>) -> Self {
        Ts(t.trunc_subsecs(6))
    }
}
impl From<Ts> for DateTime<Utc> {
    fn from(t: Ts) -> Self {
        t.0
    }
}
impl From<OptTs> for Option<DateTime<Utc>> {
    fn from(t: OptTs) -> Self {
        t.0
    }
}

const SQLITE_FORMAT: &str = "%Y-%m-%dT%H:%M:%S%.6fZ";

impl Type<Sqlite> for Ts {
    fn type_info() -> sqlx::sqlite::SqliteTypeInfo {
        <String as Type<Sqlite>>::type_info()
    }
    fn compatible(ty: &sqlx::sqlite::SqliteTypeInfo) -> bool {
        <String as Type<Sqlite>>::compatible(ty)
    }
}
impl<'q> Encode<'q, Sqlite> for Ts {
    fn encode_by_ref(
        &self,
        buf: &mut Vec<sqlx::sqlite::SqliteArgumentValue<'q>>,
    ) -> Result<IsNull, BoxDynError> {
        Encode::<Sqlite>::encode(
            self.0.trunc_subsecs(6).format(SQLITE_FORMAT).to_string(),
            buf,
        )
    }
}
impl<'r> Decode<'r, Sqlite> for Ts {
    fn decode(value: sqlx::sqlite::SqliteValueRef<'r>) -> Result<Self, BoxDynError> {
        let s = <&str as Decode<Sqlite>>::decode(value)?;
        Ok(Ts(DateTime::parse_from_rfc3339(s)?.with_timezone(&Utc)))
    }
}

impl Type<Postgres> for Ts {
    fn type_info() -> sqlx::postgres::PgTypeInfo {
        <DateTime<Utc> as Type<Postgres>>::type_info()
    }
}
/// Arrays of timestamps, for rows written as one array per column.
impl sqlx::postgres::PgHasArrayType for Ts {
    fn array_type_info() -> sqlx::postgres::PgTypeInfo {
        <DateTime<Utc> as sqlx::postgres::PgHasArrayType>::array_type_info()
    }
}
impl<'q> Encode<'q, Postgres> for Ts {
    fn encode_by_ref(
        &self,
        buf: &mut sqlx::postgres::PgArgumentBuffer,
    ) -> Result<IsNull, BoxDynError> {
        Encode::<Postgres>::encode(self.0.trunc_subsecs(6), buf)
    }
}
impl<'r> Decode<'r, Postgres> for Ts {
    fn decode(value: sqlx::postgres::PgValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(Ts(<DateTime<Utc> as Decode<Postgres>>::decode(value)?))
    }
}

macro_rules! opt_ts {
    ($db:ty, $value:ty) => {
        impl Type<$db> for OptTs {
            fn type_info() -> <$db as sqlx::Database>::TypeInfo {
                <Ts as Type<$db>>::type_info()
            }
            fn compatible(ty: &<$db as sqlx::Database>::TypeInfo) -> bool {
                <Ts as Type<$db>>::compatible(ty)
            }
        }
        impl<'r> Decode<'r, $db> for OptTs {
            fn decode(value: $value) -> Result<Self, BoxDynError> {
                Ok(OptTs(
                    <Option<Ts> as Decode<$db>>::decode(value)?.map(|t| t.0),
                ))
            }
        }
    };
}
opt_ts!(Sqlite, sqlx::sqlite::SqliteValueRef<'r>);
opt_ts!(Postgres, sqlx::postgres::PgValueRef<'r>);

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn sqlite_text_sorts_as_time() {
        let a = Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap();
        let b = a + chrono::Duration::microseconds(1);
        let fa = a.format(SQLITE_FORMAT).to_string();
        let fb = b.format(SQLITE_FORMAT).to_string();
        assert_eq!(fa, "2026-01-02T03:04:05.000000Z");
        assert!(fa < fb);
    }
}
