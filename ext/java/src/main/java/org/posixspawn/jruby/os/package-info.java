/**
 * The platform layer: no org.jruby (ImportRulesTest). Packages in layers, each importing only the ones
 * below it: capture (a child's output through one poll loop), child (the reaper), spawn (a plan into one
 * posix_spawn), lookup (PATH, and the cache of its answers) and pty, libc (the bound calls, constants,
 * native memory, pipes, poll sets, the one SpawnError), platform (each OS's profile).
 */
package org.posixspawn.jruby.os;
