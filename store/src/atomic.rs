//! Atomic file replacement: the old file stays whole until the new one is complete on disk.
//!
//! The new bytes go to a temporary file in the same folder, named `.<name>.tmp-<pid>-<counter>`,
//! which is written, flushed to disk (`sync_all`) and then renamed over the target; on Unix the
//! folder is synced too so the rename itself survives a power cut. A crash leaves at worst a
//! temporary file behind, which [`is_temp_name`] recognises and [`remove_temp_files`] clears.

use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::error::StoreError;

/// Numbers the temporary files of this process so two writes never share one.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Where a write is made to fail, for tests of the failure paths.
#[cfg(test)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum FailAt {
    /// After part of the bytes went into the temporary file (a full disk).
    Write,
    /// Just before the rename.
    Rename,
}

/// Replaces `path` with `bytes` atomically. On failure the old file (if any) is unchanged, the
/// temporary file is removed, and the error names `path` and the step that failed.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    write_inner(path, bytes, None)
}

#[cfg(test)]
pub(crate) fn write_failing(path: &Path, bytes: &[u8], fail_at: FailAt) -> Result<(), StoreError> {
    write_inner(path, bytes, Some(fail_at))
}

#[cfg(test)]
type Fault = Option<FailAt>;
#[cfg(not(test))]
type Fault = Option<std::convert::Infallible>;

fn write_inner(path: &Path, bytes: &[u8], fault: Fault) -> Result<(), StoreError> {
    let fail = |step: &str, error: io::Error| StoreError::Write {
        path: path.to_path_buf(),
        message: format!("{step}: {error}"),
    };
    let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(fail(
            "no folder or file name",
            io::Error::from(io::ErrorKind::InvalidInput),
        ));
    };
    // The folder may have been removed behind our back; bring it back rather than fail.
    if !folder.as_os_str().is_empty() && !folder.is_dir() {
        fs::create_dir_all(folder).map_err(|e| fail("cannot create the folder", e))?;
    }
    let temp = temp_path(folder, name);
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .map_err(|e| fail("cannot create a temporary file", e))?;
    let written = write_and_sync(&mut file, bytes, fault);
    drop(file);
    let result = written
        .map_err(|e| fail("cannot write the temporary file", e))
        .and_then(|()| {
            #[cfg(test)]
            if fault == Some(FailAt::Rename) {
                return Err(fail(
                    "cannot replace the old file",
                    io::Error::other("simulated failure"),
                ));
            }
            fs::rename(&temp, path).map_err(|e| fail("cannot replace the old file", e))
        });
    match result {
        Ok(()) => {
            sync_folder(folder);
            Ok(())
        }
        Err(error) => {
            let _ = fs::remove_file(&temp);
            Err(error)
        }
    }
}

fn write_and_sync(file: &mut File, bytes: &[u8], fault: Fault) -> io::Result<()> {
    #[cfg(test)]
    if fault == Some(FailAt::Write) {
        file.write_all(&bytes[..bytes.len() / 2])?;
        return Err(io::Error::other("simulated full disk"));
    }
    #[cfg(not(test))]
    let _ = fault;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Makes a finished rename durable: on Unix a folder can be opened and synced; elsewhere (and if
/// that fails) there is nothing more to do, the data itself is already on disk.
fn sync_folder(folder: &Path) {
    #[cfg(unix)]
    if let Ok(dir) = File::open(if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    }) {
        let _ = dir.sync_all();
    }
    #[cfg(not(unix))]
    let _ = folder;
}

fn temp_path(folder: &Path, name: &OsStr) -> PathBuf {
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut temp = std::ffi::OsString::from(".");
    temp.push(name);
    temp.push(format!(".tmp-{}-{count}", std::process::id()));
    folder.join(temp)
}

/// Whether a file name is one of our temporary files (`.<name>.tmp-<pid>-<counter>`), and if so
/// the pid of the process that made it.
pub(crate) fn temp_file_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?;
    let (_, tail) = rest.rsplit_once(".tmp-")?;
    let (pid, counter) = tail.split_once('-')?;
    counter.parse::<u64>().ok()?;
    pid.parse().ok()
}

/// Whether a file name is one of our temporary files.
pub(crate) fn is_temp_name(name: &str) -> bool {
    temp_file_pid(name).is_some()
}

/// Removes the temporary files left in `folder` by earlier processes (a crash mid-write) and
/// returns how many went. Files of this process are kept: a write may be under way in another
/// thread. Failures are ignored: a leftover file is harmless, only untidy.
pub(crate) fn remove_temp_files(folder: &Path) -> usize {
    let Ok(entries) = fs::read_dir(folder) else {
        return 0;
    };
    let me = std::process::id();
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temp_file_pid) else {
            continue;
        };
        let is_file = entry.file_type().map(|t| t.is_file()).unwrap_or(false);
        if pid != me && is_file && fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let path = dir.join("a.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(names(dir), ["a.json"]);
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_cleans_up() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let path = dir.join("a.json");
        write_atomic(&path, b"old contents").unwrap();
        for fail_at in [FailAt::Write, FailAt::Rename] {
            let error = write_failing(&path, b"new contents, longer", fail_at).unwrap_err();
            match &error {
                StoreError::Write { path: p, message } => {
                    assert_eq!(p, &path);
                    assert!(message.contains("simulated"), "{message}");
                }
                other => panic!("expected a write error, got {other:?}"),
            }
            assert_eq!(fs::read(&path).unwrap(), b"old contents");
            assert_eq!(names(dir), ["a.json"], "{fail_at:?}");
        }
    }

    #[test]
    fn recognises_temporary_names() {
        assert_eq!(temp_file_pid(".20261201-1.json.tmp-4242-7"), Some(4242));
        assert_eq!(temp_file_pid(".settings.json.tmp-1-0"), Some(1));
        assert!(!is_temp_name("settings.json"));
        assert!(!is_temp_name(".hidden"));
        assert!(!is_temp_name(".a.json.tmp-x-1"));
        assert!(!is_temp_name("a.json.tmp-1-1"));
    }

    #[test]
    fn removes_only_other_processes_temporaries() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        fs::write(dir.join(".a.json.tmp-0-3"), b"half").unwrap();
        let mine = format!(".b.json.tmp-{}-9", std::process::id());
        fs::write(dir.join(&mine), b"in flight").unwrap();
        fs::write(dir.join("a.json"), b"{}").unwrap();
        assert_eq!(remove_temp_files(dir), 1);
        assert_eq!(names(dir), [mine.as_str(), "a.json"]);
    }
}
