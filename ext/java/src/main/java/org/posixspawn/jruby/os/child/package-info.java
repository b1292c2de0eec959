/** The reaper: one thread that waits for every child given to it (pidfds in epoll, else waitpid), and the children it owns. Over spawn, libc. */
package org.posixspawn.jruby.os.child;
