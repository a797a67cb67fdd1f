//! The values that cross the store's query interface: a query's parameters (`Arg`, made
//! by `args!` from anything `ToArg`) and the rows it reads (`Row`s of `Value`s, taken out
//! as anything `FromValue`), with how each database takes and gives them. Both databases'
//! connections (db.rs for SQLite, postgres.rs) use these, so neither imports the other
//! for them.

use super::{Result, StoreError};
use tokio_postgres::types::{to_sql_checked, FromSql, IsNull, ToSql, Type};

/// A parameter of a query.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Arg<'a> {
    Null,
    Int(i64),
    Real(f64),
    Text(&'a str),
    Blob(&'a [u8]),
}

/// A value read from a row.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

/// What can be a query parameter: `args!` calls it on each.
pub(crate) trait ToArg {
    fn arg(&self) -> Arg<'_>;
}

/// The parameters of a query: `args![a, b]` is `&[Arg; 2]`.
macro_rules! args {
    ($($e:expr),* $(,)?) => {
        &[$($crate::store::value::ToArg::arg(&$e)),*][..]
    };
}
pub(crate) use args;

impl<T: ToArg + ?Sized> ToArg for &T {
    fn arg(&self) -> Arg<'_> {
        (**self).arg()
    }
}
impl ToArg for str {
    fn arg(&self) -> Arg<'_> {
        Arg::Text(self)
    }
}
impl ToArg for String {
    fn arg(&self) -> Arg<'_> {
        Arg::Text(self)
    }
}
impl ToArg for [u8] {
    fn arg(&self) -> Arg<'_> {
        Arg::Blob(self)
    }
}
impl ToArg for Vec<u8> {
    fn arg(&self) -> Arg<'_> {
        Arg::Blob(self)
    }
}
impl ToArg for bool {
    fn arg(&self) -> Arg<'_> {
        Arg::Int(i64::from(*self))
    }
}
impl ToArg for f64 {
    fn arg(&self) -> Arg<'_> {
        Arg::Real(*self)
    }
}
macro_rules! int_args {
    ($($t:ty),*) => {$(
        impl ToArg for $t {
            fn arg(&self) -> Arg<'_> {
                Arg::Int(i64::from(*self))
            }
        }
    )*};
}
int_args!(i64, i32, u32, u8);
impl<T: ToArg> ToArg for Option<T> {
    fn arg(&self) -> Arg<'_> {
        self.as_ref().map_or(Arg::Null, ToArg::arg)
    }
}

/// A row read: its values, taken out one by one.
pub(crate) struct Row(pub(crate) Vec<Value>);

impl Row {
    /// Column `i` (from 0) as a `T`.
    pub(crate) fn get<T: FromValue>(&mut self, i: usize) -> Result<T> {
        let v = self.0.get_mut(i).map(|v| std::mem::replace(v, Value::Null));
        let v = v.ok_or_else(|| StoreError::Data(format!("no column {i} in the row")))?;
        T::from_value(v).map_err(|found| {
            StoreError::Data(format!(
                "column {i} holds {found}, not {}",
                std::any::type_name::<T>()
            ))
        })
    }
}

/// What a column can be read as. The error names what the column held.
pub(crate) trait FromValue: Sized {
    fn from_value(v: Value) -> std::result::Result<Self, String>;
}

fn wrong(v: &Value) -> String {
    match v {
        Value::Null => "NULL".to_string(),
        Value::Int(n) => format!("the integer {n}"),
        Value::Real(x) => format!("the number {x}"),
        Value::Text(_) => "text".to_string(),
        Value::Blob(_) => "bytes".to_string(),
    }
}

impl FromValue for i64 {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Int(n) => Ok(n),
            other => Err(wrong(&other)),
        }
    }
}
macro_rules! narrow_ints {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(v: Value) -> std::result::Result<Self, String> {
                match v {
                    Value::Int(n) => <$t>::try_from(n).map_err(|_| wrong(&v)),
                    other => Err(wrong(&other)),
                }
            }
        }
    )*};
}
narrow_ints!(u32, u8);
impl FromValue for bool {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Int(n) => Ok(n != 0),
            other => Err(wrong(&other)),
        }
    }
}
impl FromValue for f64 {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Real(x) => Ok(x),
            // SQLite keeps a whole REAL as an integer when it can.
            Value::Int(n) => Ok(n as f64),
            other => Err(wrong(&other)),
        }
    }
}
impl FromValue for String {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Text(s) => Ok(s),
            other => Err(wrong(&other)),
        }
    }
}
impl FromValue for Vec<u8> {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Blob(b) => Ok(b),
            other => Err(wrong(&other)),
        }
    }
}
impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Null => Ok(None),
            v => T::from_value(v).map(Some),
        }
    }
}
impl FromValue for Value {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        Ok(v)
    }
}

impl rusqlite::ToSql for Arg<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match *self {
            Arg::Null => ValueRef::Null,
            Arg::Int(n) => ValueRef::Integer(n),
            Arg::Real(x) => ValueRef::Real(x),
            Arg::Text(s) => ValueRef::Text(s.as_bytes()),
            Arg::Blob(b) => ValueRef::Blob(b),
        }))
    }
}

/// A SQLite value as Ferry reads it.
pub(crate) fn sqlite_value(v: rusqlite::types::ValueRef) -> Value {
    use rusqlite::types::ValueRef;
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(n) => Value::Int(n),
        ValueRef::Real(x) => Value::Real(x),
        ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Value::Blob(b.to_vec()),
    }
}

/// The PostgreSQL types the store's values are written as and read from: whole numbers,
/// booleans, double-precision numbers, text and bytes. A parameter may also be `UNKNOWN`
/// (its type left open by the server); a column read may also be `FLOAT4` (widened).
const POSTGRES_TYPES: [Type; 10] = [
    Type::INT2,
    Type::INT4,
    Type::INT8,
    Type::BOOL,
    Type::FLOAT8,
    Type::TEXT,
    Type::VARCHAR,
    Type::BPCHAR,
    Type::NAME,
    Type::BYTEA,
];

impl ToSql for Arg<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut tokio_postgres::types::private::BytesMut,
    ) -> std::result::Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        // The server decides each parameter's type from the query; the store's values
        // are i64, f64, text and bytes, written as whichever of its kind it asks for.
        match *self {
            Arg::Null => Ok(IsNull::Yes),
            Arg::Int(n) => match *ty {
                Type::INT2 => i16::try_from(n)?.to_sql(ty, out),
                Type::INT4 => i32::try_from(n)?.to_sql(ty, out),
                Type::BOOL => (n != 0).to_sql(ty, out),
                Type::FLOAT8 => (n as f64).to_sql(ty, out),
                _ => n.to_sql(ty, out),
            },
            Arg::Real(x) => x.to_sql(ty, out),
            Arg::Text(s) => s.to_sql(ty, out),
            Arg::Blob(b) => b.to_sql(ty, out),
        }
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::UNKNOWN || POSTGRES_TYPES.contains(ty)
    }

    to_sql_checked!();
}

impl<'a> FromSql<'a> for Value {
    fn from_sql(
        ty: &Type,
        raw: &'a [u8],
    ) -> std::result::Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(match *ty {
            Type::INT2 => Value::Int(i16::from_sql(ty, raw)?.into()),
            Type::INT4 => Value::Int(i32::from_sql(ty, raw)?.into()),
            Type::INT8 => Value::Int(i64::from_sql(ty, raw)?),
            Type::BOOL => Value::Int(bool::from_sql(ty, raw)?.into()),
            Type::FLOAT4 => Value::Real(f32::from_sql(ty, raw)?.into()),
            Type::FLOAT8 => Value::Real(f64::from_sql(ty, raw)?),
            Type::BYTEA => Value::Blob(<Vec<u8>>::from_sql(ty, raw)?),
            _ => Value::Text(String::from_sql(ty, raw)?),
        })
    }

    fn from_sql_null(
        _: &Type,
    ) -> std::result::Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(Value::Null)
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::FLOAT4 || POSTGRES_TYPES.contains(ty)
    }
}
