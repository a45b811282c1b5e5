//! Compiles the Slint UI (with debug info, so tests can find elements by accessible label).

fn main() {
    let config = slint_build::CompilerConfiguration::new().with_debug_info(true);
    slint_build::compile_with_config("ui/main.slint", config).expect("the Slint UI compiles");
    println!("cargo:rerun-if-changed=ui");
}
