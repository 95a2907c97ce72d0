//! `warc-crates-probe FILE`: reads FILE with both crates; per crate, records read, response
//! records, response bytes, errors (the first few printed) and wall time.
use std::io::Read;
use std::time::Instant;

use fastwarc::warc::iter::ArchiveIterator;
use fastwarc::warc::record::WarcRecordType;

/// Errors after which a reader is given up (a reader that does not resync repeats them).
const MAX_ERRORS: u64 = 20;

fn main() {
    let path = std::env::args().nth(1).expect("usage: warc-crates-probe FILE");
    let t = Instant::now();
    let (mut n, mut resp, mut bytes, mut err) = (0u64, 0u64, 0u64, 0u64);
    let mut ids = Vec::new();
    for r in ArchiveIterator::from_path(&path).expect("open") {
        match r {
            Ok(rec) => {
                let mut rec = rec.borrow_mut();
                n += 1;
                if rec.record_type() == WarcRecordType::Response {
                    resp += 1;
                    ids.push(rec.record_id().map(|s| s.into_owned()).unwrap_or_default());
                    let mut buf = Vec::new();
                    if let Some(rd) = rec.reader_mut() {
                        if let Err(e) = rd.read_to_end(&mut buf) {
                            eprintln!("fastwarc body error: {e}");
                        }
                    }
                    bytes += buf.len() as u64;
                }
            }
            Err(e) => {
                err += 1;
                eprintln!("fastwarc error: {e}");
                if err >= MAX_ERRORS {
                    break;
                }
            }
        }
    }
    println!(
        "fastwarc: records={n} responses={resp} response_bytes={bytes} errors={err} time={:.3}s last_response={:?}",
        t.elapsed().as_secs_f64(),
        ids.last()
    );

    let t = Instant::now();
    let (mut n, mut resp, mut bytes, mut err) = (0u64, 0u64, 0u64, 0u64);
    let mut ids = Vec::new();
    let records: Box<dyn Iterator<Item = Result<warc::Record<warc::BufferedBody>, warc::Error>>> =
        if path.ends_with(".gz") {
            Box::new(warc::WarcReader::from_path_gzip(&path).expect("open").iter_records())
        } else {
            // `WarcReader::from_path` fails on Rust >= 1.77: it opens with `create(true)` but
            // without write access.
            let file = std::fs::File::open(&path).expect("open");
            let reader = std::io::BufReader::with_capacity(1 << 20, file);
            Box::new(warc::WarcReader::new(reader).iter_records())
        };
    for r in records {
        match r {
            Ok(rec) => {
                n += 1;
                if *rec.warc_type() == warc::RecordType::Response {
                    resp += 1;
                    ids.push(rec.warc_id().to_string());
                    bytes += rec.body().len() as u64;
                }
            }
            Err(e) => {
                err += 1;
                eprintln!("warc error: {e}");
                if err >= MAX_ERRORS {
                    break;
                }
            }
        }
    }
    println!(
        "warc: records={n} responses={resp} response_bytes={bytes} errors={err} time={:.3}s last_response={:?}",
        t.elapsed().as_secs_f64(),
        ids.last()
    );
}
