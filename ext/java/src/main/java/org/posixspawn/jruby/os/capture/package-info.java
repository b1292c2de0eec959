/** A child run to its end with its output captured, and the pipes of a popen or a Handle read, on one poll loop. Over child, spawn, libc. */
package org.posixspawn.jruby.os.capture;
