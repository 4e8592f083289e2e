//! The applications' subcommands, generated from their declarations in the registry
//! ([`ordo_algos::APPS`]): the input flags, the application's own parameters, `--algo` where
//! it has several methods, then the run flags.

use crate::args::{InputArgs, RunArgs};
use crate::error::{CliError, CliResult};
use clap::builder::PossibleValuesParser;
use clap::parser::ValueSource;
use clap::{value_parser, Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use ordo_algos::app::{AppSpec, Kind, Param, Value, Values};
use std::path::PathBuf;

/// The subcommand of `spec`'s application.
pub fn command(spec: &AppSpec) -> Command {
    let mut cmd = InputArgs::augment_args(Command::new(spec.name));
    for p in spec.params {
        cmd = cmd.arg(arg(p));
    }
    if spec.has_methods() {
        cmd = cmd.arg(
            Arg::new("algo")
                .long("algo")
                .default_value("auto")
                .value_parser(PossibleValuesParser::new(spec.variants.names()))
                .help(spec.variants.help()),
        );
    }
    // After the flattened flag groups, whose own docs would otherwise become the about text.
    let mut after_help = spec
        .after_help
        .map(|h| format!("{h}\n\n"))
        .unwrap_or_default();
    after_help += &format!("Examples:\n  {}", spec.examples.join("\n  "));
    RunArgs::augment_args(cmd)
        .about(spec.about)
        .after_help(after_help)
}

fn arg(p: &Param) -> Arg {
    let a = Arg::new(p.name)
        .long(p.name)
        .help(p.help)
        .required(p.required);
    let a = match p.kind {
        Kind::Node => a.value_parser(value_parser!(u64)),
        Kind::Int { min, max } => a.value_parser(value_parser!(u64).range(min..=max)),
        Kind::Float => a.value_parser(value_parser!(f64)),
        Kind::Choice(choices) => a.value_parser(PossibleValuesParser::new(choices)),
        Kind::Text => a,
        Kind::Path => a.value_parser(value_parser!(PathBuf)),
        Kind::Flag => a.action(ArgAction::SetTrue),
    };
    let a = match p.default {
        Some(d) => a.default_value(d),
        None => a,
    };
    let a = match (p.value_name, p.kind) {
        (_, Kind::Flag) => a,
        (Some(v), _) => a.value_name(v),
        (None, _) => a.value_name(p.name.to_uppercase().replace('-', "_")),
    };
    match p.conflicts_with {
        Some(other) => a.conflicts_with(other),
        None => a,
    }
}

/// The parsed flags of an application's subcommand.
pub struct AppArgs {
    pub input: InputArgs,
    pub run: RunArgs,
    /// The parameters given on the command line (the rest take their declared defaults).
    pub values: Values,
    /// `--algo`.
    pub algo: String,
}

impl AppArgs {
    pub fn from_matches(spec: &AppSpec, m: &ArgMatches) -> CliResult<AppArgs> {
        let parse = |e: clap::Error| CliError::usage(e);
        let mut values = Values::new(spec.params);
        for p in spec.params {
            if m.value_source(p.name) != Some(ValueSource::CommandLine) {
                continue;
            }
            let value = match p.kind {
                Kind::Node | Kind::Int { .. } => m.get_one::<u64>(p.name).map(|&v| Value::Int(v)),
                Kind::Float => m.get_one::<f64>(p.name).map(|&v| Value::Float(v)),
                Kind::Choice(_) | Kind::Text => {
                    m.get_one::<String>(p.name).map(|v| Value::Text(v.clone()))
                }
                Kind::Path => m.get_one::<PathBuf>(p.name).map(|v| Value::Path(v.clone())),
                Kind::Flag => Some(Value::Flag(m.get_flag(p.name))),
            };
            if let Some(v) = value {
                values.set(p.name, v).map_err(CliError::usage)?;
            }
        }
        let algo = match spec.has_methods() {
            true => m.get_one::<String>("algo").cloned().unwrap_or_default(),
            false => "auto".into(),
        };
        Ok(AppArgs {
            input: InputArgs::from_arg_matches(m).map_err(parse)?,
            run: RunArgs::from_arg_matches(m).map_err(parse)?,
            values,
            algo,
        })
    }

    /// What in the flags asks for a priority scheduler, if anything does: a scheduler flag, a
    /// scheduler probe, or a parameter of the scheduled method (pagerank's `--priority`).
    pub fn scheduler_request(&self, spec: &AppSpec) -> Option<String> {
        let (run, s) = (&self.run, &self.run.sched);
        if s.scheduler != "auto" {
            Some(format!("--scheduler {}", s.scheduler))
        } else if let Some(p) = s.params.first() {
            Some(format!("--param {p}"))
        } else if s.chunk.is_some() {
            Some("--chunk".into())
        } else if run.breakdown {
            Some("--breakdown".into())
        } else if run.trace {
            Some("--trace".into())
        } else if run.rank_error {
            Some("--rank-error".into())
        } else {
            spec.params
                .iter()
                .find(|p| p.asks_scheduler && self.values.given(p.name))
                .map(|p| format!("--{} {}", p.name, self.values.text(p.name).unwrap_or("")))
        }
    }
}
