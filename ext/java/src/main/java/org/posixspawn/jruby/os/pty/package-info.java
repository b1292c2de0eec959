/** Pseudo-terminals: a master and its slave, window sizes, reads that tell the hang-up from "nothing yet". Over libc. */
package org.posixspawn.jruby.os.pty;
