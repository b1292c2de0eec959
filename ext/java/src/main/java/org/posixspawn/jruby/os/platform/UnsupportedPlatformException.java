package org.posixspawn.jruby.os.platform;

/** This OS, CPU or JVM has no profile; the Ruby layer raises it as NotImplementedError, naming the platform. */
public final class UnsupportedPlatformException extends UnsupportedOperationException {
    private static final long serialVersionUID = 1L;

    public UnsupportedPlatformException(String message) {
        super(message);
    }
}
