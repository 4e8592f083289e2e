//! `ordo-dist`: distributed ordo, launched with `mpirun -np N ordo-dist APP GRAPH ...`.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
