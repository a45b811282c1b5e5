//! Where the store's files live: the device's file system (native), or the browser's storage
//! (wasm32), behind the same few calls. The browser keeps each "file" as one `localStorage`
//! item under its path; writing an item replaces it whole (the browser's own atomic step), and
//! a full or refused storage is an error like a full disk, the old item left as it was.

use std::io;
use std::path::{Path, PathBuf};

use crate::StoreError;

/// One file of a folder, as [`list`] gives it.
pub(crate) struct Entry {
    /// The file's name.
    pub name: String,
    /// Its path.
    pub path: PathBuf,
    /// When it was last written (seconds since the epoch; 0 when unknown).
    pub modified_unix: u64,
    /// Whether it is a folder (skipped by the callers).
    pub is_dir: bool,
}

#[cfg(not(target_arch = "wasm32"))]
pub(crate) use native::*;
#[cfg(target_arch = "wasm32")]
pub(crate) use web::*;

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::*;
    use std::fs;

    pub(crate) fn read(path: &Path) -> io::Result<Vec<u8>> {
        fs::read(path)
    }

    pub(crate) fn remove_file(path: &Path) -> io::Result<()> {
        fs::remove_file(path)
    }

    pub(crate) fn create_dir_all(path: &Path) -> io::Result<()> {
        fs::create_dir_all(path)
    }

    pub(crate) fn is_dir(path: &Path) -> bool {
        path.is_dir()
    }

    /// Whether anything (a file, a folder, a dangling link) has this path.
    pub(crate) fn exists(path: &Path) -> bool {
        fs::symlink_metadata(path).is_ok()
    }

    pub(crate) fn list(dir: &Path) -> io::Result<Vec<Entry>> {
        let mut out = Vec::new();
        for entry in fs::read_dir(dir)?.flatten() {
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            let path = entry.path();
            let (modified_unix, is_dir) = match fs::metadata(&path) {
                Ok(meta) => (
                    meta.modified().map(crate::unix_seconds).unwrap_or(0),
                    meta.is_dir(),
                ),
                Err(_) => (0, false),
            };
            out.push(Entry {
                name,
                path,
                modified_unix,
                is_dir,
            });
        }
        Ok(out)
    }

    pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
        crate::atomic::write_atomic(path, bytes)
    }

    pub(crate) fn remove_temp_files(folder: &Path) -> usize {
        crate::atomic::remove_temp_files(folder)
    }
}

#[cfg(target_arch = "wasm32")]
mod web {
    use super::*;

    /// The page's `localStorage`, or why there is none (storage turned off, a private window
    /// that refuses it).
    fn storage() -> io::Result<web_sys::Storage> {
        let refused = || io::Error::other("the browser refuses this site its storage");
        web_sys::window()
            .ok_or_else(refused)?
            .local_storage()
            .map_err(|_| refused())?
            .ok_or_else(refused)
    }

    fn key(path: &Path) -> String {
        format!("takhte:{}", path.display())
    }

    pub(crate) fn read(path: &Path) -> io::Result<Vec<u8>> {
        match storage()?.get_item(&key(path)) {
            Ok(Some(text)) => Ok(text.into_bytes()),
            Ok(None) => Err(io::Error::from(io::ErrorKind::NotFound)),
            Err(_) => Err(io::Error::other("the browser refused to read its storage")),
        }
    }

    pub(crate) fn remove_file(path: &Path) -> io::Result<()> {
        let s = storage()?;
        let k = key(path);
        if matches!(s.get_item(&k), Ok(None)) {
            return Err(io::Error::from(io::ErrorKind::NotFound));
        }
        s.remove_item(&k)
            .map_err(|_| io::Error::other("the browser refused to change its storage"))
    }

    /// Folders need no making in the browser's storage; its absence is the error.
    pub(crate) fn create_dir_all(_: &Path) -> io::Result<()> {
        storage().map(|_| ())
    }

    pub(crate) fn is_dir(_: &Path) -> bool {
        true
    }

    pub(crate) fn exists(path: &Path) -> bool {
        matches!(storage().map(|s| s.get_item(&key(path))), Ok(Ok(Some(_))))
    }

    pub(crate) fn list(dir: &Path) -> io::Result<Vec<Entry>> {
        let s = storage()?;
        let prefix = format!("{}/", key(dir));
        let n = s.length().unwrap_or(0);
        let mut out = Vec::new();
        for i in 0..n {
            let Ok(Some(k)) = s.key(i) else { continue };
            let Some(name) = k.strip_prefix(&prefix) else {
                continue;
            };
            if name.contains('/') {
                continue;
            }
            out.push(Entry {
                name: name.to_string(),
                path: dir.join(name),
                modified_unix: 0,
                is_dir: false,
            });
        }
        Ok(out)
    }

    /// Replaces the item whole; a full storage (QuotaExceededError) or a refused one leaves
    /// the old item and is a write error like a full disk.
    pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
        let fail = |message: String| StoreError::Write {
            path: path.to_path_buf(),
            message,
        };
        let text = std::str::from_utf8(bytes).map_err(|e| fail(format!("not text: {e}")))?;
        let s = storage().map_err(|e| fail(e.to_string()))?;
        s.set_item(&key(path), text).map_err(|e| {
            let name = js_sys::Reflect::get(&e, &"name".into())
                .ok()
                .and_then(|n| n.as_string())
                .unwrap_or_default();
            if name.contains("Quota") {
                fail("the browser's storage for this site is full".into())
            } else {
                fail(format!("the browser refused to store it ({name})"))
            }
        })
    }

    pub(crate) fn remove_temp_files(_: &Path) -> usize {
        0
    }
}
