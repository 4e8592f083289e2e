//! Every reader on the shared real graphs (counts from their README) and on malformed input
//! (each with the message a user should see); writers round-trip.

use ordo_graph::{load_coords, load_graph, write_graph, BuildOptions, Format, Graph, LoadOptions};
use std::path::{Path, PathBuf};

fn shared(name: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("ORDO_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    let p = dir.join(name);
    if p.is_file() {
        Some(p)
    } else {
        eprintln!("SKIP: shared graph {name} not found (set ORDO_DATA or place ../shared/data)");
        None
    }
}

fn load(p: &Path) -> Graph {
    load_graph(p, &LoadOptions::default(), None)
        .unwrap_or_else(|e| panic!("{e}"))
        .graph
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ordo-graph-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn err_of(name: &str, content: &[u8]) -> String {
    let p = tmp(name);
    std::fs::write(&p, content).unwrap();
    match load_graph(&p, &LoadOptions::default(), None) {
        Ok(_) => panic!("{name}: malformed input accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn shared_graphs_load_with_the_documented_sizes() {
    // (file, nodes, arcs); None where the README gives no exact figure for our reading.
    let cases: &[(&str, Option<usize>, Option<usize>)] = &[
        ("USA-road-d.NY.gr.gz", Some(264_346), Some(733_846)),
        ("osm-rome.gr.gz", Some(234_496), Some(516_412)),
        ("luxembourg-osm.gr.gz", Some(114_599), Some(239_332)),
        ("luxembourg.osm.graph.gz", Some(114_599), Some(239_332)),
        ("soc-Slashdot0902.txt.gz", Some(82_168), Some(948_464)),
        ("email-Enron.txt.gz", Some(36_692), Some(367_662)),
        ("wiki-Vote.txt.gz", None, Some(103_689)),
        ("CA-HepPh.txt.gz", None, Some(237_010)),
        ("facebook_combined.txt.gz", Some(4_039), Some(88_234)),
        ("bcsstk33.graph.gz", Some(8_738), Some(2 * 291_583)),
        ("finan512.graph.gz", Some(74_752), Some(2 * 261_120)),
        ("delaunay_n16.mtx.gz", Some(65_536), Some(2 * 196_575)),
        ("bcsstk13.mtx.gz", Some(2_003), None),
        ("princeton-usa.gr.gz", Some(87_575), Some(243_922)),
        ("osm-seattle.gr.gz", Some(148_463), None),
        ("osm-amsterdam.gr.gz", Some(68_213), None),
    ];
    for &(name, nodes, arcs) in cases {
        let Some(p) = shared(name) else { return };
        let g = load(&p);
        if let Some(n) = nodes {
            assert_eq!(g.num_nodes(), n, "{name} nodes");
        }
        if let Some(m) = arcs {
            assert_eq!(g.num_edges(), m, "{name} arcs");
        }
    }
}

#[test]
fn coordinates_attach_to_their_graphs() {
    for (graph, coords) in [
        ("luxembourg-osm.gr.gz", "luxembourg-osm.co.gz"),
        ("luxembourg.osm.graph.gz", "luxembourg.osm.xyz.gz"),
        ("princeton-usa.gr.gz", "princeton-usa.co.gz"),
    ] {
        let (Some(g), Some(c)) = (shared(graph), shared(coords)) else {
            return;
        };
        let mut g = load(&g);
        load_coords(&c, &mut g).unwrap();
        let (x, y) = g.coords().unwrap().get(0);
        assert!(x.is_finite() && y.is_finite());
        // Wrong pairing is caught.
        if let Some(other) = shared("osm-amsterdam.co.gz") {
            assert!(load_coords(&other, &mut g).is_err());
        }
    }
}

#[test]
fn real_valued_matrix_market_is_read_as_a_pattern_with_a_note() {
    let Some(p) = shared("bcsstk13.mtx.gz") else {
        return;
    };
    let l = load_graph(&p, &LoadOptions::default(), None).unwrap();
    assert!(!l.graph.is_weighted());
    assert!(l.notes[0].contains("real-valued"));
}

#[test]
fn binary_round_trip_is_exact() {
    let Some(p) = shared("USA-road-d.NY.gr.gz") else {
        return;
    };
    let g = load(&p);
    let out = tmp("ny.ordo");
    write_graph(&g, &out, None).unwrap();
    let b = load(&out);
    assert_eq!(g.offsets(), b.offsets());
    assert_eq!(g.targets(), b.targets());
    assert_eq!(g.weights(), b.weights());
    assert_eq!(b.id_base(), ordo_graph::IdBase::One);
    // Gzipped binary too.
    let gz = tmp("ny.ordo.gz");
    write_graph(&g, &gz, None).unwrap();
    assert_eq!(load(&gz).targets(), g.targets());
}

#[test]
fn text_writers_round_trip() {
    let g = ordo_graph::gen::road_grid(12, 9, 4, &BuildOptions::default()).unwrap();
    for name in ["g.gr", "g.wel", "g.wel.gz"] {
        let p = tmp(name);
        write_graph(&g, &p, None).unwrap();
        let back = load(&p);
        assert_eq!(back.offsets(), g.offsets(), "{name}");
        assert_eq!(back.targets(), g.targets(), "{name}");
        assert_eq!(back.weights(), g.weights(), "{name}");
    }
    let p = tmp("g.el");
    write_graph(&g, &p, None).unwrap();
    assert_eq!(load(&p).targets(), g.targets());
    assert!(write_graph(&g, &tmp("g.unknown"), None).is_err());
}

#[test]
fn binary_with_coordinates_round_trips() {
    let g = ordo_graph::gen::road_grid(5, 5, 1, &BuildOptions::default()).unwrap();
    let p = tmp("coords.ordo");
    write_graph(&g, &p, Some(Format::Binary)).unwrap();
    let b = load(&p);
    assert_eq!(
        b.coords().unwrap().xy.to_vec(),
        g.coords().unwrap().xy.to_vec()
    );
}

#[test]
fn load_options_apply() {
    let p = tmp("opts.el");
    std::fs::write(&p, "0 1\n0 1\n1 1\n2 0\n").unwrap();
    let opts = LoadOptions {
        format: None,
        build: BuildOptions {
            symmetrize: true,
            drop_self_loops: true,
            merge_parallel: true,
            weights: Some("5:5:0".parse().unwrap()),
            weight_divisor: Some(2),
        },
    };
    let g = load_graph(&p, &opts, None).unwrap().graph;
    assert_eq!(g.neighbors(0), &[1, 2]);
    assert_eq!(g.neighbors(1), &[0]);
    // 5 / 2 rounded up.
    assert!(g.weights().unwrap().iter().all(|&w| w == 3));
    // Explicit format overrides the extension.
    let p = tmp("opts.data");
    std::fs::write(&p, "p sp 2 1\na 1 2 3\n").unwrap();
    let opts = LoadOptions {
        format: Some(Format::Dimacs),
        ..Default::default()
    };
    assert_eq!(load_graph(&p, &opts, None).unwrap().graph.num_edges(), 1);
}

#[test]
fn malformed_inputs_get_clear_messages() {
    // Each must fail (the messages of most are checked below).
    let cases: &[(&str, &[u8])] = &[
        ("empty.gr", b""),
        ("empty.txt", b""),
        ("empty.mtx", b""),
        ("empty.graph", b""),
        ("lie.gr", b"p sp 3 5\na 1 2 1\n"),
        ("range.gr", b"p sp 3 1\na 1 9 1\n"),
        ("neg.gr", b"p sp 3 1\na 1 2 -7\n"),
        ("big.gr", b"p sp 3 1\na 1 2 4294967296\n"),
        ("nan.gr", b"p sp 3 1\na 1 two 1\n"),
        ("huge.gr", b"p sp 1000000000000 1\na 1 2 1\n"),
        ("claim.gr", b"p sp 4000000000 0\n"),
        (
            "lie.mtx",
            b"%%MatrixMarket matrix coordinate pattern general\n3 3 4\n1 2\n",
        ),
        (
            "neg.mtx",
            b"%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 -1\n",
        ),
        ("lie.graph", b"3 9\n2\n1\n\n"),
        ("junk.txt", b"\x00\x01\x02garbage\xff\n"),
        ("ids.el", b"0 1\n5\n"),
    ];
    for &(name, content) in cases {
        let _ = err_of(name, content);
    }
    // Messages name file and line.
    let check = |name: &str, content: &[u8], want: &str| {
        let e = err_of(name, content);
        assert!(e.contains(want), "{name}: got '{e}', want '{want}'");
    };
    check(
        "lie2.gr",
        b"p sp 3 5\na 1 2 1\n",
        "lie2.gr:1: the 'p' line declares 5 arcs but the file has 1",
    );
    check(
        "range.gr",
        b"p sp 3 1\na 1 9 1\n",
        "range.gr:2: node id 9 is out of range 1..=3",
    );
    check(
        "neg.gr",
        b"p sp 3 1\na 1 2 -7\n",
        "neg.gr:2: negative weight '-7' is not allowed",
    );
    check(
        "big.gr",
        b"p sp 3 1\na 1 2 4294967296\n",
        "big.gr:2: weight 4294967296 does not fit in 32 bits",
    );
    check(
        "nan.gr",
        b"p sp 3 1\na 1 two 1\n",
        "nan.gr:2: target id 'two' is not a non-negative integer",
    );
    check(
        "huge.gr",
        b"p sp 1000000000000 1\n",
        "huge.gr:1: 1000000000000 nodes is too many",
    );
    check(
        "claim.gr",
        b"p sp 4000000000 0\n",
        "claim.gr:1: 4000000000 nodes is too many",
    );
    check(
        "neg.mtx",
        b"%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 -1\n",
        "neg.mtx:3: negative weight -1",
    );
    check(
        "junk.gr",
        b"\x7fELF\x02\x01\x01\x00\x00\n",
        "junk.gr:1: unexpected line",
    );
    check(
        "crlf.gr",
        b"p sp 2 1\r\na 1 2 x\r\n",
        "crlf.gr:2: weight 'x'",
    );
}

#[test]
fn truncated_and_corrupt_compressed_and_binary_files_are_refused() {
    // About 1 MB: the binary reader hashes it in several pieces.
    let g = ordo_graph::gen::uniform_random(20000, 200000, 3, &BuildOptions::default()).unwrap();
    // Truncated gzip.
    let gz = tmp("t.wel.gz");
    write_graph(&g, &gz, None).unwrap();
    let bytes = std::fs::read(&gz).unwrap();
    let e = err_of("cut.wel.gz", &bytes[..bytes.len() / 2]);
    assert!(e.contains("truncated or corrupt gzip"), "{e}");
    // Binary: truncated, one flipped byte, bad magic, a header claiming 10^12 nodes.
    let bin = tmp("t.ordo");
    write_graph(&g, &bin, None).unwrap();
    let bytes = std::fs::read(&bin).unwrap();
    let e = err_of("cut.ordo", &bytes[..bytes.len() - 8]);
    assert!(e.contains("truncated or corrupt"), "{e}");
    assert_eq!(load(&bin).targets(), g.targets());
    for at in [bytes.len() / 2, bytes.len() - 3] {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x40;
        let e = err_of("flip.ordo", &flipped);
        assert!(e.contains("checksum mismatch"), "{e}");
    }
    let e = err_of(
        "junk.ordo",
        b"definitely not a graph at all, but long enough to have a header......",
    );
    assert!(e.contains("bad magic"), "{e}");
    let mut claim = bytes[..64].to_vec();
    claim[16..24].copy_from_slice(&1_000_000_000_000u64.to_le_bytes());
    let e = err_of("claim.ordo", &claim);
    assert!(e.contains("exceed"), "{e}");
    let mut claim = bytes[..64].to_vec();
    claim[24..32].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
    let e = err_of("claim2.ordo", &claim);
    assert!(e.contains("overflow") || e.contains("implies"), "{e}");
    let mut v2 = bytes;
    v2[8] = 9;
    assert!(err_of("v9.ordo", &v2).contains("version 9 is not supported"));
}

#[test]
fn missing_files_are_io_errors_naming_the_path() {
    let e = load_graph(
        Path::new("/nonexistent/x.gr"),
        &LoadOptions::default(),
        None,
    )
    .err()
    .unwrap()
    .to_string();
    assert!(e.contains("/nonexistent/x.gr"), "{e}");
}
