//! The machine a report was measured on: CPU model, logical cores, OS, backends, OpenSSL.

use serde::Serialize;

use redc::mont::backend::cpu::CpuKind;
use redc::mont::backend::Backend;

/// Where the figures come from.
#[derive(Clone, Debug, Serialize)]
pub struct Machine {
    /// CPU model (`model name` of `/proc/cpuinfo`).
    pub cpu: String,
    /// `cpu family` of `/proc/cpuinfo` (x86), where it exists.
    pub cpu_family: Option<u32>,
    /// `model` of `/proc/cpuinfo` (x86), where it exists.
    pub cpu_model: Option<u32>,
    /// The CPU kind redc's kernels dispatch on (`redc::mont::backend::cpu::CpuKind`).
    pub cpu_kind: String,
    /// Logical cores.
    pub cores: usize,
    /// Operating system and kernel.
    pub os: String,
    /// Target architecture of this build.
    pub arch: String,
    /// The redc backends this CPU can run.
    pub backends: Vec<String>,
    /// The backend in force (`REDC_BACKEND` or the best available).
    pub active_backend: String,
    /// `openssl version`, when an `openssl` command was found and is used.
    pub openssl: Option<String>,
}

impl Machine {
    /// Reads `/proc/cpuinfo`, `/etc/os-release` and the kernel release (where they exist), and
    /// asks `openssl version` when `with_openssl`.
    pub fn detect(with_openssl: bool) -> Self {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo_field(&cpuinfo, "model name")
            .or_else(|| cpuinfo_field(&cpuinfo, "Hardware"))
            .or_else(|| cpuinfo_field(&cpuinfo, "cpu model"))
            .unwrap_or_else(|| "unknown CPU".to_string());
        let listed = cpuinfo
            .lines()
            .filter(|l| l.split(':').next().map(str::trim) == Some("processor"))
            .count();
        let cores = if listed > 0 {
            listed
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        };
        let number = |key: &str| cpuinfo_field(&cpuinfo, key).and_then(|v| v.parse().ok());
        Machine {
            cpu,
            cpu_family: number("cpu family"),
            cpu_model: number("model"),
            cpu_kind: CpuKind::current().name().to_string(),
            cores,
            os: os_name(),
            arch: std::env::consts::ARCH.to_string(),
            backends: Backend::available().map(|b| b.name().to_string()).collect(),
            active_backend: Backend::active()
                .map(|b| b.name().to_string())
                .unwrap_or_else(|e| format!("error: {e}")),
            openssl: if with_openssl {
                super::openssl::version()
            } else {
                None
            },
        }
    }

    /// The CPU in one phrase: `AMD EPYC (family 25 model 17, AMD Zen 4)`.
    pub fn cpu_line(&self) -> String {
        match (self.cpu_family, self.cpu_model) {
            (Some(f), Some(m)) => format!("{} (family {f} model {m}, {})", self.cpu, self.cpu_kind),
            _ => format!("{} ({})", self.cpu, self.cpu_kind),
        }
    }

    /// One line for the report: `AMD EPYC (family 25 model 17, AMD Zen 4), 2 logical cores,
    /// Debian 12 (Linux 6.1), x86_64`.
    pub fn summary(&self) -> String {
        format!(
            "{}, {} logical core{}, {}, {}",
            self.cpu_line(),
            self.cores,
            if self.cores == 1 { "" } else { "s" },
            self.os,
            self.arch
        )
    }
}

/// The value of the first `key : value` line of `/proc/cpuinfo`.
fn cpuinfo_field(cpuinfo: &str, key: &str) -> Option<String> {
    cpuinfo.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k.trim() == key && !v.trim().is_empty()).then(|| v.trim().to_string())
    })
}

/// `PRETTY_NAME` of `/etc/os-release` and the kernel release, else the target OS.
fn os_name() -> String {
    let pretty = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|t| {
            t.lines().find_map(|l| {
                l.strip_prefix("PRETTY_NAME=")
                    .map(|v| v.trim_matches('"').to_string())
            })
        })
        .unwrap_or_else(|| std::env::consts::OS.to_string());
    match std::fs::read_to_string("/proc/sys/kernel/osrelease") {
        Ok(k) if !k.trim().is_empty() => format!("{pretty} (Linux {})", k.trim()),
        _ => pretty,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cpuinfo_fields() {
        let text = "processor\t: 0\nmodel name\t: Some CPU @ 3GHz\nprocessor\t: 1\n";
        assert_eq!(
            cpuinfo_field(text, "model name").as_deref(),
            Some("Some CPU @ 3GHz")
        );
        assert_eq!(cpuinfo_field(text, "Hardware"), None);
    }

    #[test]
    fn the_cpu_line_names_family_model_and_kind() {
        let mut m = Machine::detect(false);
        m.cpu = "AMD EPYC".into();
        m.cpu_kind = "AMD Zen 4".into();
        m.cpu_family = Some(25);
        m.cpu_model = Some(17);
        assert_eq!(m.cpu_line(), "AMD EPYC (family 25 model 17, AMD Zen 4)");
        m.cpu_model = None;
        assert_eq!(m.cpu_line(), "AMD EPYC (AMD Zen 4)");
        assert!(m.summary().starts_with("AMD EPYC (AMD Zen 4), "));
    }
}
