//! The parameters an application takes beyond the graph and the run flags, declared once and
//! offered by every front end (`--source` on the command line, `source=` in Python).

use std::path::{Path, PathBuf};

/// What a parameter's value is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A node id as the input file numbers nodes (1-based for DIMACS, METIS and MTX).
    Node,
    /// An unsigned integer in `min..=max`.
    Int {
        min: u64,
        max: u64,
    },
    Float,
    /// One of these words.
    Choice(&'static [&'static str]),
    Text,
    Path,
    /// Present or absent.
    Flag,
}

/// One parameter of an application.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// The name: `--name` on the command line.
    pub name: &'static str,
    pub kind: Kind,
    /// The value when the parameter is not given (`None`: absent, and the application picks).
    pub default: Option<&'static str>,
    pub required: bool,
    /// The help text; a default the application picks is described here as `[default: ...]`.
    pub help: &'static str,
    /// The placeholder in usage lines (`K`, `FILE`).
    pub value_name: Option<&'static str>,
    /// A parameter that cannot be given together with this one.
    pub conflicts_with: Option<&'static str>,
    /// Giving it asks for the priority-scheduled method (e.g. pagerank's `--priority`).
    pub asks_scheduler: bool,
    /// A flag that turns on the per-node answer (tc's `--per-node`); `--out` sets it.
    pub per_node: bool,
}

impl Param {
    const fn new(name: &'static str, kind: Kind, help: &'static str) -> Param {
        Param {
            name,
            kind,
            default: None,
            required: false,
            help,
            value_name: None,
            conflicts_with: None,
            asks_scheduler: false,
            per_node: false,
        }
    }

    pub const fn node(name: &'static str, help: &'static str) -> Param {
        Param::new(name, Kind::Node, help)
    }

    pub const fn int(name: &'static str, min: u64, max: u64, help: &'static str) -> Param {
        Param::new(name, Kind::Int { min, max }, help)
    }

    pub const fn float(name: &'static str, help: &'static str) -> Param {
        Param::new(name, Kind::Float, help)
    }

    pub const fn choice(
        name: &'static str,
        choices: &'static [&'static str],
        help: &'static str,
    ) -> Param {
        Param::new(name, Kind::Choice(choices), help)
    }

    pub const fn text(name: &'static str, help: &'static str) -> Param {
        Param::new(name, Kind::Text, help)
    }

    pub const fn path(name: &'static str, help: &'static str) -> Param {
        Param::new(name, Kind::Path, help)
    }

    pub const fn flag(name: &'static str, help: &'static str) -> Param {
        Param::new(name, Kind::Flag, help)
    }

    pub const fn default(self, value: &'static str) -> Param {
        Param {
            default: Some(value),
            ..self
        }
    }

    pub const fn required(self) -> Param {
        Param {
            required: true,
            ..self
        }
    }

    pub const fn value_name(self, name: &'static str) -> Param {
        Param {
            value_name: Some(name),
            ..self
        }
    }

    pub const fn conflicts_with(self, other: &'static str) -> Param {
        Param {
            conflicts_with: Some(other),
            ..self
        }
    }

    pub const fn asks_scheduler(self) -> Param {
        Param {
            asks_scheduler: true,
            ..self
        }
    }

    pub const fn per_node(self) -> Param {
        Param {
            per_node: true,
            ..self
        }
    }
}

/// A parameter's value as a front end read it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(u64),
    Float(f64),
    Text(String),
    Path(PathBuf),
    Flag(bool),
}

/// The values of an application's parameters: those given, else their defaults.
#[derive(Debug, Clone)]
pub struct Values {
    params: &'static [Param],
    given: Vec<(&'static str, Value)>,
}

impl Values {
    /// No value given yet for any of `params`.
    pub fn new(params: &'static [Param]) -> Values {
        Values {
            params,
            given: Vec::new(),
        }
    }

    /// Gives `name` its value, checked against the parameter's kind, range and choices;
    /// `Err` says why it does not fit.
    pub fn set(&mut self, name: &str, value: Value) -> Result<(), String> {
        let p = self
            .params
            .iter()
            .find(|p| p.name == name)
            .ok_or_else(|| format!("unknown parameter '{name}'"))?;
        let fits = match (&p.kind, &value) {
            (Kind::Node, Value::Int(_)) | (Kind::Float, Value::Float(_)) => Ok(()),
            (Kind::Text, Value::Text(_)) | (Kind::Path, Value::Path(_)) => Ok(()),
            (Kind::Flag, Value::Flag(_)) => Ok(()),
            (Kind::Int { min, max }, Value::Int(v)) if (min..=max).contains(&v) => Ok(()),
            (Kind::Int { min, max }, Value::Int(v)) => {
                Err(format!("{name}={v}: must be in {min}..={max}"))
            }
            (Kind::Choice(c), Value::Text(v)) if c.contains(&v.as_str()) => Ok(()),
            (Kind::Choice(c), Value::Text(v)) => {
                Err(format!("{name} '{v}': valid are {}", c.join(", ")))
            }
            (kind, v) => Err(format!("{name}: {v:?} is not a {kind:?} value")),
        };
        fits?;
        self.given.retain(|(n, _)| *n != p.name);
        self.given.push((p.name, value));
        Ok(())
    }

    /// Whether `name` was given (not defaulted).
    pub fn given(&self, name: &str) -> bool {
        self.given.iter().any(|(n, _)| *n == name)
    }

    fn param(&self, name: &str) -> &'static Param {
        self.params
            .iter()
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("the application declares no parameter '{name}'"))
    }

    fn value(&self, name: &str) -> Option<&Value> {
        self.given.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// A node id or integer: given, else the default.
    pub fn int(&self, name: &str) -> Option<u64> {
        match self.value(name) {
            Some(Value::Int(v)) => Some(*v),
            _ => self.param(name).default.map(|d| parse_default(name, d)),
        }
    }

    pub fn float(&self, name: &str) -> Option<f64> {
        match self.value(name) {
            Some(Value::Float(v)) => Some(*v),
            _ => self.param(name).default.map(|d| parse_default(name, d)),
        }
    }

    /// A word or a choice.
    pub fn text(&self, name: &str) -> Option<&str> {
        match self.value(name) {
            Some(Value::Text(v)) => Some(v),
            _ => self.param(name).default,
        }
    }

    pub fn path(&self, name: &str) -> Option<&Path> {
        match self.value(name) {
            Some(Value::Path(v)) => Some(v),
            _ => self.param(name).default.map(Path::new),
        }
    }

    pub fn flag(&self, name: &str) -> bool {
        let _ = self.param(name);
        matches!(self.value(name), Some(Value::Flag(true)))
    }
}

fn parse_default<T: std::str::FromStr>(name: &str, d: &str) -> T {
    d.parse()
        .unwrap_or_else(|_| panic!("parameter '{name}' declares an unreadable default '{d}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARAMS: &[Param] = &[
        Param::float("tolerance", "").default("1e-6"),
        Param::choice("layout", &["adl", "input"], "").default("adl"),
        Param::int("task", 1, 10, "").default("4"),
        Param::node("source", ""),
    ];

    #[test]
    fn defaults_fill_what_was_not_given_and_bad_values_are_refused() {
        let mut v = Values::new(PARAMS);
        assert_eq!(v.float("tolerance"), Some(1e-6));
        assert_eq!(v.text("layout"), Some("adl"));
        assert_eq!(v.int("source"), None);
        v.set("source", Value::Int(7)).unwrap();
        assert_eq!(v.int("source"), Some(7));
        assert!(v
            .set("task", Value::Int(11))
            .unwrap_err()
            .contains("1..=10"));
        assert!(v.set("layout", Value::Text("x".into())).is_err());
        assert!(v.set("nope", Value::Flag(true)).is_err());
        assert_eq!(v.int("task"), Some(4));
    }
}
