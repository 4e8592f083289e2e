//! `key=value` scheduler parameters with documented defaults, shared by every `Config`.

use std::fmt;

/// One documented parameter of a scheduler.
#[derive(Debug, Clone)]
pub struct ParamInfo {
    pub key: &'static str,
    pub default: String,
    pub doc: &'static str,
}

/// A bad scheduler name, parameter key or value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("unknown scheduler '{name}'; valid schedulers: {valid}")]
    UnknownScheduler { name: String, valid: String },
    #[error("scheduler '{scheduler}' has no parameter '{key}'; valid parameters: {valid}")]
    UnknownParam {
        scheduler: &'static str,
        key: String,
        valid: String,
    },
    #[error("bad value '{value}' for {scheduler} parameter '{key}': {why}")]
    BadValue {
        scheduler: &'static str,
        key: String,
        value: String,
        why: String,
    },
    #[error("scheduler '{scheduler}' {why}")]
    Unsupported {
        scheduler: &'static str,
        why: String,
    },
}

/// A scheduler configuration that can be set from `key=value` strings.
pub trait Config: Default + Clone + fmt::Debug + Send + Sync {
    /// The name used on the command line.
    const NAME: &'static str;
    /// One line saying what the scheduler is.
    const SUMMARY: &'static str;

    /// The parameters and their current values (on `Default`, the defaults). None unless a
    /// scheduler has some.
    fn describe(&self) -> Vec<ParamInfo> {
        Vec::new()
    }

    /// Sets one parameter. A scheduler without parameters rejects every key.
    fn set(&mut self, key: &str, _value: &str) -> Result<(), ConfigError> {
        Err(Self::unknown_param(key))
    }

    /// Builds from a list of `key=value` pairs, starting from the defaults.
    fn from_params(params: &[(String, String)]) -> Result<Self, ConfigError> {
        let mut c = Self::default();
        for (k, v) in params {
            c.set(k, v)?;
        }
        Ok(c)
    }

    fn unknown_param(key: &str) -> ConfigError {
        ConfigError::UnknownParam {
            scheduler: Self::NAME,
            key: key.to_string(),
            valid: Self::default()
                .describe()
                .iter()
                .map(|p| p.key)
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    fn bad_value(key: &str, value: &str, why: impl Into<String>) -> ConfigError {
        ConfigError::BadValue {
            scheduler: Self::NAME,
            key: key.to_string(),
            value: value.to_string(),
            why: why.into(),
        }
    }
}

/// Parses an integer parameter within `range`.
pub fn parse_in<C: Config>(
    key: &str,
    value: &str,
    range: std::ops::RangeInclusive<u64>,
) -> Result<u64, ConfigError> {
    let v: u64 = value
        .trim()
        .parse()
        .map_err(|_| C::bad_value(key, value, "expected a non-negative integer"))?;
    if !range.contains(&v) {
        return Err(C::bad_value(
            key,
            value,
            format!("must be in {}..={}", range.start(), range.end()),
        ));
    }
    Ok(v)
}

/// Parses a boolean parameter (`true/false/1/0/yes/no`).
pub fn parse_bool<C: Config>(key: &str, value: &str) -> Result<bool, ConfigError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => Err(C::bad_value(key, value, "expected true or false")),
    }
}

/// Parses a probability, as a decimal (`0.125`) or a fraction (`1/8`), in [0, 1].
pub fn parse_probability<C: Config>(key: &str, value: &str) -> Result<f64, ConfigError> {
    let v = value.trim();
    let p = match v.split_once('/') {
        Some((a, b)) => match (a.trim().parse::<f64>(), b.trim().parse::<f64>()) {
            (Ok(a), Ok(b)) if b != 0.0 => Some(a / b),
            _ => None,
        },
        None => v.parse::<f64>().ok(),
    };
    match p {
        Some(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(C::bad_value(
            key,
            value,
            "expected a probability in [0, 1], e.g. 0.125 or 1/8",
        )),
    }
}
