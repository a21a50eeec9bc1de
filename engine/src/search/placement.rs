//! Where a new search thread starts running: not on the core of the thread that started it.
//!
//! Linux queues a new thread on its parent's core and moves it to an idle core only when the
//! load balancer next runs, milliseconds later: in a short search the helper waited behind
//! thread 0 for that long and then shared its core until it was moved, and the second thread
//! bought little (docs/results/ has the figures). So thread 0 notes
//! its core before it spawns the helpers and yields once afterwards, and each helper's first
//! act is to leave that core: it narrows its allowed CPUs to the others, which makes the kernel
//! move it at once, and then restores its mask, so the system stays free to place it later.
//! Nothing is pinned. Elsewhere than Linux both calls do nothing.
//!
//! One more thing the system decides for the threads: the address space a memory limit leaves
//! them ([`address_room`]).

/// The CPU the calling thread runs on now; `None` where the system does not tell.
pub fn current_cpu() -> Option<usize> {
    imp::current_cpu()
}

/// Moves the calling thread off `cpu`, if it is there and another CPU is allowed to it; its
/// allowed CPUs are the same afterwards. Returns the CPU it was moved to (`None`: not moved).
/// Failures are ignored: placement is an optimisation.
pub fn leave_cpu(cpu: usize) -> Option<usize> {
    imp::leave_cpu(cpu)
}

/// The address space this process may still map under its memory limit (`ulimit -v`,
/// `RLIMIT_AS`), in bytes; `None` when there is no limit or the system does not tell.
pub fn address_room() -> Option<usize> {
    imp::address_room()
}

#[cfg(target_os = "linux")]
mod imp {
    use nix::sched::{sched_getaffinity, sched_getcpu, sched_setaffinity, CpuSet};
    use nix::unistd::Pid;

    pub fn current_cpu() -> Option<usize> {
        sched_getcpu().ok()
    }

    pub fn leave_cpu(cpu: usize) -> Option<usize> {
        // Pid 0: the calling thread (not the whole process).
        let me = Pid::from_raw(0);
        if current_cpu() != Some(cpu) {
            return None;
        }
        let allowed = sched_getaffinity(me).ok()?;
        let mut others = allowed;
        others.unset(cpu).ok()?;
        if !(0..CpuSet::count()).any(|c| others.is_set(c).unwrap_or(false)) {
            return None;
        }
        sched_setaffinity(me, &others).ok()?;
        // The kernel moved the thread before the call returned.
        let now = current_cpu();
        let _ = sched_setaffinity(me, &allowed);
        now
    }

    pub fn address_room() -> Option<usize> {
        use nix::sys::resource::{getrlimit, Resource, RLIM_INFINITY};
        let (soft, _) = getrlimit(Resource::RLIMIT_AS).ok()?;
        if soft == RLIM_INFINITY {
            return None;
        }
        // The address space mapped now: `VmSize` of /proc/self/status, in kB.
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmSize:"))?
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        usize::try_from(soft.saturating_sub(kb.saturating_mul(1024))).ok()
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub fn current_cpu() -> Option<usize> {
        None
    }

    pub fn leave_cpu(_cpu: usize) -> Option<usize> {
        None
    }

    pub fn address_room() -> Option<usize> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaving_a_cpu_keeps_the_allowed_set_and_lands_elsewhere() {
        let Some(cpu) = current_cpu() else {
            return;
        };
        let allowed = std::thread::available_parallelism().map_or(1, |n| n.get());
        let moved = leave_cpu(cpu);
        assert_eq!(
            std::thread::available_parallelism().map_or(1, |n| n.get()),
            allowed,
            "the allowed CPUs are restored"
        );
        if allowed > 1 {
            // The scheduler may have moved the thread between `current_cpu` and the call.
            if let Some(to) = moved {
                assert_ne!(to, cpu);
            }
        } else {
            assert_eq!(moved, None, "with one CPU there is nowhere to go");
        }
    }
}
