//! Machine topology (cores, packages, NUMA nodes) and the placement of workers on it.
//!
//! Read from sysfs on Linux, or given as a synthetic string such as `2x4` (2 packages of 4
//! cores) so that multi-socket logic runs and is tested on a one-socket machine.

use std::fmt;
use std::str::FromStr;

/// One logical CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cpu {
    /// The OS CPU number to pin to; `None` for synthetic topologies (no pinning).
    pub os_id: Option<usize>,
    pub package: usize,
    pub numa_node: usize,
}

/// CPUs in the order workers are placed: package by package, so that consecutive workers
/// share a package (as Galois places threads).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topology {
    pub cpus: Vec<Cpu>,
    pub synthetic: bool,
}

impl Topology {
    /// The machine's topology from sysfs; one package of `available_parallelism` CPUs if
    /// sysfs cannot be read.
    pub fn detect() -> Topology {
        detect_sysfs().unwrap_or_else(|| {
            let n = std::thread::available_parallelism().map_or(1, |n| n.get());
            Topology {
                cpus: (0..n)
                    .map(|i| Cpu {
                        os_id: Some(i),
                        package: 0,
                        numa_node: 0,
                    })
                    .collect(),
                synthetic: false,
            }
        })
    }

    /// `packages` packages of `cores` cores each, one NUMA node per package, no pinning.
    pub fn synthetic(packages: usize, cores: usize) -> Topology {
        let mut cpus = Vec::new();
        for p in 0..packages {
            for _ in 0..cores {
                cpus.push(Cpu {
                    os_id: None,
                    package: p,
                    numa_node: p,
                });
            }
        }
        Topology {
            cpus,
            synthetic: true,
        }
    }

    pub fn num_cpus(&self) -> usize {
        self.cpus.len()
    }

    pub fn num_packages(&self) -> usize {
        self.cpus.iter().map(|c| c.package + 1).max().unwrap_or(1)
    }

    pub fn num_numa_nodes(&self) -> usize {
        self.cpus.iter().map(|c| c.numa_node + 1).max().unwrap_or(1)
    }

    /// The CPU worker `w` runs on (workers beyond the CPU count wrap around).
    pub fn cpu_of(&self, worker: usize) -> Cpu {
        self.cpus[worker % self.cpus.len()]
    }

    /// Where each of `workers` workers sits, in the shape schedulers need.
    pub fn layout(&self, workers: usize) -> WorkerLayout {
        WorkerLayout::new(self, workers)
    }
}

impl fmt::Display for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} cpus in {} package(s), {} NUMA node(s){}",
            self.num_cpus(),
            self.num_packages(),
            self.num_numa_nodes(),
            if self.synthetic { " (synthetic)" } else { "" }
        )
    }
}

/// Parses `PxC` (e.g. `2x4`) as a synthetic topology; `auto` or `detect` reads the machine.
impl FromStr for Topology {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if s == "auto" || s == "detect" {
            return Ok(Topology::detect());
        }
        let bad = || format!("bad topology '{s}': expected PACKAGESxCORES such as 2x4, or auto");
        let (p, c) = s.split_once('x').ok_or_else(bad)?;
        let p: usize = p.parse().map_err(|_| bad())?;
        let c: usize = c.parse().map_err(|_| bad())?;
        if p == 0 || c == 0 || p * c > 1 << 16 {
            return Err(bad());
        }
        Ok(Topology::synthetic(p, c))
    }
}

fn read_trim(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
}

/// Parses a sysfs CPU list such as `0-3,8,10-11`.
pub fn parse_cpu_list(s: &str) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    for part in s.split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (a.parse().ok()?, b.parse().ok()?);
                if b < a || b - a > 1 << 16 {
                    return None;
                }
                out.extend(a..=b);
            }
            None => out.push(part.parse().ok()?),
        }
    }
    Some(out)
}

fn detect_sysfs() -> Option<Topology> {
    let online = parse_cpu_list(&read_trim("/sys/devices/system/cpu/online")?)?;
    let mut numa_of = std::collections::HashMap::new();
    if let Ok(dir) = std::fs::read_dir("/sys/devices/system/node") {
        for entry in dir.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(id) = name
                .strip_prefix("node")
                .and_then(|n| n.parse::<usize>().ok())
            {
                let list = read_trim(&format!("/sys/devices/system/node/{name}/cpulist"));
                for cpu in list.and_then(|l| parse_cpu_list(&l)).unwrap_or_default() {
                    numa_of.insert(cpu, id);
                }
            }
        }
    }
    let mut cpus: Vec<(usize, usize, usize)> = online
        .into_iter()
        .map(|cpu| {
            let pkg = read_trim(&format!(
                "/sys/devices/system/cpu/cpu{cpu}/topology/physical_package_id"
            ))
            .and_then(|s| s.parse::<i64>().ok())
            .filter(|&p| p >= 0)
            .unwrap_or(0) as usize;
            (pkg, cpu, numa_of.get(&cpu).copied().unwrap_or(0))
        })
        .collect();
    if cpus.is_empty() {
        return None;
    }
    cpus.sort();
    // Renumber packages densely (ids can be sparse).
    let mut ids: Vec<usize> = cpus.iter().map(|c| c.0).collect();
    ids.dedup();
    let mut nodes: Vec<usize> = cpus.iter().map(|c| c.2).collect();
    nodes.sort();
    nodes.dedup();
    Some(Topology {
        cpus: cpus
            .into_iter()
            .map(|(p, cpu, node)| Cpu {
                os_id: Some(cpu),
                package: ids.binary_search(&p).unwrap_or(0),
                numa_node: nodes.binary_search(&node).unwrap_or(0),
            })
            .collect(),
        synthetic: false,
    })
}

/// The placement of a fixed number of workers: which package each is in, and each package's
/// leader (its first worker), as obim's per-package lists and back-scan prevention need.
#[derive(Debug, Clone)]
pub struct WorkerLayout {
    /// Package index (dense, 0..packages) of each worker.
    pub package_of: Vec<usize>,
    /// Workers of each used package, in worker order; the first is the package leader.
    pub members: Vec<Vec<usize>>,
}

impl WorkerLayout {
    pub fn new(topo: &Topology, workers: usize) -> WorkerLayout {
        let raw: Vec<usize> = (0..workers).map(|w| topo.cpu_of(w).package).collect();
        let mut used: Vec<usize> = raw.clone();
        used.sort();
        used.dedup();
        let package_of: Vec<usize> = raw
            .iter()
            .map(|p| used.binary_search(p).expect("present"))
            .collect();
        let mut members = vec![Vec::new(); used.len().max(1)];
        for (w, &p) in package_of.iter().enumerate() {
            members[p].push(w);
        }
        WorkerLayout {
            package_of,
            members,
        }
    }

    /// Everyone in one package: the layout of a centralized structure.
    pub fn single(workers: usize) -> WorkerLayout {
        WorkerLayout {
            package_of: vec![0; workers],
            members: vec![(0..workers).collect()],
        }
    }

    pub fn workers(&self) -> usize {
        self.package_of.len()
    }

    pub fn packages(&self) -> usize {
        self.members.len()
    }

    pub fn leader(&self, package: usize) -> usize {
        self.members[package][0]
    }

    pub fn is_leader(&self, worker: usize) -> bool {
        self.leader(self.package_of[worker]) == worker
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthetic_layout_fills_packages_in_order() {
        let t: Topology = "2x4".parse().unwrap();
        assert_eq!((t.num_cpus(), t.num_packages()), (8, 2));
        let l = t.layout(6);
        assert_eq!(l.package_of, vec![0, 0, 0, 0, 1, 1]);
        assert_eq!(l.leader(1), 4);
        assert!(l.is_leader(0) && !l.is_leader(5));
        // Oversubscription wraps around.
        assert_eq!(t.layout(10).package_of[8], 0);
        // Few workers use only the first package.
        assert_eq!(t.layout(3).packages(), 1);
    }

    #[test]
    fn parses_cpu_lists_and_rejects_bad_strings() {
        assert_eq!(parse_cpu_list("0-2,5"), Some(vec![0, 1, 2, 5]));
        assert_eq!(parse_cpu_list("3-1"), None);
        for s in ["", "2", "x4", "0x4", "2x", "axb"] {
            assert!(s.parse::<Topology>().is_err(), "{s}");
        }
        assert!(Topology::detect().num_cpus() >= 1);
    }
}
