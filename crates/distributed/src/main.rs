//! `ordo-dist`: distributed ordo, launched with `mpirun -np N ordo-dist APP GRAPH ...`.

mod cli;

/// Large arrays get transparent huge pages (see `HugePageAlloc`).
#[global_allocator]
static ALLOCATOR: ordo_exec::malloc::HugePageAlloc = ordo_exec::malloc::HugePageAlloc;

fn main() {
    ordo_exec::malloc::keep_freed_memory();
    std::process::exit(cli::main());
}
