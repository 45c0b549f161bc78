//! The `aivet` command: `serve` (the default) runs the web application,
//! `migrate` brings the database schema up to date and exits.

use aivet_server::config::Config;
use aivet_server::{init_tracing, Application};
use aivet_services::SystemClock;
use std::process::ExitCode;
use std::sync::Arc;

const USAGE: &str = "usage: aivet [serve | migrate | demo [--lang en|de|nb] | report … | import FILE | advisories import … | backup FILE | version | help]

  serve     run the web application (default)
  migrate   bring the database schema up to date, then exit
  demo      create (or start afresh) the demo organisation `demo`, a small
            business with vendors, services and questions in the given
            language (default en); prints its owner's email and password
  report    --org SLUG --format pdf|csv|answers-csv|json --lang en|de|nb --out FILE
            write the organisation's compliance report (all services), the
            CSV of its services or answers, or its JSON export; recorded in
            its audit log in the name of its first owner
  import    FILE: load an organisation's JSON export (aivet report --format
            json) into the configured database, all or nothing: how an
            organisation moves to another database (SQLite to PostgreSQL)
  advisories import FILE --org SLUG
            add the OSV records in FILE (one record or a JSON list) to the
            organisation's engine advisories, all or none; each refused
            record is named
  backup    FILE: a consistent copy of the SQLite database, taken while the
            server runs (on PostgreSQL use pg_dump, see README)
  version   print the version

Settings come from AIVET_* environment variables or aivet.toml; see .env.example.";

fn main() -> ExitCode {
    aivet_server::return_large_blocks_when_freed();
    match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime.block_on(run()),
        Err(e) => {
            eprintln!("aivet: cannot start the async runtime: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> ExitCode {
    let command = std::env::args().nth(1).unwrap_or_else(|| "serve".into());
    match command.as_str() {
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        "version" | "--version" | "-V" => {
            println!("aivet {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        "serve" | "migrate" | "demo" | "report" | "import" | "advisories" | "backup" => {}
        other => {
            eprintln!("aivet: unknown command {other:?}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    let config = match Config::load() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("aivet: {e}");
            return ExitCode::from(2);
        }
    };
    init_tracing(config.log_format == "json");
    let result = match command.as_str() {
        "migrate" => migrate(&config).await,
        "demo" => match demo_lang(std::env::args().skip(2)) {
            Ok(lang) => demo(&config, lang).await,
            Err(e) => {
                eprintln!("aivet demo: {e}\n\n{USAGE}");
                return ExitCode::from(2);
            }
        },
        "report" => match ReportArgs::parse(std::env::args().skip(2)) {
            Ok(args) => report(&config, args).await,
            Err(e) => {
                eprintln!("aivet report: {e}\n\n{USAGE}");
                return ExitCode::from(2);
            }
        },
        "advisories" => match advisory_args(std::env::args().skip(2)) {
            Ok((file, org)) => import_advisories(&config, &file, &org).await,
            Err(e) => {
                eprintln!("aivet advisories: {e}\n\n{USAGE}");
                return ExitCode::from(2);
            }
        },
        "import" => match std::env::args().nth(2) {
            Some(file) => import(&config, &file).await,
            None => {
                eprintln!("aivet import: name the export file to load\n\n{USAGE}");
                return ExitCode::from(2);
            }
        },
        "backup" => match std::env::args().nth(2) {
            Some(file) => backup(&config, &file).await,
            None => {
                eprintln!("aivet backup: name the file to write\n\n{USAGE}");
                return ExitCode::from(2);
            }
        },
        _ => serve(config).await,
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e:#}");
            eprintln!("aivet: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(config: Config) -> anyhow::Result<()> {
    let base_url = config.base_url.clone();
    let backend = if config.is_sqlite() {
        "SQLite"
    } else {
        "PostgreSQL"
    };
    let app = Application::build(config, Arc::new(SystemClock)).await?;
    tracing::info!(url = %base_url, database = backend, "aivet is ready");
    println!("aivet is running at {base_url} (database: {backend}). Stop it with Ctrl-C.");
    app.run_until_stopped().await?;
    Ok(())
}

/// The language of `aivet demo --lang xx` (English without the option).
fn demo_lang(mut args: impl Iterator<Item = String>) -> Result<aivet_domain::Lang, String> {
    let mut lang = aivet_domain::Lang::En;
    while let Some(arg) = args.next() {
        let value = match arg.strip_prefix("--lang=") {
            Some(v) => v.to_owned(),
            None if arg == "--lang" => args.next().ok_or("--lang needs a value: en, de or nb")?,
            None => return Err(format!("unknown argument {arg:?}")),
        };
        lang = value
            .parse()
            .map_err(|_| format!("--lang must be en, de or nb, got {value:?}"))?;
    }
    Ok(lang)
}

/// Fills the configured database with the demo business and prints its
/// owner's sign-in, exactly two lines on stdout.
async fn demo(config: &Config, lang: aivet_domain::Lang) -> anyhow::Result<()> {
    let now = chrono::Utc::now();
    let clock = Arc::new(aivet_services::FixedClock::new(now));
    let (services, _) =
        aivet_server::open_services(config, clock.clone(), aivet_services::Limits::default())
            .await?;
    let account = services
        .create_demo(lang, &clock, now)
        .await
        .map_err(|e| anyhow::anyhow!("the demo could not be created: {e:?}"))?;
    println!("email: {}", account.email);
    println!("password: {}", account.password);
    eprintln!(
        "The demo organisation \"{}\" is ready. Start aivet (`aivet serve`, or `./dev run`) and sign in with these.",
        account.slug
    );
    Ok(())
}

/// `aivet report`'s options.
struct ReportArgs {
    org: String,
    format: aivet_domain::report::ReportFormat,
    lang: aivet_domain::Lang,
    out: std::path::PathBuf,
}

impl ReportArgs {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<ReportArgs, String> {
        use aivet_domain::report::ReportFormat;
        let (mut org, mut format, mut lang, mut out) = (None, None, aivet_domain::Lang::En, None);
        while let Some(arg) = args.next() {
            let (name, inline) = match arg.split_once('=') {
                Some((n, v)) => (n.to_owned(), Some(v.to_owned())),
                None => (arg.clone(), None),
            };
            let mut value = || {
                inline
                    .clone()
                    .or_else(|| args.next())
                    .ok_or(format!("{name} needs a value"))
            };
            match name.as_str() {
                "--org" => org = Some(value()?),
                "--format" => {
                    format = Some(match value()?.as_str() {
                        "pdf" => ReportFormat::Pdf,
                        "csv" => ReportFormat::ServicesCsv,
                        "answers-csv" => ReportFormat::AnswersCsv,
                        "json" => ReportFormat::Json,
                        other => {
                            return Err(format!(
                                "--format must be pdf, csv, answers-csv or json, got {other:?}"
                            ))
                        }
                    })
                }
                "--lang" => {
                    let v = value()?;
                    lang = v
                        .parse()
                        .map_err(|_| format!("--lang must be en, de or nb, got {v:?}"))?;
                }
                "--out" => out = Some(std::path::PathBuf::from(value()?)),
                _ => return Err(format!("unknown argument {arg:?}")),
            }
        }
        Ok(ReportArgs {
            org: org.ok_or("--org SLUG is required")?,
            format: format.ok_or("--format is required")?,
            lang,
            out: out.ok_or("--out FILE is required")?,
        })
    }
}

/// `import FILE --org SLUG`.
fn advisory_args(mut args: impl Iterator<Item = String>) -> Result<(String, String), String> {
    if args.next().as_deref() != Some("import") {
        return Err("the only subcommand is `import`".into());
    }
    let (mut file, mut org) = (None, None);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--org" => org = Some(args.next().ok_or("--org needs a slug")?),
            other if file.is_none() && !other.starts_with("--") => file = Some(other.to_owned()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok((
        file.ok_or("name the OSV file")?,
        org.ok_or("--org SLUG is required")?,
    ))
}

async fn import_advisories(config: &Config, file: &str, org: &str) -> anyhow::Result<()> {
    let (services, auth) = as_owner_of(config, org).await?;
    let json =
        std::fs::read_to_string(file).map_err(|e| anyhow::anyhow!("cannot read {file}: {e}"))?;
    match services
        .import_advisories(&auth, &json, aivet_domain::Lang::En)
        .await
    {
        Ok(n) => {
            let noun = if n == 1 { "advisory" } else { "advisories" };
            println!("imported {n} {noun} into {org}");
            Ok(())
        }
        Err(aivet_services::ServiceError::Blocked(_, problems)) => {
            for p in &problems {
                eprintln!("{file}: {p}");
            }
            anyhow::bail!("nothing was imported")
        }
        Err(e) => anyhow::bail!("nothing was imported: {e:?}"),
    }
}

/// The services on the configured database, for a command.
async fn services_on(config: &Config) -> anyhow::Result<aivet_services::Services> {
    let (services, _) = aivet_server::open_services(
        config,
        Arc::new(SystemClock),
        aivet_services::Limits::default(),
    )
    .await?;
    Ok(services)
}

/// The services on the configured database, acting as the first owner of
/// the organisation `org` (the commands that work on one organisation).
async fn as_owner_of(
    config: &Config,
    org: &str,
) -> anyhow::Result<(aivet_services::Services, aivet_services::Auth)> {
    let services = services_on(config).await?;
    let auth = services
        .owner_auth(org)
        .await
        .map_err(|_| anyhow::anyhow!("there is no organisation with the slug {org:?}"))?;
    Ok((services, auth))
}

/// Writes a report of the configured database's organisation to a file.
async fn report(config: &Config, args: ReportArgs) -> anyhow::Result<()> {
    use aivet_domain::report::{ReportFormat, Scope};
    let (services, auth) = as_owner_of(config, &args.org).await?;
    let scope = Scope::All;
    let download = match args.format {
        ReportFormat::Pdf => {
            services
                .report_pdf(
                    &auth,
                    &scope,
                    args.lang,
                    Arc::new(aivet_server::reports::WorkerPdf {
                        exe: config.pdf_worker.clone(),
                    }),
                )
                .await
        }
        ReportFormat::ServicesCsv => services.report_services_csv(&auth, &scope, args.lang).await,
        ReportFormat::AnswersCsv => services.report_answers_csv(&auth, &scope, args.lang).await,
        ReportFormat::Json => services.report_json(&auth).await,
    }
    .map_err(|e| anyhow::anyhow!("the report could not be made: {e:?}"))?;
    std::fs::write(&args.out, &download.body)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", args.out.display()))?;
    println!("{} {}", download.sha256, args.out.display());
    Ok(())
}

/// Loads an organisation's JSON export into the configured database.
async fn import(config: &Config, file: &str) -> anyhow::Result<()> {
    let bytes = std::fs::read(file).map_err(|e| anyhow::anyhow!("cannot read {file}: {e}"))?;
    let s = services_on(config)
        .await?
        .import_export(&bytes)
        .await
        .map_err(|e| anyhow::anyhow!("{file}: {e}"))?;
    println!(
        "imported {} ({}): {} services, {} requests, {} incidents",
        s.slug, s.name, s.services, s.requests, s.incidents
    );
    if !s.imported.new_accounts.is_empty() {
        println!(
            "new accounts, without a password until they choose one with \"Forgot password\": {}",
            s.imported.new_accounts.join(", ")
        );
    }
    if !s.imported.existing_accounts.is_empty() {
        println!(
            "members who had an account here and keep it: {}",
            s.imported.existing_accounts.join(", ")
        );
    }
    Ok(())
}

/// Copies the SQLite database, consistently, while the server may run.
async fn backup(config: &Config, file: &str) -> anyhow::Result<()> {
    if !config.is_sqlite() {
        anyhow::bail!("aivet backup copies a SQLite database; on PostgreSQL use pg_dump (see README, \"Backups\")");
    }
    if std::path::Path::new(file).exists() {
        anyhow::bail!("{file} exists already; name a new file");
    }
    let store = aivet_store::sqlite::SqliteStore::open(&config.database_url).await?;
    store.backup_into(file).await?;
    println!("{file}");
    Ok(())
}

async fn migrate(config: &Config) -> anyhow::Result<()> {
    if config.is_sqlite() {
        std::fs::create_dir_all(&config.data_dir)?;
        aivet_store::sqlite::SqliteStore::open(&config.database_url).await?;
    } else {
        let admin = config
            .database_admin_url
            .as_deref()
            .ok_or_else(|| anyhow::anyhow!("set AIVET_DATABASE_ADMIN_URL to the schema owner's connection to migrate PostgreSQL"))?;
        let app_role = aivet_store::postgres::app_role(&config.database_url)?;
        aivet_store::postgres::migrate(admin, &app_role).await?;
    }
    println!("the database schema is up to date");
    Ok(())
}
