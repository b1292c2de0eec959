/**
 * The bridge: POSIX::Spawn::Native and POSIX::Spawn::Handle. Ruby values in ({@code plan} reads the
 * arguments), Ruby values out; the os packages do the work. One class per group of Native functions
 * (NativeMethods, CaptureMethods, HandleMethods, PopenMethods, PtyMethods, DescriptorMethods,
 * DiagnosticsMethods), shared helpers in RubyValues and Interrupts, every exception made in Errors. Never a
 * libc call of its own: of os/libc it uses only SpawnError, Fds, Features and Trace (ImportRulesTest).
 */
package org.posixspawn.jruby;
