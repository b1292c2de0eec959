package org.posixspawn.jruby;

import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyException;
import org.jruby.RubyProcess;
import org.jruby.RubyString;
import org.jruby.exceptions.RaiseException;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.util.ByteList;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.plan.PathName;

/** The one place where the platform layer's {@link SpawnError} becomes a Ruby exception: every Errno the bridge raises is made here. */
final class Errors {
    /** MRI's exit status of a forked child whose exec (or a step before it) failed: rb_exec_fail's 127. */
    private static final int EXEC_FAILED = 127 << 8;

    private Errors() {}

    /** A call into the platform layer. */
    interface Call<T> {
        T call() throws SpawnError;
    }

    /** Runs {@code call}, turning its error into the Ruby exception. */
    static <T> T call(ThreadContext context, Call<T> call) {
        try {
            return call.call();
        } catch (SpawnError error) {
            throw toRuby(context, error);
        }
    }

    /**
     * The Ruby exception for {@code error}. A failure MRI would see in its forked child also sets $? to exit
     * 127, as MRI's does; that child had a pid, ours never existed, so the status has pid 0 (as JRuby's Kernel#system's).
     */
    static RaiseException toRuby(ThreadContext context, SpawnError error) {
        return toRuby(context, error, error.culprit);
    }

    /** The same, naming {@code culprit} instead of the error's own (Kernel#system with exception: true names the command). */
    static RaiseException toRuby(ThreadContext context, SpawnError error, PathName culprit) {
        Ruby runtime = context.runtime;
        if (error.inChild) context.setLastExitStatus(RubyProcess.RubyStatus.newProcessStatus(runtime, EXEC_FAILED, 0));
        switch (error.kind) {
            case UNSUPPORTED: return runtime.newNotImplementedError(error.getMessage());
            case NO_MEMORY: return runtime.newRaiseException(runtime.getNoMemoryError(), error.getMessage());
            default: return errno(context, error.errno, culprit);
        }
    }

    /** Errno::X with MRI's message for a call on no path or name (select, read, write): strerror alone. */
    static RaiseException errno(ThreadContext context, int errno) {
        RubyClass errnoClass = context.runtime.getErrno(errno);
        if (errnoClass == null) return context.runtime.newErrnoFromInt(errno); // an errno Ruby has no class for
        return ((RubyException) errnoClass.newInstance(context, Block.NULL_BLOCK)).toThrowable();
    }

    /**
     * Errno::X with MRI's message, "strerror - culprit", in the culprit's own bytes and encoding (JRuby's
     * SystemCallError would decode them as UTF-8).
     */
    private static RaiseException errno(ThreadContext context, int errno, PathName culprit) {
        Ruby runtime = context.runtime;
        RubyClass errnoClass = runtime.getErrno(errno);
        if (errnoClass == null) return runtime.newErrnoFromInt(errno, culprit.toString()); // an errno Ruby has no class for
        RubyException exception = (RubyException) errnoClass.newInstance(context, Block.NULL_BLOCK);
        RubyString name = RubyValues.string(runtime, culprit);
        ByteList text = exception.message(context).convertToString().getByteList().dup();
        text.append(new byte[] {' ', '-', ' '});
        text.append(name.getByteList());
        text.setEncoding(name.getEncoding());
        exception.setMessage(RubyString.newString(runtime, text));
        return exception.toThrowable();
    }
}
