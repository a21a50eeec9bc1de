//! CPU time, for the lab programs: figures that do not depend on how busy the machine is.

use std::time::Duration;

/// Time this thread has spent on a CPU (Linux); zero elsewhere.
pub fn thread_cpu_time() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map(Duration::from_nanos)
        .unwrap_or_default()
}
