//! Date and time functions. The datepart of DATEADD, DATEDIFF, DATEPART
//! and DATENAME is a bare word (`DATEADD(day, 1, d)` parses `day` as a
//! column name); a string or variable there is Msg 1023, an unknown word
//! Msg 155, a part the operand's type lacks Msg 9810.
//!
//! A string operand becomes datetime for DATEADD (its result type),
//! datetime2 for DATEDIFF and datetimeoffset for DATEPART and DATENAME (so
//! `DATEPART(tz, '... +05:10')` reads the offset; without one it is 0, as
//! datetime2's is); numbers become datetime, as SQL Server converts them.

use super::{call, check_arity, constant, convert, Builtin};
use crate::bind::expr::{Binder, Scalar};
use hekla_parser::ast::{self, ExprKind};
use hekla_types::{DataType, Length, SqlError, SqlResult};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DatePart {
    Year,
    Quarter,
    Month,
    DayOfYear,
    Day,
    Week,
    Weekday,
    Hour,
    Minute,
    Second,
    Millisecond,
    Microsecond,
    Nanosecond,
    TzOffset,
    IsoWeek,
}

impl DatePart {
    /// A datepart by its name or abbreviation, any case.
    pub fn from_name(name: &str) -> Option<DatePart> {
        use DatePart::*;
        Some(match name.to_ascii_lowercase().as_str() {
            "year" | "yy" | "yyyy" => Year,
            "quarter" | "qq" | "q" => Quarter,
            "month" | "mm" | "m" => Month,
            "dayofyear" | "dy" | "y" => DayOfYear,
            "day" | "dd" | "d" => Day,
            "week" | "wk" | "ww" => Week,
            "weekday" | "dw" | "w" => Weekday,
            "hour" | "hh" => Hour,
            "minute" | "mi" | "n" => Minute,
            "second" | "ss" | "s" => Second,
            "millisecond" | "ms" => Millisecond,
            "microsecond" | "mcs" => Microsecond,
            "nanosecond" | "ns" => Nanosecond,
            "tzoffset" | "tz" => TzOffset,
            "iso_week" | "isowk" | "isoww" => IsoWeek,
            _ => return None,
        })
    }

    /// The full name, as Msg 9810 spells it.
    pub fn name(self) -> &'static str {
        use DatePart::*;
        match self {
            Year => "year",
            Quarter => "quarter",
            Month => "month",
            DayOfYear => "dayofyear",
            Day => "day",
            Week => "week",
            Weekday => "weekday",
            Hour => "hour",
            Minute => "minute",
            Second => "second",
            Millisecond => "millisecond",
            Microsecond => "microsecond",
            Nanosecond => "nanosecond",
            TzOffset => "tzoffset",
            IsoWeek => "iso_week",
        }
    }

    fn is_date_part(self) -> bool {
        use DatePart::*;
        matches!(
            self,
            Year | Quarter | Month | DayOfYear | Day | Week | Weekday | IsoWeek
        )
    }

    fn is_time_part(self) -> bool {
        use DatePart::*;
        matches!(
            self,
            Hour | Minute | Second | Millisecond | Microsecond | Nanosecond
        )
    }
}

/// The clock functions. Server time is UTC, so each equals its UTC twin;
/// they differ in type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    SysDateTime,
    SysUtcDateTime,
    SysDateTimeOffset,
    GetDate,
    GetUtcDate,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DateFn {
    Now(Clock),
    Add(DatePart),
    Diff {
        part: DatePart,
        big: bool,
    },
    Part(DatePart),
    Name(DatePart),
    EndOfMonth,
    DateFromParts,
    DateTimeFromParts,
    /// The precision is the result type's scale.
    DateTime2FromParts,
    TimeFromParts,
}

impl DateFn {
    /// The function's name as SQL Server's plans spell it (YEAR, MONTH and
    /// DAY are `datepart`).
    pub fn name(self) -> &'static str {
        match self {
            DateFn::Now(Clock::SysDateTime) => "sysdatetime",
            DateFn::Now(Clock::SysUtcDateTime) => "sysutcdatetime",
            DateFn::Now(Clock::SysDateTimeOffset) => "sysdatetimeoffset",
            DateFn::Now(Clock::GetDate) => "getdate",
            DateFn::Now(Clock::GetUtcDate) => "getutcdate",
            DateFn::Add(_) => "dateadd",
            DateFn::Diff { big: false, .. } => "datediff",
            DateFn::Diff { big: true, .. } => "datediff_big",
            DateFn::Part(_) => "datepart",
            DateFn::Name(_) => "datename",
            DateFn::EndOfMonth => "eomonth",
            DateFn::DateFromParts => "datefromparts",
            DateFn::DateTimeFromParts => "datetimefromparts",
            DateFn::DateTime2FromParts => "datetime2fromparts",
            DateFn::TimeFromParts => "timefromparts",
        }
    }

    /// The datepart keyword the call was written with.
    pub fn datepart(self) -> Option<DatePart> {
        match self {
            DateFn::Add(part)
            | DateFn::Diff { part, .. }
            | DateFn::Part(part)
            | DateFn::Name(part) => Some(part),
            _ => None,
        }
    }
}

/// The function a datepart keyword belongs to, for messages.
struct Keyword<'n> {
    function: &'n str,
    /// DATEADD and DATEDIFF take neither tzoffset nor iso_week.
    arithmetic: bool,
}

impl Binder<'_> {
    pub(super) fn date_function(
        &self,
        name: &str,
        args: &[ast::Expr],
    ) -> Option<SqlResult<Scalar>> {
        let bound = match name {
            "SYSDATETIME" => self.now(name, args, Clock::SysDateTime),
            "SYSUTCDATETIME" => self.now(name, args, Clock::SysUtcDateTime),
            "SYSDATETIMEOFFSET" => self.now(name, args, Clock::SysDateTimeOffset),
            "GETDATE" => self.now(name, args, Clock::GetDate),
            "GETUTCDATE" => self.now(name, args, Clock::GetUtcDate),
            "YEAR" | "MONTH" | "DAY" => {
                let part = DatePart::from_name(name).expect("YEAR, MONTH and DAY are dateparts");
                self.arguments_between(name, args, 1, 1)
                    .and_then(|mut bound| self.date_part(name, part, bound.remove(0), false))
            }
            "DATEADD" => self.dateadd(args),
            "DATEDIFF" | "DATEDIFF_BIG" => self.datediff(name, args),
            "DATEPART" | "DATENAME" => self.datepart(name, args),
            "EOMONTH" => self.eomonth(args),
            "DATEFROMPARTS" => self.parts_to_date(name, args, 3, DateFn::DateFromParts),
            "DATETIMEFROMPARTS" => self.parts_to_date(name, args, 7, DateFn::DateTimeFromParts),
            "DATETIME2FROMPARTS" => self.parts_to_date(name, args, 8, DateFn::DateTime2FromParts),
            "TIMEFROMPARTS" => self.parts_to_date(name, args, 5, DateFn::TimeFromParts),
            _ => return None,
        };
        Some(bound)
    }

    fn now(&self, name: &str, args: &[ast::Expr], clock: Clock) -> SqlResult<Scalar> {
        self.arguments_between(name, args, 0, 0)?;
        let data_type = match clock {
            Clock::SysDateTime | Clock::SysUtcDateTime => DataType::DateTime2 { scale: 7 },
            Clock::SysDateTimeOffset => DataType::DateTimeOffset { scale: 7 },
            Clock::GetDate | Clock::GetUtcDate => DataType::DateTime,
        };
        Ok(call(
            Builtin::Date(DateFn::Now(clock)),
            Vec::new(),
            data_type,
        ))
    }

    /// `DATEADD(part, number, date)`: the date's own type (datetime for a
    /// string), number as int.
    fn dateadd(&self, args: &[ast::Expr]) -> SqlResult<Scalar> {
        check_arity("DATEADD", args.len(), 3, 3)?;
        let keyword = Keyword {
            function: "dateadd",
            arithmetic: true,
        };
        let part = keyword.part(&args[0])?;
        let number = convert(self.scalar(&args[1])?, &DataType::Int)?;
        let date = self.date_operand(self.scalar(&args[2])?, DataType::DateTime)?;
        let data_type = date.data_type;
        let lacking = match data_type {
            DataType::Date => part.is_time_part(),
            DataType::Time { .. } => part.is_date_part(),
            DataType::DateTime | DataType::SmallDateTime => {
                matches!(part, DatePart::Microsecond | DatePart::Nanosecond)
            }
            _ => false,
        };
        if lacking {
            return Err(unsupported_part(part, "dateadd", &data_type));
        }
        Ok(call(
            Builtin::Date(DateFn::Add(part)),
            vec![number, date],
            data_type,
        ))
    }

    /// `DATEDIFF(part, start, end)`: int (DATEDIFF_BIG bigint) counting
    /// the part's boundaries crossed.
    fn datediff(&self, name: &str, args: &[ast::Expr]) -> SqlResult<Scalar> {
        check_arity(name, args.len(), 3, 3)?;
        let big = name == "DATEDIFF_BIG";
        let keyword = Keyword {
            function: if big { "datediff_big" } else { "datediff" },
            arithmetic: true,
        };
        let part = keyword.part(&args[0])?;
        let start = self.date_operand(self.scalar(&args[1])?, DataType::DateTime2 { scale: 7 })?;
        let end = self.date_operand(self.scalar(&args[2])?, DataType::DateTime2 { scale: 7 })?;
        Ok(call(
            Builtin::Date(DateFn::Diff { part, big }),
            vec![start, end],
            if big { DataType::BigInt } else { DataType::Int },
        ))
    }

    fn datepart(&self, name: &str, args: &[ast::Expr]) -> SqlResult<Scalar> {
        check_arity(name, args.len(), 2, 2)?;
        let keyword = Keyword {
            function: if name == "DATEPART" {
                "datepart"
            } else {
                "datename"
            },
            arithmetic: false,
        };
        let part = keyword.part(&args[0])?;
        self.date_part(
            keyword.function,
            part,
            self.scalar(&args[1])?,
            name == "DATENAME",
        )
    }

    /// DATEPART (YEAR, MONTH and DAY too) or DATENAME of a bound operand.
    fn date_part(
        &self,
        function: &str,
        part: DatePart,
        operand: Scalar,
        named: bool,
    ) -> SqlResult<Scalar> {
        let function = function.to_ascii_lowercase();
        let date = self.date_operand(operand, DataType::DateTimeOffset { scale: 7 })?;
        let lacking = match date.data_type {
            DataType::Date => part.is_time_part() || part == DatePart::TzOffset,
            DataType::Time { .. } => part.is_date_part() || part == DatePart::TzOffset,
            DataType::DateTime | DataType::SmallDateTime => part == DatePart::TzOffset,
            _ => false,
        };
        if lacking {
            return Err(unsupported_part(part, &function, &date.data_type));
        }
        let (function, data_type) = if named {
            (
                DateFn::Name(part),
                DataType::NVarChar {
                    len: Length::Bounded(30),
                    collation: self.collation,
                },
            )
        } else {
            (DateFn::Part(part), DataType::Int)
        };
        Ok(call(Builtin::Date(function), vec![date], data_type))
    }

    /// `EOMONTH(date [, months])`: date.
    fn eomonth(&self, args: &[ast::Expr]) -> SqlResult<Scalar> {
        let mut bound = self.arguments_between("EOMONTH", args, 1, 2)?;
        let date = convert(bound.remove(0), &DataType::Date)?;
        let mut converted = vec![date];
        if let Some(months) = bound.pop() {
            converted.push(convert(months, &DataType::Int)?);
        }
        Ok(call(
            Builtin::Date(DateFn::EndOfMonth),
            converted,
            DataType::Date,
        ))
    }

    /// DATEFROMPARTS, DATETIMEFROMPARTS, DATETIME2FROMPARTS and
    /// TIMEFROMPARTS: integer parts; the last argument of the latter two is
    /// the precision, which must be an integer constant (Msg 10760).
    fn parts_to_date(
        &self,
        name: &str,
        args: &[ast::Expr],
        count: usize,
        function: DateFn,
    ) -> SqlResult<Scalar> {
        let mut bound = self.arguments_between(name, args, count, count)?;
        let data_type = match function {
            DateFn::DateFromParts => DataType::Date,
            DateFn::DateTimeFromParts => DataType::DateTime,
            _ => {
                let precision = bound.pop().expect("the count was checked");
                let type_name = if function == DateFn::TimeFromParts {
                    "time"
                } else {
                    "datetime2"
                };
                let scale = match constant(&precision).and_then(|v| v.as_i64()) {
                    Some(scale) => u8::try_from(scale).unwrap_or(u8::MAX),
                    None => return Err(scale_not_constant(type_name)),
                };
                let data_type = if function == DateFn::TimeFromParts {
                    DataType::Time { scale }
                } else {
                    DataType::DateTime2 { scale }
                };
                data_type.validate()?;
                data_type
            }
        };
        let parts = bound
            .into_iter()
            .map(|part| convert(part, &DataType::Int))
            .collect::<SqlResult<Vec<_>>>()?;
        Ok(call(Builtin::Date(function), parts, data_type))
    }

    /// A date operand: date and time types as they are, strings as
    /// `strings`, anything else as datetime (which numbers convert to).
    fn date_operand(&self, operand: Scalar, strings: DataType) -> SqlResult<Scalar> {
        use DataType as T;
        match operand.data_type {
            T::Date
            | T::Time { .. }
            | T::DateTime
            | T::SmallDateTime
            | T::DateTime2 { .. }
            | T::DateTimeOffset { .. } => Ok(operand),
            T::Char { .. } | T::VarChar { .. } | T::NChar { .. } | T::NVarChar { .. } => {
                convert(operand, &strings)
            }
            _ => convert(operand, &T::DateTime),
        }
    }
}

impl Keyword<'_> {
    /// The datepart a bare word names.
    fn part(&self, expr: &ast::Expr) -> SqlResult<DatePart> {
        let ExprKind::Column(parts) = &expr.kind else {
            return Err(self.invalid_parameter());
        };
        let [word] = parts.as_slice() else {
            return Err(self.invalid_parameter());
        };
        match DatePart::from_name(&word.value) {
            Some(DatePart::TzOffset | DatePart::IsoWeek) if self.arithmetic => {
                Err(self.unrecognized(&word.value))
            }
            Some(part) => Ok(part),
            None => Err(self.unrecognized(&word.value)),
        }
    }

    /// Msg 1023: a datepart that is not a bare word.
    fn invalid_parameter(&self) -> SqlError {
        SqlError::new(
            1023,
            15,
            1,
            format!("Invalid parameter 1 specified for {}.", self.function),
        )
    }

    /// Msg 155.
    fn unrecognized(&self, word: &str) -> SqlError {
        SqlError::new(
            155,
            15,
            1,
            format!("'{word}' is not a recognized {} option.", self.function),
        )
    }
}

/// Msg 9810: the operand's type has no such part.
fn unsupported_part(part: DatePart, function: &str, data_type: &DataType) -> SqlError {
    let type_name = data_type.sql_name();
    let type_name = type_name.split('(').next().unwrap_or_default();
    SqlError::new(
        9810,
        16,
        1,
        format!(
            "The datepart {} is not supported by date function {function} for data type {type_name}.",
            part.name()
        ),
    )
}

/// Msg 10760: the precision of DATETIME2FROMPARTS or TIMEFROMPARTS is not
/// an integer constant.
fn scale_not_constant(type_name: &str) -> SqlError {
    SqlError::new(
        10760,
        16,
        1,
        format!(
            "Scale argument is not valid. Valid expressions for data type {type_name} scale argument are integer constants and integer constant expressions."
        ),
    )
}
