/** A command found on PATH in the parent, as MRI finds it, and (Linux) the answer kept while inotify sees nothing change. Over libc. */
package org.posixspawn.jruby.os.lookup;
