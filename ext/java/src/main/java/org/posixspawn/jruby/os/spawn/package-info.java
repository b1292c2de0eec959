/** A SpawnPlan carried out as one posix_spawn: redirect files, attributes, file actions, the FS thread and the rlimit gate, which step an error belongs to. Over lookup, libc. */
package org.posixspawn.jruby.os.spawn;
