fn main() -> std::process::ExitCode {
    backend::commands::cli::main()
}
