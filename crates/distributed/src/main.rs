//! `ordo-dist`: distributed ordo, launched with `mpirun -np N ordo-dist APP GRAPH ...`.

mod cli;

fn main() {
    ordo_exec::malloc::keep_freed_memory();
    std::process::exit(cli::main());
}
