//! The HTTP server: the page's assets at fixed paths and the WebSocket at `/ws`, one thread
//! per connection, one engine per WebSocket.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

use crate::error::GuiError;
use crate::page::{Page, MAX_MESSAGE};
use buffgreen_client::rules::Variant;
use buffgreen_client::EngineSpec;

/// Where and what to serve.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The address to listen on (`127.0.0.1` unless the user asked for another).
    pub host: String,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// Open the page in the desktop's browser.
    pub open: bool,
    /// The engine each page gets.
    pub engine: EngineSpec,
}

/// The page's files, compiled into the binary; the page's `<!-- rule sets -->` stands for the
/// new-game dialog's rule sets ([`rule_set_options`]).
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("../assets/index.html"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../assets/style.css"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/app.js"),
    ),
    (
        "/board.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/board.js"),
    ),
    (
        "/favicon.svg",
        "image/svg+xml",
        include_str!("../assets/favicon.svg"),
    ),
];

/// Whether `host` (an address or `localhost`) is reachable from this machine only.
pub fn is_loopback(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || bare
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Whether a request's `Host` header names this server: one of `allowed`, or, when it listens
/// beyond loopback, any IP address with its port (a browser on the network names the machine
/// by the address it reached; an address is no DNS name, so no rebinding).
fn host_ok(host: &str, allowed: &Allowed) -> bool {
    if allowed.names.iter().any(|a| a == host) {
        return true;
    }
    let Some((addr, port)) = host.rsplit_once(':') else {
        return false;
    };
    let bare = addr.trim_start_matches('[').trim_end_matches(']');
    allowed.any_address
        && port == allowed.port.to_string()
        && bare.parse::<std::net::IpAddr>().is_ok()
}

/// The `Host` values a request may carry.
struct Allowed {
    names: Vec<String>,
    port: u16,
    any_address: bool,
}

/// Where the page names the rule sets.
const RULE_SETS: &str = "<!-- rule sets -->";

/// The new-game dialog's choices, one per rule set of the rules crate's table: its one-word
/// key, which the page sends back, and its words.
fn rule_set_options() -> String {
    Variant::ALL
        .iter()
        .map(|v| format!("<option value=\"{}\">{}</option>", v.key(), v.name()))
        .collect()
}

/// The page's files as served: the assets, the rule sets written into the page once.
fn assets() -> &'static [(&'static str, &'static str, String)] {
    static SERVED: OnceLock<Vec<(&str, &str, String)>> = OnceLock::new();
    SERVED.get_or_init(|| {
        ASSETS
            .iter()
            .map(|&(path, mime, body)| (path, mime, body.replace(RULE_SETS, &rule_set_options())))
            .collect()
    })
}

/// The total size of the page's files in bytes (the page weight).
pub fn page_bytes() -> usize {
    assets().iter().map(|(_, _, body)| body.len()).sum()
}

/// The most request-head bytes read.
const MAX_HEAD: usize = 16 * 1024;
/// The most connections served at once (pages and asset requests together): many, since an
/// idle one costs a sleeping thread, so that idle sockets cannot lock the page out.
const MAX_CONNECTIONS: usize = 256;
/// The most pages (WebSockets, each with its engine process and its memory) at once.
pub const MAX_PAGES: usize = 8;
/// How long a connection may take to send its whole request head, however it trickles in:
/// a byte every few seconds (slow-loris) must not keep a connection for ever.
const HEAD_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a write to the page may wait for it to read: a page that stops reading (or a
/// client that never does) is dropped instead of holding its thread, and its engine, for ever.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a WebSocket read waits before the engine's lines are forwarded.
const POLL: Duration = Duration::from_millis(5);

/// Serves until the process ends. `announce` gets the page's URL once the port is bound.
pub fn serve(opts: &ServeOptions, announce: impl FnOnce(&str)) -> Result<(), GuiError> {
    let listener =
        TcpListener::bind((opts.host.as_str(), opts.port)).map_err(|e| GuiError::Bind {
            addr: format!("{}:{}", opts.host, opts.port),
            source: e,
        })?;
    let addr = listener
        .local_addr()
        .map_err(|e| GuiError::Engine(format!("no local address: {e}")))?;
    let host = if addr.ip().is_ipv6() {
        format!("[{}]", addr.ip())
    } else {
        addr.ip().to_string()
    };
    let url = format!("http://{host}:{}/", addr.port());
    announce(&url);
    if opts.open {
        // Best effort: a desktop without xdg-open still has the printed URL.
        let _ = std::process::Command::new("xdg-open").arg(&url).spawn();
    }
    let allowed = Arc::new(Allowed {
        names: [
            host.clone(),
            "127.0.0.1".into(),
            "localhost".into(),
            "[::1]".into(),
        ]
        .iter()
        .map(|h| format!("{h}:{}", addr.port()))
        .collect(),
        port: addr.port(),
        any_address: !addr.ip().is_loopback(),
    });
    let live = Arc::new(AtomicUsize::new(0));
    let pages = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        if live.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            let _ = respond(
                &stream,
                "503 Service Unavailable",
                "text/plain",
                b"too many connections\n",
            );
            continue;
        }
        live.fetch_add(1, Ordering::SeqCst);
        let (engine, allowed, live) = (opts.engine.clone(), allowed.clone(), live.clone());
        let pages = pages.clone();
        std::thread::spawn(move || {
            let _ = connection(stream, &engine, &allowed, &pages);
            live.fetch_sub(1, Ordering::SeqCst);
        });
    }
    Ok(())
}

fn respond(stream: &TcpStream, status: &str, mime: &str, body: &[u8]) -> std::io::Result<()> {
    respond_with(stream, status, mime, body, true)
}

/// A response; `with_body` false for a `HEAD` request (the same head, no body).
fn respond_with(
    mut stream: &TcpStream,
    status: &str,
    mime: &str,
    body: &[u8],
    with_body: bool,
) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {mime}\r\nContent-Length: {}\r\nAllow: GET, HEAD\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
         Content-Security-Policy: default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if with_body {
        stream.write_all(body)?;
    }
    stream.flush()
}

/// The parts of a request head the server looks at.
struct Head {
    method: String,
    path: String,
    host: Option<String>,
    origin: Option<String>,
    upgrade: bool,
    ws_key: Option<String>,
    ws_version: Option<String>,
}

fn read_head(stream: &mut TcpStream) -> Result<Option<Head>, std::io::Error> {
    let deadline = std::time::Instant::now() + HEAD_TIMEOUT;
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 2048];
    loop {
        // The time left of the whole head's, not a fresh timeout per read.
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return Ok(None);
        }
        stream.set_read_timeout(Some(left))?;
        let n = stream.read(&mut chunk)?;
        if n == 0 {
            return Ok(None);
        }
        buf.extend_from_slice(&chunk[..n]);
        let mut headers = [httparse::EMPTY_HEADER; 48];
        let mut req = httparse::Request::new(&mut headers);
        match req.parse(&buf) {
            Ok(httparse::Status::Complete(_)) => {
                let header = |name: &str| {
                    req.headers
                        .iter()
                        .find(|h| h.name.eq_ignore_ascii_case(name))
                        .map(|h| String::from_utf8_lossy(h.value).trim().to_string())
                };
                let has = |name: &str, word: &str| {
                    header(name)
                        .is_some_and(|v| v.split(',').any(|w| w.trim().eq_ignore_ascii_case(word)))
                };
                return Ok(Some(Head {
                    method: req.method.unwrap_or("").to_string(),
                    path: req.path.unwrap_or("").to_string(),
                    host: header("Host"),
                    origin: header("Origin"),
                    upgrade: has("Connection", "upgrade") && has("Upgrade", "websocket"),
                    ws_key: header("Sec-WebSocket-Key"),
                    ws_version: header("Sec-WebSocket-Version"),
                }));
            }
            Ok(httparse::Status::Partial) if buf.len() < MAX_HEAD => {}
            _ => return Ok(None),
        }
    }
}

fn connection(
    mut stream: TcpStream,
    engine: &EngineSpec,
    allowed: &Allowed,
    pages: &AtomicUsize,
) -> std::io::Result<()> {
    let Some(head) = read_head(&mut stream)? else {
        return respond(&stream, "400 Bad Request", "text/plain", b"bad request\n");
    };
    // A page from another site (or a rebound DNS name) must not reach the engine or the page.
    if !head.host.as_ref().is_some_and(|h| host_ok(h, allowed)) {
        return respond(&stream, "403 Forbidden", "text/plain", b"unknown Host\n");
    }
    let get = match head.method.as_str() {
        "GET" => true,
        "HEAD" => false,
        _ => {
            return respond(
                &stream,
                "405 Method Not Allowed",
                "text/plain",
                b"GET or HEAD only\n",
            )
        }
    };
    let path = head.path.split('?').next().unwrap_or("");
    if path == "/ws" && get {
        // Counted while the socket lives; each page has its engine, so their number is bound.
        if pages.fetch_add(1, Ordering::SeqCst) >= MAX_PAGES {
            pages.fetch_sub(1, Ordering::SeqCst);
            return respond(
                &stream,
                "503 Service Unavailable",
                "text/plain",
                b"too many pages open: close one\n",
            );
        }
        let served = websocket(stream, &head, engine);
        pages.fetch_sub(1, Ordering::SeqCst);
        return served;
    }
    match assets().iter().find(|(p, _, _)| *p == path) {
        Some((_, mime, body)) => respond_with(&stream, "200 OK", mime, body.as_bytes(), get),
        None => respond_with(&stream, "404 Not Found", "text/plain", b"not found\n", get),
    }
}

fn websocket(mut stream: TcpStream, head: &Head, engine: &EngineSpec) -> std::io::Result<()> {
    let origin_ok = match (&head.origin, &head.host) {
        (Some(o), Some(h)) => *o == format!("http://{h}"),
        _ => false,
    };
    if !origin_ok {
        return respond(&stream, "403 Forbidden", "text/plain", b"bad Origin\n");
    }
    let (Some(key), true, Some("13")) = (&head.ws_key, head.upgrade, head.ws_version.as_deref())
    else {
        return respond(
            &stream,
            "400 Bad Request",
            "text/plain",
            b"not a WebSocket request\n",
        );
    };
    let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
    write!(
        stream,
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Accept: {accept}\r\n\r\n"
    )?;
    stream.flush()?;
    stream.set_read_timeout(Some(POLL))?;
    // Frames and messages above the limit close the connection; messages up to it get an
    // error reply from the page's session when they are bad.
    let config = WebSocketConfig::default()
        .max_message_size(Some(4 * MAX_MESSAGE))
        .max_frame_size(Some(4 * MAX_MESSAGE));
    let mut ws = WebSocket::from_raw_socket(stream, Role::Server, Some(config));
    let mut page = Page::new(engine.clone());
    loop {
        match ws.read() {
            Ok(Message::Text(text)) => page.handle(text.as_str()),
            Ok(Message::Binary(_)) => page.reject("binary messages are not accepted"),
            Ok(Message::Close(_)) => break,
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => break,
        }
        page.tick();
        for msg in page.take_output() {
            if ws.send(Message::text(msg.to_string())).is_err() {
                return Ok(());
            }
        }
    }
    // The page is gone: dropping it ends its engine.
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The head of the server's answer to `request`.
    fn ask(port: u16, request: &str) -> String {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        out
    }

    /// A server on a free loopback port, for the test's life; its port.
    fn serve_here() -> u16 {
        let (tx, rx) = std::sync::mpsc::channel();
        let opts = ServeOptions {
            host: "127.0.0.1".into(),
            port: 0,
            open: false,
            engine: EngineSpec::default(),
        };
        std::thread::spawn(move || {
            let _ = serve(&opts, |url| {
                let _ = tx.send(url.to_string());
            });
        });
        let url = rx.recv().unwrap();
        url.trim_end_matches('/')
            .rsplit(':')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    }

    #[test]
    fn head_and_other_methods_and_hosts() {
        let port = serve_here();
        let head = ask(
            port,
            &format!("HEAD / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"),
        );
        assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
        assert!(head.ends_with("\r\n\r\n"), "no body after a HEAD: {head}");
        let post = ask(
            port,
            &format!("POST / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"),
        );
        assert!(post.starts_with("HTTP/1.1 405 "), "{post}");
        assert!(post.contains("\r\nAllow: GET, HEAD\r\n"), "{post}");
        // On loopback an address the server does not listen on is refused.
        let other = ask(
            port,
            &format!("GET / HTTP/1.1\r\nHost: 10.0.0.1:{port}\r\n\r\n"),
        );
        assert!(other.starts_with("HTTP/1.1 403 "), "{other}");
    }

    /// A WebSocket handshake to the server on `port`: the answer's status line, and the
    /// socket, kept open (the page lives while it does).
    fn ws_open(port: u16) -> (String, TcpStream) {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let host = format!("127.0.0.1:{port}");
        write!(
            s,
            "GET /ws HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\nConnection: Upgrade\r\n\
             Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        )
        .unwrap();
        let mut first = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(&s), &mut first).unwrap();
        (first.trim_end().to_string(), s)
    }

    #[test]
    fn idle_sockets_do_not_lock_the_page_out_and_pages_are_bounded() {
        let port = serve_here();
        // More idle connections than the old bound of 32: the page still loads.
        let idle: Vec<TcpStream> = (0..40)
            .map(|_| TcpStream::connect(("127.0.0.1", port)).unwrap())
            .collect();
        let page = ask(
            port,
            &format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"),
        );
        assert!(
            page.starts_with("HTTP/1.1 200 OK\r\n"),
            "{}",
            &page[..page.len().min(200)]
        );
        drop(idle);
        // Pages: each WebSocket has an engine (here one that cannot start), up to the bound.
        let open: Vec<_> = (0..MAX_PAGES).map(|_| ws_open(port)).collect();
        for (status, _) in &open {
            assert_eq!(status, "HTTP/1.1 101 Switching Protocols");
        }
        assert_eq!(ws_open(port).0, "HTTP/1.1 503 Service Unavailable");
        drop(open);
    }

    /// Slow-loris: connections that send their request head a byte at a time, slower than
    /// any browser, are each dropped once the head's time is up, and the page loads meanwhile.
    #[test]
    fn connections_that_trickle_their_head_are_dropped() {
        let port = serve_here();
        let head = format!(
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: {}\r\n\r\n",
            "a".repeat(64)
        );
        let mut slow: Vec<Option<TcpStream>> = (0..32)
            .map(|_| {
                let s = TcpStream::connect(("127.0.0.1", port)).unwrap();
                s.set_read_timeout(Some(Duration::from_millis(10))).unwrap();
                Some(s)
            })
            .collect();
        let mut dropped = 0;
        // One byte a second each: the whole head would take over a minute, several times
        // the head's time; the bound on the loop is the head's length, not a timing.
        for byte in head.as_bytes() {
            for conn in slow.iter_mut() {
                let Some(s) = conn.as_mut() else { continue };
                let mut answer = [0u8; 64];
                let closed = s.write_all(&[*byte]).is_err()
                    || match s.read(&mut answer) {
                        Ok(0) => true,
                        Ok(n) => answer[..n].starts_with(b"HTTP/1.1 400 "),
                        Err(e) => !matches!(
                            e.kind(),
                            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                        ),
                    };
                if closed {
                    *conn = None;
                    dropped += 1;
                }
            }
            if dropped == slow.len() {
                break;
            }
            std::thread::sleep(Duration::from_secs(1));
        }
        assert_eq!(dropped, 32, "every trickling connection is dropped");
        let page = ask(
            port,
            &format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"),
        );
        assert!(page.starts_with("HTTP/1.1 200 OK\r\n"));
    }

    #[test]
    fn hosts_beyond_loopback() {
        assert!(is_loopback("127.0.0.1") && is_loopback("localhost") && is_loopback("[::1]"));
        assert!(!is_loopback("0.0.0.0") && !is_loopback("192.168.1.2"));
        let lan = Allowed {
            names: vec!["0.0.0.0:80".into()],
            port: 80,
            any_address: true,
        };
        assert!(host_ok("192.168.1.2:80", &lan));
        assert!(host_ok("[fe80::1]:80", &lan));
        assert!(!host_ok("192.168.1.2:81", &lan));
        assert!(!host_ok("rebound.example:80", &lan));
        let local = Allowed {
            any_address: false,
            ..lan
        };
        assert!(!host_ok("192.168.1.2:80", &local));
    }
}
