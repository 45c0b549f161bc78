//! A real SMTP server for the tests, on 127.0.0.1: it speaks enough SMTP for
//! lettre, hands every accepted message to the test, and can be told to
//! answer 4xx or 5xx, or to hang up after DATA.

use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

#[derive(Clone, Debug)]
pub struct Received {
    pub from: String,
    /// What followed the address in `MAIL FROM` (e.g. `SMTPUTF8`).
    pub mail_params: String,
    pub to: Vec<String>,
    pub data: Vec<u8>,
}

/// What the sink does with the next messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// 451 at RCPT TO.
    RcptTemporary,
    /// 554 after DATA.
    DataPermanent,
    /// Reads the whole message, then closes the connection without a reply.
    DropAfterData,
    /// Reads the whole message and never answers (a sender killed now is
    /// killed mid-send).
    HangAfterData,
}

pub struct Sink {
    pub port: u16,
    /// Whether the sink offers SMTPUTF8 (RFC 6531) in its EHLO answer.
    smtputf8: Arc<std::sync::atomic::AtomicBool>,
    rx: mpsc::UnboundedReceiver<Received>,
    faults: Arc<Mutex<Vec<Fault>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Sink {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Sink {
    pub async fn start() -> Sink {
        Self::start_on(0).await
    }

    pub async fn start_on(port: u16) -> Sink {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .await
            .expect("bind SMTP sink");
        let port = listener.local_addr().unwrap().port();
        let (tx, rx) = mpsc::unbounded_channel();
        let faults: Arc<Mutex<Vec<Fault>>> = Arc::default();
        let f = faults.clone();
        let smtputf8 = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let utf8 = smtputf8.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let (tx, f) = (tx.clone(), f.clone());
                let utf8 = utf8.load(std::sync::atomic::Ordering::SeqCst);
                tokio::spawn(async move {
                    let _ = session(stream, tx, f, utf8).await;
                });
            }
        });
        Sink {
            port,
            smtputf8,
            rx,
            faults,
            task,
        }
    }

    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Offers SMTPUTF8 to the next connections, or not (it does by default).
    pub fn offer_smtputf8(&self, on: bool) {
        self.smtputf8.store(on, std::sync::atomic::Ordering::SeqCst);
    }

    /// Makes the next transaction(s) fail this way, in order.
    pub fn fail_next(&self, fault: Fault) {
        self.faults.lock().unwrap().push(fault);
    }

    /// The next accepted message (waits for it, up to 30 s).
    pub async fn next(&mut self) -> Received {
        tokio::time::timeout(std::time::Duration::from_secs(30), self.rx.recv())
            .await
            .expect("a mail arrives at the SMTP sink")
            .expect("sink running")
    }

    pub fn try_next(&mut self) -> Option<Received> {
        self.rx.try_recv().ok()
    }
}

fn take_fault(faults: &Mutex<Vec<Fault>>, which: Fault) -> bool {
    let mut f = faults.lock().unwrap();
    if f.first() == Some(&which) {
        f.remove(0);
        true
    } else {
        false
    }
}

async fn session(
    stream: tokio::net::TcpStream,
    tx: mpsc::UnboundedSender<Received>,
    faults: Arc<Mutex<Vec<Fault>>>,
    smtputf8: bool,
) -> std::io::Result<()> {
    let (r, mut w) = stream.into_split();
    let mut r = BufReader::new(r);
    w.write_all(b"220 sink.test ESMTP ready\r\n").await?;
    let (mut from, mut mail_params, mut to) = (String::new(), String::new(), Vec::new());
    let mut line = String::new();
    loop {
        line.clear();
        if r.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let cmd = line.trim_end().to_owned();
        let upper = cmd.to_ascii_uppercase();
        if upper.starts_with("EHLO") {
            if smtputf8 {
                w.write_all(b"250-sink.test\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n")
                    .await?;
            } else {
                w.write_all(b"250-sink.test\r\n250 8BITMIME\r\n").await?;
            }
        } else if upper.starts_with("HELO") {
            w.write_all(b"250 sink.test\r\n").await?;
        } else if upper.starts_with("MAIL FROM:") {
            let (address, params) = cmd[10..].split_once('>').unwrap_or((&cmd[10..], ""));
            from = address.trim().trim_start_matches('<').to_owned();
            mail_params = params.trim().to_owned();
            to.clear();
            w.write_all(b"250 OK\r\n").await?;
        } else if upper.starts_with("RCPT TO:") {
            if take_fault(&faults, Fault::RcptTemporary) {
                w.write_all(b"451 4.7.1 Greylisted, try again later\r\n")
                    .await?;
            } else {
                to.push(
                    cmd[8..]
                        .trim()
                        .trim_start_matches('<')
                        .split('>')
                        .next()
                        .unwrap_or("")
                        .to_owned(),
                );
                w.write_all(b"250 OK\r\n").await?;
            }
        } else if upper == "DATA" {
            w.write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                .await?;
            let mut data = Vec::new();
            loop {
                let mut l = Vec::new();
                if r.read_until(b'\n', &mut l).await? == 0 {
                    return Ok(());
                }
                if l == b".\r\n" || l == b".\n" {
                    break;
                }
                if l.starts_with(b"..") {
                    l.remove(0);
                }
                data.extend_from_slice(&l);
            }
            if take_fault(&faults, Fault::DropAfterData) {
                return Ok(());
            }
            if take_fault(&faults, Fault::HangAfterData) {
                let _ = tx.send(Received {
                    from: "HANG".into(),
                    mail_params: mail_params.clone(),
                    to: to.clone(),
                    data: Vec::new(),
                });
                std::future::pending::<()>().await;
            }
            if take_fault(&faults, Fault::DataPermanent) {
                w.write_all(b"554 5.7.1 Message rejected\r\n").await?;
                continue;
            }
            w.write_all(b"250 OK queued\r\n").await?;
            let _ = tx.send(Received {
                from: from.clone(),
                mail_params: mail_params.clone(),
                to: to.clone(),
                data,
            });
        } else if upper == "QUIT" {
            w.write_all(b"221 Bye\r\n").await?;
            return Ok(());
        } else if upper == "RSET" || upper == "NOOP" {
            w.write_all(b"250 OK\r\n").await?;
        } else {
            w.write_all(b"502 Command not implemented\r\n").await?;
        }
    }
}
