//! PostgreSQL and Redis for the cluster tests: the ones `.ci/run` started (`TAKHTE_TEST_PG`,
//! `TAKHTE_TEST_REDIS`), or this test's own, started with `scripts/services.sh` in a scratch
//! folder and stopped when dropped. Tests that stop and start them always take their own.

use std::path::PathBuf;
use std::process::Command;

/// A PostgreSQL server and a Redis server.
pub struct Services {
    /// `postgres://USER@HOST:PORT` (no database).
    pg_base: String,
    /// `redis://HOST:PORT`.
    pub redis: String,
    /// This test's own services' folder, if they are its own.
    own: Option<tempfile::TempDir>,
}

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/services.sh")
}

impl Services {
    /// The shared services, or this test's own when none are set.
    pub fn shared() -> Services {
        match (
            std::env::var("TAKHTE_TEST_PG"),
            std::env::var("TAKHTE_TEST_REDIS"),
        ) {
            (Ok(pg), Ok(redis)) if !pg.is_empty() && !redis.is_empty() => Services {
                pg_base: pg
                    .rsplit_once('/')
                    .map(|(b, _)| b.to_string())
                    .unwrap_or(pg),
                redis,
                own: None,
            },
            _ => Services::own(),
        }
    }

    /// This test's own services.
    pub fn own() -> Services {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let out = Command::new("bash")
            .arg(script())
            .arg("start")
            .arg(dir.path())
            .output()
            .expect("scripts/services.sh runs");
        assert!(
            out.status.success(),
            "PostgreSQL and Redis did not start (apt-get install postgresql redis-server): {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let value = |name: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("export {name}=")))
                .unwrap_or_else(|| panic!("no {name} in {text}"))
                .to_string()
        };
        let pg = value("TAKHTE_TEST_PG");
        Services {
            pg_base: pg
                .rsplit_once('/')
                .map(|(b, _)| b.to_string())
                .unwrap_or(pg),
            redis: value("TAKHTE_TEST_REDIS"),
            own: Some(dir),
        }
    }

    /// A new, empty database; its URL.
    pub fn database(&self) -> String {
        let name = format!("takhte_{:016x}", rand::random::<u64>());
        let admin = format!("{}/postgres", self.pg_base);
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let (client, conn) = tokio_postgres::connect(&admin, tokio_postgres::NoTls)
                .await
                .expect("PostgreSQL answers");
            tokio::spawn(conn);
            client
                .batch_execute(&format!("CREATE DATABASE {name}"))
                .await
                .expect("a database is created");
        });
        format!("{}/{name}", self.pg_base)
    }

    fn control(&self, what: &str) {
        let dir = self
            .own
            .as_ref()
            .expect("only a test's own services are stopped");
        let ok = Command::new("bash")
            .arg(script())
            .arg(what)
            .arg(dir.path())
            .status()
            .expect("scripts/services.sh runs")
            .success();
        assert!(ok, "services.sh {what} failed");
    }

    /// Stops PostgreSQL.
    pub fn stop_pg(&self) {
        self.control("pg-stop");
    }

    /// Starts PostgreSQL again.
    pub fn start_pg(&self) {
        self.control("pg-start");
    }

    /// Stops Redis.
    pub fn stop_redis(&self) {
        self.control("redis-stop");
    }

    /// Starts Redis again.
    pub fn start_redis(&self) {
        self.control("redis-start");
    }
}

impl Drop for Services {
    fn drop(&mut self) {
        if let Some(dir) = &self.own {
            let _ = Command::new("bash")
                .arg(script())
                .arg("stop")
                .arg(dir.path())
                .status();
        }
    }
}
