//! OpenSSL's RSA signing speed, from `openssl speed -mr -seconds 1 rsaNNNN`.

use std::process::Command;

/// `openssl version`, or `None` when no `openssl` runs.
pub fn version() -> Option<String> {
    let out = Command::new("openssl").arg("version").output().ok()?;
    if !out.status.success() {
        return None;
    }
    let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (!v.is_empty()).then_some(v)
}

/// µs per RSA private operation (sign) of OpenSSL at `bits`: `1e6 / sign_per_s`.
pub fn sign_us(bits: usize) -> Result<f64, String> {
    let out = Command::new("openssl")
        .args(["speed", "-mr", "-seconds", "1", &format!("rsa{bits}")])
        .output()
        .map_err(|e| format!("cannot run openssl: {e}"))?;
    if !out.status.success() {
        return Err(format!("openssl speed exited with {}", out.status));
    }
    let per_s = parse_sign_per_s(&String::from_utf8_lossy(&out.stdout), bits)
        .ok_or("no +F2 line for this size in the output of openssl speed -mr")?;
    Ok(1e6 / per_s)
}

/// Signatures per second from the machine-readable `+F2:idx:bits:sign_per_s:verify_per_s`
/// line of `bits` bits (OpenSSL 1.1 and 3).
fn parse_sign_per_s(text: &str, bits: usize) -> Option<f64> {
    text.lines().find_map(|l| {
        let mut f = l.trim().strip_prefix("+F2:")?.split(':');
        let _idx = f.next()?;
        let b: usize = f.next()?.trim().parse().ok()?;
        let sign: f64 = f.next()?.trim().parse().ok()?;
        (b == bits && sign.is_finite() && sign > 0.0).then_some(sign)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_machine_readable_line() {
        let text = "+DTP:2048:private:rsa:1\n+R1:1000:2048:1.00\n+F2:1:1024:7733.333333:114902.000000\n+F2:2:2048:1000.5:30000\n";
        assert_eq!(parse_sign_per_s(text, 1024), Some(7733.333333));
        assert_eq!(parse_sign_per_s(text, 2048), Some(1000.5));
        assert_eq!(parse_sign_per_s(text, 4096), None);
        assert_eq!(parse_sign_per_s("+F2:0:512:0:0\n", 512), None);
    }
}
