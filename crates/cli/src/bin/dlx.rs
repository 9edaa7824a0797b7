use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!("dlx: not built yet");
    ExitCode::from(2)
}
