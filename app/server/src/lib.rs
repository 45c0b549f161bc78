//! The aivet server: builds the application from its configuration, wires the
//! router and middleware, and runs it. Tests start it exactly as production
//! does, on 127.0.0.1:0, through [`Application::build`].

pub mod advisory_upload;
pub mod attachments;
pub mod calendar;
pub mod config;
pub mod middleware;
pub mod portal;
pub mod reports;
pub mod routes;
pub mod upload;

use aivet_services::{Clock, Lifetimes, Limits, SecretKey, Services};
use anyhow::Context;
use config::Config;
use leptos::config::LeptosOptions;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub services: Services,
    pub config: Arc<Config>,
    pub leptos: LeptosOptions,
    /// Lays out the report's PDF (`Config::pdf_worker`).
    pub pdf: Arc<dyn aivet_services::report::PdfEngine>,
}

impl axum::extract::FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos.clone()
    }
}

pub struct Application {
    listener: TcpListener,
    router: axum::Router,
    state: AppState,
    worker: aivet_mail::Worker,
    jobs: aivet_services::jobs::JobWorker,
}

impl Application {
    /// Opens the database (running migrations), binds the listen address and
    /// builds the router. The server is ready to accept once this returns.
    pub async fn build(config: Config, clock: Arc<dyn Clock>) -> anyhow::Result<Application> {
        Self::build_with_limits(config, clock, Limits::default()).await
    }

    pub async fn build_with_limits(
        config: Config,
        clock: Arc<dyn Clock>,
        limits: Limits,
    ) -> anyhow::Result<Application> {
        let listener = TcpListener::bind(config.listen)
            .await
            .with_context(|| format!("cannot listen on {} (AIVET_LISTEN)", config.listen))?;
        Self::build_on(config, listener, clock, limits).await
    }

    /// Builds on a listener the caller has bound already (tests bind port 0
    /// first, so the base URL can name the real port).
    pub async fn build_on(
        config: Config,
        listener: TcpListener,
        clock: Arc<dyn Clock>,
        limits: Limits,
    ) -> anyhow::Result<Application> {
        Self::build_with_routes(config, listener, clock, limits, axum::Router::new()).await
    }

    /// Like [`Application::build_on`], with extra routes behind the same
    /// middleware (for the benchmark's in-memory ceiling).
    pub async fn build_with_routes(
        config: Config,
        listener: TcpListener,
        clock: Arc<dyn Clock>,
        limits: Limits,
        extra: axum::Router<AppState>,
    ) -> anyhow::Result<Application> {
        let (services, transport) = open_services(&config, clock.clone(), limits).await?;
        let worker = aivet_mail::Worker::new(
            services.store.clone(),
            transport,
            services.mail.mailer.clone(),
            {
                let clock = clock.clone();
                Arc::new(move || clock.now())
            },
            services.mail.wake.clone(),
            aivet_mail::WorkerSettings {
                lease: chrono::Duration::seconds(config.mail_lease_seconds),
                ..aivet_mail::WorkerSettings::default()
            },
        );
        let leptos = LeptosOptions::builder()
            .output_name(aivet_web::app::OUTPUT_NAME)
            .site_root(config.site_root.to_string_lossy().to_string())
            .site_pkg_dir("pkg")
            .site_addr(config.listen)
            .build();
        if !config
            .site_root
            .join("pkg")
            .join(format!("{}.js", aivet_web::app::OUTPUT_NAME))
            .exists()
        {
            tracing::warn!(
                site_root = %config.site_root.display(),
                "the browser bundle is missing: pages and forms work, but every form is posted and answered as a whole page (build it with scripts/build.sh)"
            );
        }
        let jobs = aivet_services::jobs::JobWorker::new(
            services.clone(),
            aivet_services::jobs::JobSettings {
                lease: chrono::Duration::seconds(config.job_lease_seconds),
                ..Default::default()
            },
        );
        let pdf: Arc<dyn aivet_services::report::PdfEngine> = Arc::new(reports::WorkerPdf {
            exe: config.pdf_worker.clone(),
        });
        let state = AppState {
            services,
            config: Arc::new(config),
            leptos,
            pdf,
        };
        let router = routes::router_with(state.clone(), extra);
        Ok(Application {
            listener,
            router,
            state,
            worker,
            jobs,
        })
    }

    pub fn port(&self) -> u16 {
        self.listener.local_addr().map(|a| a.port()).unwrap_or(0)
    }

    pub fn services(&self) -> &Services {
        &self.state.services
    }

    /// The outbox worker (tests drive it by hand with `AIVET_MAIL_WORKER=off`).
    pub fn mail_worker(&self) -> aivet_mail::Worker {
        self.worker.clone()
    }

    /// The job worker (tests drive it by hand with `AIVET_JOB_WORKER=off`).
    pub fn job_worker(&self) -> aivet_services::jobs::JobWorker {
        self.jobs.clone()
    }

    /// Serves until the process gets Ctrl-C or SIGTERM, then finishes the
    /// requests under way.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        if self.state.config.mail_worker {
            tokio::spawn(self.worker.clone().run());
        }
        if self.state.config.job_worker {
            tokio::spawn(self.jobs.clone().run());
        }
        axum::serve(
            self.listener,
            self.router
                .into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown_signal())
        .await
    }
}

/// Opens the database (running migrations where allowed) and sets up
/// everything the use cases need: the server, and the commands that work
/// on the configured database without serving (`aivet demo`). Returns the
/// mail transport for the outbox worker.
pub async fn open_services(
    config: &Config,
    clock: Arc<dyn Clock>,
    limits: Limits,
) -> anyhow::Result<(Services, Arc<dyn aivet_mail::Transport>)> {
    if config.is_sqlite() {
        std::fs::create_dir_all(&config.data_dir).with_context(|| {
            format!(
                "cannot create the data directory {}",
                config.data_dir.display()
            )
        })?;
    }
    let store = aivet_store::open(&config.database_url, config.database_admin_url.as_deref())
        .await
        .context("cannot open the database (AIVET_DATABASE_URL)")?;
    let key = session_key(config)?;
    let lifetimes = Lifetimes {
        session_idle: chrono::Duration::minutes(config.session_idle_minutes),
        session_absolute: chrono::Duration::hours(config.session_absolute_hours),
        ..Lifetimes::default()
    };
    let (transport, mail) = mail_setup(config, &key)?;
    let services = Services::new(
        store,
        clock,
        key,
        lifetimes,
        limits,
        mail,
        config.base_url.clone(),
    );
    Ok((services, transport))
}

/// The mail transport (SMTP when configured, else a folder of .eml files
/// under the data directory) and the mailer.
fn mail_setup(
    config: &Config,
    key: &SecretKey,
) -> anyhow::Result<(Arc<dyn aivet_mail::Transport>, aivet_services::MailSetup)> {
    let transport: Arc<dyn aivet_mail::Transport> = match &config.smtp_url {
        Some(url) => {
            Arc::new(aivet_mail::SmtpTransport::from_url(url).map_err(anyhow::Error::msg)?)
        }
        None => {
            if config.is_https() {
                tracing::warn!(
                    "AIVET_BASE_URL is https but AIVET_SMTP_URL is not set: mails are written to files in the data \
                     directory and reach nobody. Set AIVET_SMTP_URL to send them."
                );
            }
            let dir = config.data_dir.join("outbox");
            Arc::new(
                aivet_mail::FolderTransport::new(dir.clone())
                    .with_context(|| format!("cannot create {}", dir.display()))?,
            )
        }
    };
    let id_domain = url::Url::parse(&config.base_url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_else(|| "localhost".into());
    let mailer = aivet_mail::Mailer::new(
        &config.mail_from,
        &id_domain,
        chrono::Duration::hours(config.mail_give_up_hours),
        aivet_mail::Sealer::new(
            &key.hash("outbox-seal", "")
                .try_into()
                .expect("HMAC-SHA256 gives 32 bytes"),
        ),
    )
    .map_err(|e| anyhow::anyhow!("AIVET_MAIL_FROM: {e}"))?;
    let setup = aivet_services::MailSetup {
        mailer,
        wake: Arc::new(tokio::sync::Notify::new()),
        transport: transport.describe(),
        smtputf8: config.smtp_utf8,
    };
    Ok((transport, setup))
}

/// The key for session and link hashes: configured, or for a single embedded
/// instance generated once and kept in the data directory.
fn session_key(config: &Config) -> anyhow::Result<SecretKey> {
    if let Some(s) = &config.session_secret {
        return SecretKey::new(s.as_bytes())
            .context("AIVET_SESSION_SECRET must have at least 32 characters");
    }
    let path = config.data_dir.join("session.key");
    if let Ok(text) = std::fs::read_to_string(&path) {
        let bytes = hex::decode(text.trim()).with_context(|| {
            format!("{} is not hex; delete it to make a new one", path.display())
        })?;
        return SecretKey::new(&bytes).with_context(|| {
            format!(
                "{} is too short; delete it to make a new one",
                path.display()
            )
        });
    }
    let mut bytes = [0u8; 32];
    rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut bytes);
    write_private(&path, &hex::encode(bytes))
        .with_context(|| format!("cannot write {}", path.display()))?;
    tracing::info!(path = %path.display(), "generated a session key");
    Ok(SecretKey::new(&bytes).expect("32 bytes"))
}

fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?.write_all(text.as_bytes())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
    tracing::info!("shutting down");
}

/// Sets up logging: `AIVET_LOG` (or `RUST_LOG`) filters, `AIVET_LOG_FORMAT`
/// picks text or JSON.
pub fn init_tracing(json: bool) {
    use tracing_subscriber::EnvFilter;
    let filter = std::env::var("AIVET_LOG")
        .ok()
        .or_else(|| std::env::var("RUST_LOG").ok())
        .unwrap_or_else(|| "info,sqlx=warn".into());
    // Logs go to stderr: stdout carries what a command prints for people
    // and scripts (`aivet demo`'s sign-in, "aivet is running").
    let builder = tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::new(filter))
        .with_writer(std::io::stderr);
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}

/// glibc raises its threshold for giving large blocks their own mapping
/// each time such a block is freed; past that, freed large blocks stay in
/// the process. Password hashing takes 19 MiB per sign-in, so five sign-ins
/// left the server at 110 MB resident for good. A fixed threshold turns the
/// adjustment off: blocks of 256 KiB and more are mapped when allocated and
/// returned to the system when freed (BENCHMARKS.md, 2026-12-01).
/// Called first thing in `main`, before any other thread exists.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn return_large_blocks_when_freed() {
    // SAFETY: mallopt sets an allocator parameter; it takes the allocator's
    // own lock and is called before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 * 1024);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn return_large_blocks_when_freed() {}
