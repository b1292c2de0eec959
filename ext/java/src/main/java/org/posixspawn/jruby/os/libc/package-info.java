/**
 * The floor: the C library (LibC's calls bound by hand through jffi at once, the rest with jnr-ffi on first use), the constants of this
 * platform's profile, native memory with one owner (NativeBlock), close-on-exec pipes, poll sets, descriptor
 * calls (Fds), the optional calls (Features), the diagnostics' record (Trace) and the one error (SpawnError).
 * Imports only platform. Which native memory exists (per call, per run, per process) and who frees each: doc/native-memory.md.
 */
package org.posixspawn.jruby.os.libc;
