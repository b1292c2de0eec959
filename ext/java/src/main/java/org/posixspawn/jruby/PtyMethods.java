package org.posixspawn.jruby;

import java.util.Arrays;

import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyFixnum;
import org.jruby.RubyIO;
import org.jruby.RubyModule;
import org.jruby.RubyNumeric;
import org.jruby.RubyString;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.ByteList;
import org.posixspawn.jruby.os.libc.Fds;
import org.posixspawn.jruby.os.pty.Pty;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.os.spawn.Spawner;
import org.posixspawn.jruby.plan.PathName;
import org.posixspawn.jruby.plan.SpawnPlan;

/** POSIX::Spawn::Native's pseudo-terminal primitives, which lib/posix/spawn/pty.rb builds open_pty and pty_spawn on. */
public final class PtyMethods implements BoundMethod.Group {
    /** The String a PtyMaster holds what it read ahead in (lib/posix/spawn/pty_master.rb), a gets' rest. */
    private static final String READ_AHEAD = "@pty_buffer";

    PtyMethods() {} // made by its Table, at the first call

    /** These methods' names and arities ({@link BoundMethod.Table}). */
    static final class Table extends BoundMethod.Table {
        @Override
        void defineAll(RubyModule target) {
            define(target, "pty_open", 1, 0);
            define(target, "pty_spawn", 5, 0);
            define(target, "pty_dup", 1, 0);
            define(target, "pty_close", 1, 0);
            define(target, "pty_winsize", 3, 0);
            define(target, "pty_read", 3, 0);
            define(target, "pty_readpartial", 5, 0);
            define(target, "pty_wait_readable", 1, 0);
        }

        @Override
        BoundMethod.Group create() {
            return new PtyMethods();
        }
    }

    @Override
    public IRubyObject call(String name, ThreadContext context, IRubyObject self, IRubyObject[] args, Block block) {
        switch (name) {
            case "pty_open": return pty_open(context, self, args[0]);
            case "pty_spawn": return pty_spawn(context, self, args);
            case "pty_dup": return pty_dup(context, self, args[0]);
            case "pty_close": return pty_close(context, self, args[0]);
            case "pty_winsize": return pty_winsize(context, self, args[0], args[1], args[2]);
            case "pty_read": return pty_read(context, self, args[0], args[1], args[2]);
            case "pty_readpartial": return pty_readpartial(context, args[0], args[1], args[2], args[3], args[4]);
            case "pty_wait_readable": return pty_wait_readable(context, self, args[0]);
            default: throw new AssertionError(name);
        }
    }

    /**
     * Native.pty_open(open_slave) -> [master_fd, slave_fd or nil, slave_path]: a new master (close-on-exec,
     * O_NOCTTY), and with open_slave its slave opened here (close-on-exec, O_NOCTTY). On failure nothing stays open.
     */
    public static IRubyObject pty_open(ThreadContext context, IRubyObject self, IRubyObject openSlave) {
        Ruby runtime = context.runtime;
        Pty.Terminal terminal = Errors.call(context, Pty::open);
        IRubyObject slave = context.nil;
        if (openSlave.isTrue()) {
            try {
                slave = RubyFixnum.newFixnum(runtime, Pty.openSlave(terminal.slavePath));
            } catch (SpawnError failure) {
                Fds.close(terminal.master);
                throw Errors.toRuby(context, failure);
            }
        }
        return RubyArray.newArray(runtime, RubyFixnum.newFixnum(runtime, terminal.master), slave, path(runtime, terminal.slavePath));
    }

    /**
     * Native.pty_spawn(master_fd, slave_path, rows, cols, spawn_args) -> pid: spawn_args (Process.spawn's
     * arguments) run in a new session whose controlling terminal is the slave, as the child's 0, 1 and 2.
     * rows and cols (or nil) are set on the master first, so the child sees them from its start.
     */
    public static IRubyObject pty_spawn(ThreadContext context, IRubyObject self, IRubyObject[] args) {
        Ruby runtime = context.runtime;
        int master = RubyNumeric.num2int(args[0]);
        byte[] slavePath = args[1].convertToString().getBytes();
        SpawnPlan plan = Plans.parse(context, ((RubyArray<?>) args[4].convertToArray()).toJavaArray());
        if (plan.pgroup >= 0) throw runtime.newArgumentError("pgroup option is not allowed: the child of a pty leads a new session, and a group of its own");
        SpawnPlan withTerminal = plan.withControllingTerminal(slavePath);
        if (!args[2].isNil()) {
            int rows = RubyNumeric.num2int(args[2]), cols = RubyNumeric.num2int(args[3]);
            Errors.call(context, () -> {
                Pty.setWindowSize(master, rows, cols);
                return null;
            });
        }
        return RubyFixnum.newFixnum(runtime, Errors.call(context, () -> Spawner.spawn(withTerminal)));
    }

    /** Native.pty_dup(fd) -> a close-on-exec copy of fd. */
    public static IRubyObject pty_dup(ThreadContext context, IRubyObject self, IRubyObject fd) {
        int original = RubyNumeric.num2int(fd);
        return RubyFixnum.newFixnum(context.runtime, Errors.call(context, () -> Pty.dupCloexec(original)));
    }

    /** Native.pty_close(fd): for a descriptor no IO owns yet. */
    public static IRubyObject pty_close(ThreadContext context, IRubyObject self, IRubyObject fd) {
        Fds.close(RubyNumeric.num2int(fd));
        return context.nil;
    }

    /** Native.pty_winsize(fd, rows, cols): TIOCSWINSZ. */
    public static IRubyObject pty_winsize(ThreadContext context, IRubyObject self, IRubyObject fd, IRubyObject rows, IRubyObject cols) {
        int master = RubyNumeric.num2int(fd), r = RubyNumeric.num2int(rows), c = RubyNumeric.num2int(cols);
        Errors.call(context, () -> {
            Pty.setWindowSize(master, r, c);
            return null;
        });
        return context.nil;
    }

    /**
     * Native.pty_read(fd, max, culprit) -> a binary String, nil at end of file, or :wait when nothing is
     * there yet (never blocks). The slave's hang-up raises Errno::EIO naming culprit, as MRI's reads do on Linux.
     */
    public static IRubyObject pty_read(ThreadContext context, IRubyObject self, IRubyObject fd, IRubyObject max, IRubyObject culprit) {
        Ruby runtime = context.runtime;
        byte[] bytes;
        try {
            bytes = Pty.read(RubyNumeric.num2int(fd), Math.max(1, RubyNumeric.num2int(max)));
        } catch (SpawnError failure) {
            throw Errors.toRuby(context, failure.about(PathName.of(culprit.asJavaString())));
        }
        if (bytes == null) return runtime.newSymbol("wait");
        if (bytes.length == 0) return context.nil;
        return RubyValues.binaryString(runtime, bytes);
    }

    /**
     * Native.pty_readpartial(master, maxlen, outbuf, culprit, block) -> PtyMaster#readpartial's (block true)
     * or #read_nonblock's (false) String: up to maxlen bytes of what master read ahead, else of one poll and
     * one read of the master; with block it waits for them, else returns :wait_readable. Binary, or when given
     * outbuf, which keeps its encoding (as in MRI). EOFError at end of file, Errno::EIO naming culprit at the
     * slave's hang-up (Linux). Checked in MRI's order (io_getpartial): maxlen, outbuf, then a closed master.
     */
    public static IRubyObject pty_readpartial(ThreadContext context, IRubyObject master, IRubyObject maxlen, IRubyObject outbuf, IRubyObject culprit, IRubyObject block) {
        Ruby runtime = context.runtime;
        int max = RubyNumeric.num2int(maxlen);
        if (max < 0) throw runtime.newArgumentError("negative length " + max + " given");
        RubyString into = outbuf.isNil() ? null : outbuf.convertToString();
        if (into != null) into.modify(); // a frozen one raises before anything is taken, as in MRI
        int fd = ((RubyIO) master).getOpenFileChecked().getFileno();
        byte[] bytes = max == 0 ? new byte[0] : takeReadAhead(master, max);
        while (bytes == null) {
            try {
                bytes = Pty.read(fd, max);
            } catch (SpawnError failure) {
                throw Errors.toRuby(context, failure.about(PathName.of(culprit.asJavaString())));
            }
            if (bytes == null) {
                if (!block.isTrue()) return runtime.newSymbol("wait_readable");
                Interrupts.awaitReadable(context, fd);
            } else if (bytes.length == 0) {
                throw runtime.newEOFError("end of file reached");
            }
        }
        if (into == null) return RubyValues.binaryString(runtime, bytes);
        ByteList value = into.getByteList();
        value.replace(0, value.realSize(), bytes);
        into.clearCodeRange();
        return into;
    }

    /** Up to max bytes taken from the front of what master read ahead ({@link #READ_AHEAD}); null when it holds none. */
    private static byte[] takeReadAhead(IRubyObject master, int max) {
        Object ahead = master.getInstanceVariables().getInstanceVariable(READ_AHEAD);
        if (!(ahead instanceof RubyString) || ((RubyString) ahead).size() == 0) return null;
        RubyString pending = (RubyString) ahead;
        int n = Math.min(max, pending.size());
        ByteList held = pending.getByteList();
        byte[] taken = Arrays.copyOfRange(held.unsafeBytes(), held.begin(), held.begin() + n);
        pending.modify();
        pending.getByteList().delete(0, n);
        return taken;
    }

    /**
     * Native.pty_wait_readable(fd): blocks until a read of fd would not block (poll(2), no descriptor of its
     * own); Thread#raise, Thread#kill and Timeout interrupt it.
     */
    public static IRubyObject pty_wait_readable(ThreadContext context, IRubyObject self, IRubyObject fd) {
        Interrupts.awaitReadable(context, RubyNumeric.num2int(fd));
        return context.nil;
    }

    private static RubyString path(Ruby runtime, byte[] bytes) {
        return RubyString.newString(runtime, new ByteList(bytes, false));
    }
}
