/** Each OS's profile: constants with the header each was read from, struct sizes, and the Strategy for every concern. Imports nothing of the project. */
package org.posixspawn.jruby.os.platform;
