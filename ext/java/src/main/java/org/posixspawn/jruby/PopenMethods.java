package org.posixspawn.jruby;

import java.util.Arrays;

import org.jcodings.Encoding;
import org.jruby.RubyArray;
import org.jruby.RubyEncoding;
import org.jruby.RubyHash;
import org.jruby.RubyFixnum;
import org.jruby.RubyIO;
import org.jruby.RubyModule;
import org.jruby.RubyString;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.ByteList;
import org.jruby.util.io.OpenFile;
import org.posixspawn.jruby.os.capture.Capture;
import org.posixspawn.jruby.os.libc.Fds;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.os.spawn.Spawner;
import org.posixspawn.jruby.plan.SpawnPlan;
import org.posixspawn.jruby.plan.RealDescriptors;

/** POSIX::Spawn::Native's primitives for the pipes of the drop-in's IO.popen and ` (lib/posix/spawn/kernel/popen.rb). */
public final class PopenMethods implements BoundMethod.Group {
    PopenMethods() {} // made by its Table, at the first call

    /** These methods' names and arities ({@link BoundMethod.Table}). */
    static final class Table extends BoundMethod.Table {
        @Override
        void defineAll(RubyModule target) {
            define(target, "popen_spawn", 2, BoundMethod.REST);
            define(target, "popen_read", 3, 0);
            define(target, "tie_for_writing", 3, 0);
            define(target, "enlarge_pipe", 1, 0);
            define(target, "read_all", 1, 1);
        }

        @Override
        BoundMethod.Group create() {
            return new PopenMethods();
        }
    }

    @Override
    public IRubyObject call(String name, ThreadContext context, IRubyObject self, IRubyObject[] args, Block block) {
        switch (name) {
            case "popen_spawn": return popen_spawn(context, self, args);
            case "popen_read": return popen_read(context, self, args[0], args[1], args[2]);
            case "tie_for_writing": return tie_for_writing(context, self, args[0], args[1], args[2]);
            case "enlarge_pipe": return enlarge_pipe(context, self, args[0]);
            case "read_all": return read_all(context, self, args);
            default: throw new AssertionError(name);
        }
    }

    /**
     * Native.popen_spawn(env, command... [,options]) -> pid: Native.spawn for IO.popen(env, cmd): env replaces
     * the command's own env Hash for the child, and the program is looked up without it, on the parent's
     * PATH (or the command's env Hash's), as MRI's popen does (issue #28).
     */
    public static IRubyObject popen_spawn(ThreadContext context, IRubyObject self, IRubyObject[] args) {
        SpawnPlan plan = Plans.parseForPopen(context, Arrays.copyOfRange(args, 1, args.length), args[0]);
        try { // not Errors.call, as Native.spawn: its lambda's bootstrap would be part of the first popen
            return RubyFixnum.newFixnum(context.runtime, Spawner.spawn(plan));
        } catch (SpawnError error) {
            throw Errors.toRuby(context, error);
        }
    }

    /**
     * Native.popen_read(klass, command, mixin) -> io: IO.popen(cmd) in its common form (mode "r", no env Hash,
     * no options) in one call: a pipe of klass instances, the read end enlarged, `command` (Native.spawn's
     * arguments, an Array) spawned with the write end as its stdout, that end closed, the read end extended
     * with mixin and given the pid (@__posix_spawn_pid). Taken one Ruby call at a time, as popen.rb takes the
     * other forms, the same steps cost some 50 µs more of a 750 µs popen of `true`. What the pipe or the spawn
     * raises is raised with both ends closed.
     */
    public static IRubyObject popen_read(ThreadContext context, IRubyObject self, IRubyObject klass, IRubyObject command, IRubyObject mixin) {
        RubyArray<?> pipe = (RubyArray<?>) DescriptorMethods.pipe(context, self, klass);
        RubyIO reader = (RubyIO) pipe.eltOk(0), writer = (RubyIO) pipe.eltOk(1);
        IRubyObject pid;
        try {
            Fds.enlargePipe(RealDescriptors.of(reader));
            RubyHash stdout = RubyHash.newHash(context.runtime);
            stdout.op_aset(context, RubyArray.newArray(context.runtime, RubyFixnum.one(context.runtime)), writer);
            IRubyObject[] words = ((RubyArray<?>) command).toJavaArray();
            IRubyObject[] args = Arrays.copyOf(words, words.length + 1);
            args[words.length] = stdout;
            pid = NativeMethods.spawn(context, self, args);
        } catch (RuntimeException | Error e) {
            reader.callMethod(context, "close");
            throw e;
        } finally {
            writer.callMethod(context, "close");
        }
        reader.callMethod(context, "extend", mixin);
        reader.setInstanceVariable("@__posix_spawn_pid", pid);
        return reader;
    }

    /**
     * Native.tie_for_writing(reader, writer, pid) -> reader: reader becomes one duplex IO that reads from
     * its own descriptor and writes to writer's, whose close_write closes writer alone and whose close
     * closes both. JRuby's IO has no public way to build one; this is what its own popen does. The child's
     * pid is recorded in reader's OpenFile: JRuby's close_read moves it to the write side with getPid(),
     * which without a java.lang.Process would fail (NullPointerException); JRuby's close reads it only
     * with a Process, so nothing waits for the child but the drop-in's close.
     */
    // MRI: pipe_open (io.c), the FMODE_DUPLEX ports with tied_io_for_writing = write_port and fptr->pid = pid
    public static IRubyObject tie_for_writing(ThreadContext context, IRubyObject self, IRubyObject reader, IRubyObject writer, IRubyObject pid) {
        OpenFile read = RubyValues.toIO(context, reader).getOpenFileChecked();
        OpenFile write = RubyValues.toIO(context, writer).getOpenFileChecked();
        write.setMode(write.getMode() | OpenFile.SYNC | OpenFile.DUPLEX); // MRI's too: close_read twice is no error
        read.setMode(read.getMode() | OpenFile.DUPLEX | OpenFile.SYNC);
        read.setPid(pid.convertToInteger().getLongValue());
        read.tiedIOForWriting = (RubyIO) writer;
        return reader;
    }

    /**
     * Native.enlarge_pipe(io) -> io: asks Linux for a 1 MiB pipe behind io (F_SETPIPE_SZ), so a large output
     * arrives in 1 MiB reads instead of 64 KiB ones. Best effort: elsewhere, or when refused, nothing changes.
     */
    public static IRubyObject enlarge_pipe(ThreadContext context, IRubyObject self, IRubyObject io) {
        Fds.enlargePipe(RealDescriptors.of(RubyValues.toIO(context, io)));
        return io;
    }

    /**
     * Native.read_all(io, as_text = false) -> a String of everything left in io's pipe, to its end: binary,
     * or with as_text in what IO#read gives it (io's external encoding, default_external when it has none);
     * nil when JRuby's own read must do it (bytes already in io's buffer, io not open for reading, or with
     * as_text an internal encoding to transcode to). Child's poll loop
     * (os/capture/Capture) reads a duplicate of the descriptor straight into one growing array that becomes the
     * String: none of JRuby's buffer, no chunk copied into a growing String. Thread#raise, Thread#kill and
     * Timeout wake the loop, and so does a close of io in another thread (what was read is dropped, as with an
     * interrupted IO#read). io stays open, its descriptor's O_NONBLOCK as it was.
     */
    public static IRubyObject read_all(ThreadContext context, IRubyObject self, IRubyObject[] args) {
        RubyIO io = RubyValues.toIO(context, args[0]);
        OpenFile file = io.getOpenFileChecked();
        if (!file.isReadable() || file.READ_DATA_PENDING() || file.READ_CHAR_PENDING()) return context.nil;
        boolean asText = args.length > 1 && args[1].isTrue();
        if (asText && !io.internal_encoding(context).isNil()) return context.nil;
        int fd = RealDescriptors.of(io);
        int flags = Fds.statusFlags(fd);
        int copy = Errors.call(context, () -> Fds.dupCloexec(fd, 0, "dup of the popen pipe"));
        Capture run;
        try {
            run = Errors.call(context, () -> Capture.over(null, -1, copy, -1, null)); // takes copy over
        } catch (RuntimeException e) {
            Fds.close(copy);
            throw e;
        }
        // listed as blocked on io: a close in another thread raises MRI's IOError here ("stream closed in another thread")
        file.addBlockingThread(context.getThread());
        try {
            Interrupts.runToEnd(context, run, () -> false);
        } finally {
            file.removeBlockingThread(context.getThread());
            run.close();
            Fds.setStatusFlags(fd, flags); // O_NONBLOCK is the open file's, shared with the copy
        }
        if (!asText) return RubyValues.binaryString(context.runtime, run.out().bytes());
        IRubyObject external = io.external_encoding(context);
        Encoding encoding = external.isNil() ? context.runtime.getDefaultExternalEncoding() : ((RubyEncoding) external).getEncoding();
        return RubyString.newStringNoCopy(context.runtime, new ByteList(run.out().bytes(), encoding, false));
    }
}
