//! The input flags of every ordo front end (`ordo`, `ordo-dist`), defined once (feature
//! `clap`): how a graph file is read and what is done to it while it is built.

use crate::builder::BuildOptions;
use crate::input::Format;
use crate::load::LoadOptions;
use crate::weights::WeightSpec;

#[derive(Debug, Clone, Default, clap::Args)]
pub struct InputFlags {
    /// Input format, overriding detection from the extension and content
    #[arg(long, value_name = "FORMAT", value_parser = clap::builder::PossibleValuesParser::new(Format::NAMES))]
    pub format: Option<String>,
    /// Add the reverse of every arc (undirected view)
    #[arg(long)]
    pub symmetrize: bool,
    /// Remove arcs from a node to itself
    #[arg(long)]
    pub drop_self_loops: bool,
    /// Keep only the lightest of parallel arcs
    #[arg(long)]
    pub merge_parallel: bool,
    /// Random integer weights lo:hi:seed (for unweighted inputs; replaces file weights)
    #[arg(long, value_name = "LO:HI:SEED")]
    pub weights: Option<String>,
    /// Divide every edge weight by K, rounding up: shortest paths keep their shape over a
    /// narrower range of distances (Yesil et al., SC'19, divide road weights by 64 for Fig. 10)
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    pub divide_weights: Option<u32>,
}

impl InputFlags {
    /// The loader's options, or a message for the user (a usage error).
    pub fn load_options(&self) -> Result<LoadOptions, String> {
        let format = match &self.format {
            Some(f) => Some(Format::from_name(f).ok_or_else(|| {
                format!("unknown format '{f}'; valid: {}", Format::NAMES.join(", "))
            })?),
            None => None,
        };
        let weights = match &self.weights {
            Some(w) => Some(w.parse::<WeightSpec>().map_err(|e| e.to_string())?),
            None => None,
        };
        Ok(LoadOptions {
            format,
            build: BuildOptions {
                symmetrize: self.symmetrize,
                drop_self_loops: self.drop_self_loops,
                merge_parallel: self.merge_parallel,
                weights,
                weight_divisor: self.divide_weights,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        input: InputFlags,
    }

    #[test]
    fn flags_become_load_options() {
        let cli = Cli::parse_from([
            "x",
            "--format",
            "snap",
            "--symmetrize",
            "--merge-parallel",
            "--weights",
            "1:9:3",
        ]);
        let o = cli.input.load_options().unwrap();
        assert_eq!(o.format, Some(Format::Snap));
        assert!(o.build.symmetrize && o.build.merge_parallel && !o.build.drop_self_loops);
        assert_eq!(
            o.build.weights,
            Some(WeightSpec {
                lo: 1,
                hi: 9,
                seed: 3
            })
        );
        let o = Cli::parse_from(["x", "--divide-weights", "64"])
            .input
            .load_options()
            .unwrap();
        assert_eq!(o.build.weight_divisor, Some(64));
        assert!(o.build.changes_graph());
        assert_eq!(
            (o.build.divided(1), o.build.divided(64), o.build.divided(65)),
            (1, 1, 2)
        );
        assert!(Cli::try_parse_from(["x", "--divide-weights", "0"]).is_err());
        let bad = InputFlags {
            weights: Some("9:1:0".into()),
            ..InputFlags::default()
        };
        assert!(bad.load_options().unwrap_err().contains("lo:hi:seed"));
    }
}
