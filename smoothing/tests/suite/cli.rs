//! The `smooth` binary: JSON Lines in, JSON Lines out, errors per line.

use std::io::Write;
use std::process::{Command, Stdio};

fn run(input: &str) -> (String, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_smooth"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn smooth");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn good_lines_give_results() {
    let (out, code) = run(concat!(
        r#"{"parent": [-1, 0, 0], "x": [0.1, 0.2, 0.9], "w": [1, 1, 1], "gamma": [0.3, 0.3, 0.3]}"#,
        "\n\n",
        r#"{"parent": [-1], "x": [0.5], "w": [2], "gamma": [0]}"#,
        "\n"
    ));
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["y"], serde_json::json!([0.1, 0.1, 0.9]));
    assert_eq!(lines[0]["segments"], serde_json::json!([0, 2]));
    assert!((lines[0]["cost"].as_f64().unwrap() - 0.7).abs() < 1e-12);
    assert_eq!(lines[1]["cost"].as_f64().unwrap(), 0.0);
}

#[test]
fn bad_lines_give_errors_and_the_run_goes_on() {
    let (out, code) = run(concat!(
        "not json\n",
        r#"{"parent": [-1, 0], "x": [0.1, 7.0], "w": [1, 1], "gamma": [0, 0]}"#,
        "\n",
        r#"{"parent": [-1, -3], "x": [0.1, 0.2], "w": [1, 1], "gamma": [0, 0]}"#,
        "\n",
        r#"{"parent": [-1, 0], "x": [0.1, 0.2], "w": [1, 1], "gamma": [0, 0]}"#,
        "\n"
    ));
    assert_ne!(code, 0);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    let e0 = lines[0]["error"].as_str().unwrap();
    assert!(e0.starts_with("line 1: bad JSON"), "{e0}");
    let e1 = lines[1]["error"].as_str().unwrap();
    assert!(e1.contains("node 1: score x = 7"), "{e1}");
    let e2 = lines[2]["error"].as_str().unwrap();
    assert!(e2.contains("node 1: parent index -3"), "{e2}");
    assert_eq!(lines[3]["segments"], serde_json::json!([0, 1]));
}
