//! The capped line reader of an engine's output: a line that never ends cannot grow the client.

use std::io::{BufRead, Read};

/// The longest engine line kept, in bytes: the rest of a longer line is read and dropped, so
/// memory stays bounded whatever the engine writes.
pub const MAX_LINE: usize = 64 * 1024;

/// The next line of `r`, at most `cap` bytes of it (the rest up to its line end is read and
/// dropped), without its line end (`\n`, `\r\n`), bytes that are not UTF-8 replaced; `None`
/// at the end of the stream.
pub fn read_line(r: &mut impl BufRead, cap: usize) -> std::io::Result<Option<String>> {
    let mut buf = Vec::new();
    let n = r.by_ref().take(cap as u64).read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() != Some(&b'\n') && buf.len() == cap {
        // Skip to the end of the over-long line, a bounded chunk at a time.
        let mut skip = Vec::new();
        loop {
            skip.clear();
            let m = r.by_ref().take(cap as u64).read_until(b'\n', &mut skip)?;
            if m == 0 || skip.last() == Some(&b'\n') {
                break;
            }
        }
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    Ok(Some(String::from_utf8_lossy(&buf).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_line_ends_dropped() {
        let long = "y".repeat(25);
        let text = format!("ab\r\n{long}\nlast\u{ff}");
        let mut r = std::io::Cursor::new(text.into_bytes());
        let mut got = Vec::new();
        while let Some(line) = read_line(&mut r, 10).unwrap() {
            got.push(line);
        }
        assert_eq!(got, ["ab", "yyyyyyyyyy", "last\u{ff}"]);
        // A line of exactly the cap, then its line end.
        let mut r = std::io::Cursor::new(b"0123456789\nnext\n".to_vec());
        assert_eq!(
            read_line(&mut r, 10).unwrap().as_deref(),
            Some("0123456789")
        );
        assert_eq!(read_line(&mut r, 10).unwrap().as_deref(), Some("next"));
        assert_eq!(read_line(&mut r, 10).unwrap(), None);
    }
}
