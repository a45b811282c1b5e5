//! What the Android app does that the desktop does not, as plain logic that also runs (and is
//! tested) on the desktop: where data lives, what the back button does, and saving when Android
//! pauses or stops the app. `android_main` in `lib.rs` only connects these to Slint's Android
//! backend.

use std::path::PathBuf;

pub use crate::ui::back::{back_action, BackAction};

/// The invite link the app was opened with, from the data of the intent that started it
/// (`takhte://join/CODE`, the link the manifest's intent filter takes), or None for a plain
/// launch or any other data. A link with a bad code is still returned: joining it shows the
/// code's error on the online screen, as a typed code would.
///
/// ```
/// use takhte::android::invite_link;
/// assert_eq!(invite_link(Some("takhte://join/K7M3QX")).as_deref(), Some("takhte://join/K7M3QX"));
/// assert_eq!(invite_link(Some(" TAKHTE://join/k7m3qx ")).as_deref(), Some("TAKHTE://join/k7m3qx"));
/// assert_eq!(invite_link(None), None);
/// assert_eq!(invite_link(Some("https://example.org/")), None);
/// ```
pub fn invite_link(intent_data: Option<&str>) -> Option<String> {
    let data = intent_data?.trim();
    let prefix = crate::net::code::LINK_PREFIX;
    let head = data.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| data.to_string())
}

/// The data string of the intent that started the activity (`getIntent().getDataString()`),
/// through JNI. `vm` and `activity` are `AndroidApp::vm_as_ptr` and `activity_as_ptr`; any JNI
/// failure (a Java exception is caught by `jni`) is None: the app then starts as usual.
#[cfg(target_os = "android")]
pub fn launch_intent_data(
    vm: *mut std::ffi::c_void,
    activity: *mut std::ffi::c_void,
) -> Option<String> {
    use jni::objects::{JObject, JString};
    use jni::{jni_sig, jni_str};
    if vm.is_null() || activity.is_null() {
        return None;
    }
    // SAFETY: `vm` is the process's JavaVM (never destroyed while the app runs).
    let vm = unsafe { jni::JavaVM::from_raw(vm.cast()) };
    let raw = activity as jni::sys::jobject;
    vm.attach_current_thread(|env| -> jni::errors::Result<Option<String>> {
        // SAFETY: the activity's global reference is valid while the AndroidApp lives (for the
        // whole of android_main); a cast does not delete it.
        let activity = unsafe { env.as_cast_raw::<JObject>(&raw)? };
        let intent = env
            .call_method(
                &*activity,
                jni_str!("getIntent"),
                jni_sig!("()Landroid/content/Intent;"),
                &[],
            )?
            .l()?;
        if intent.is_null() {
            return Ok(None);
        }
        let data = env
            .call_method(
                &intent,
                jni_str!("getDataString"),
                jni_sig!("()Ljava/lang/String;"),
                &[],
            )?
            .l()?;
        if data.is_null() {
            return Ok(None);
        }
        let text: JString = env.cast_local::<JString>(data)?;
        Ok(Some(text.try_to_string(env)?))
    })
    .ok()
    .flatten()
}

/// Opens Android's share menu (a chooser titled `title`) with `text` as plain text, as
/// `startActivity(Intent.createChooser(new Intent(ACTION_SEND) {type text/plain, EXTRA_TEXT},
/// title))`. False when it could not (any JNI failure; the Java exception is caught).
#[cfg(target_os = "android")]
pub fn send_text(
    vm: *mut std::ffi::c_void,
    activity: *mut std::ffi::c_void,
    title: &str,
    text: &str,
) -> bool {
    use jni::objects::{JObject, JValue};
    use jni::{jni_sig, jni_str};
    if vm.is_null() || activity.is_null() {
        return false;
    }
    // SAFETY: as in `launch_intent_data`.
    let vm = unsafe { jni::JavaVM::from_raw(vm.cast()) };
    let raw = activity as jni::sys::jobject;
    vm.attach_current_thread(|env| -> jni::errors::Result<()> {
        // SAFETY: as in `launch_intent_data`.
        let activity = unsafe { env.as_cast_raw::<JObject>(&raw)? };
        let action = env.new_string("android.intent.action.SEND")?;
        let intent = env.new_object(
            jni_str!("android/content/Intent"),
            jni_sig!("(Ljava/lang/String;)V"),
            &[JValue::Object(&action)],
        )?;
        let mime = env.new_string("text/plain")?;
        env.call_method(
            &intent,
            jni_str!("setType"),
            jni_sig!("(Ljava/lang/String;)Landroid/content/Intent;"),
            &[JValue::Object(&mime)],
        )?;
        let extra = env.new_string("android.intent.extra.TEXT")?;
        let body = env.new_string(text)?;
        env.call_method(
            &intent,
            jni_str!("putExtra"),
            jni_sig!("(Ljava/lang/String;Ljava/lang/String;)Landroid/content/Intent;"),
            &[JValue::Object(&extra), JValue::Object(&body)],
        )?;
        let heading = env.new_string(title)?;
        let chooser = env
            .call_static_method(
                jni_str!("android/content/Intent"),
                jni_str!("createChooser"),
                jni_sig!(
                    "(Landroid/content/Intent;Ljava/lang/CharSequence;)Landroid/content/Intent;"
                ),
                &[JValue::Object(&intent), JValue::Object(&heading)],
            )?
            .l()?;
        env.call_method(
            &*activity,
            jni_str!("startActivity"),
            jni_sig!("(Landroid/content/Intent;)V"),
            &[JValue::Object(&chooser)],
        )?;
        Ok(())
    })
    .is_ok()
}

/// The data folder on Android: `TAKHTE_DATA_DIR` if set, else the app's internal data path
/// (what `AndroidApp::internal_data_path` returns), else the desktop default.
pub fn data_dir(internal_data_path: Option<PathBuf>) -> PathBuf {
    crate::store::Store::default_dir(internal_data_path)
}

/// An Android lifecycle event the app reacts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lifecycle {
    /// The app lost the foreground (`MainEvent::Pause`).
    Pause,
    /// Android asks the app to save its state (`MainEvent::SaveState`).
    SaveState,
    /// The app is stopped; it may be killed next (`MainEvent::Stop`).
    Stop,
    /// The app is back in the foreground (`MainEvent::Resume`).
    Resume,
}

/// Reacts to a lifecycle event: pausing, saving or stopping saves the game and stops the
/// clock; resuming starts the clock again.
pub fn on_lifecycle(state: &mut crate::ui::AppState, event: Lifecycle) {
    match event {
        Lifecycle::Pause | Lifecycle::SaveState | Lifecycle::Stop => state.pause(),
        Lifecycle::Resume => state.resume_app(),
    }
}
