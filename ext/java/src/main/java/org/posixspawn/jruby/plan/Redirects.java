package org.posixspawn.jruby.plan;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import jnr.constants.platform.OpenFlags;
import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyFixnum;
import org.jruby.RubyIO;
import org.jruby.RubyInteger;
import org.jruby.RubyString;
import org.jruby.RubySymbol;
import org.jruby.exceptions.RaiseException;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.TypeConverter;
import org.jruby.util.io.OpenFile;

/**
 * The redirect options (Integer, IO, :in/:out/:err keys or arrays of them), gathered as MRI's fd_dup2
 * (with fd_open merged in, in order), fd_close and fd_dup2_child lists; then checked as one fd table.
 * MRI checks the table (and an open's flags and permission) only in rb_execarg_parent_start, once it has
 * opened the files before: such an error is raised after those files are opened ({@link AfterOpening}).
 */
final class Redirects {
    private static final int O_RDONLY = OpenFlags.O_RDONLY.intValue();
    private static final int O_WRONLY_CREAT_TRUNC =
            OpenFlags.O_WRONLY.intValue() | OpenFlags.O_CREAT.intValue() | OpenFlags.O_TRUNC.intValue();

    private final ThreadContext context;
    private final Ruby runtime;
    /** Dir.pwd, against which relative paths are opened (in the parent, as MRI does). */
    private final byte[] pwd;
    private final List<Redirect> redirects = new ArrayList<>();
    /** The Integer sources as given, range-checked with the table (MRI: check_exec_fds' FIX2INT). */
    private final Map<Redirect, Long> givenSources = new IdentityHashMap<>();
    /** The files to open, in order, each once. */
    private final List<FileToOpen> files = new ArrayList<>();
    /** The first open's flags or permission out of range (MRI: NUM2INT, NUM2MODET as it opens), and how many files come before it. */
    private RaiseException openError;
    private int openErrorAt;
    private final List<Integer> closes = new ArrayList<>();
    private final List<ChildDup> childDups = new ArrayList<>();

    Redirects(ThreadContext context, byte[] pwd) {
        this.context = context;
        this.runtime = context.runtime;
        this.pwd = pwd;
    }

    /** MRI: the opens' conversions and check_exec_fds, then the lists into the plan; their errors come as {@link AfterOpening}. */
    void into(SpawnPlan.Builder plan) {
        if (openError != null) throw new AfterOpening(files.subList(0, openErrorAt), openError);
        List<ChildDup> resolved;
        try {
            resolved = FdTable.check(runtime, redirects, givenSources, closes, childDups);
        } catch (RaiseException e) {
            throw new AfterOpening(files, e);
        }
        plan.redirects.addAll(redirects);
        plan.closes.addAll(closes);
        plan.childDups.addAll(resolved);
    }

    // MRI: check_exec_redirect
    void add(IRubyObject key, IRubyObject value) {
        if (value instanceof RubySymbol) {
            String id = ((RubySymbol) value).idString();
            switch (id) {
                case "close": for (int fd : keys(key)) closes.add(fd); return;
                case "in": dup2(key, 0); return;
                case "out": dup2(key, 1); return;
                case "err": dup2(key, 2); return;
                default: throw runtime.newArgumentError("wrong exec redirect symbol: " + id);
            }
        }
        if (value instanceof RubyIO) {
            dup2(key, fd(value));
            return;
        }
        if (Conversions.isFixnum(value)) {
            long given = ((RubyFixnum) value).getLongValue();
            for (int fd : keys(key)) {
                Redirect r = Redirect.fromParentFd(fd, (int) Math.max(-1, Math.min(given, Integer.MAX_VALUE))); // checked in FdTable
                redirects.add(r);
                givenSources.put(r, given);
            }
            return;
        }
        if (value instanceof RubyArray) {
            RubyArray<?> a = (RubyArray<?>) value;
            IRubyObject head = a.size() > 0 ? a.eltOk(0) : context.nil;
            if (a.size() == 2 && head instanceof RubySymbol && "child".equals(((RubySymbol) head).idString())) {
                int source = fd(a.eltOk(1));
                for (int fd : keys(key)) childDups.add(new ChildDup(fd, source));
                return;
            }
            RubyString path = Conversions.filePath(context, head);
            IRubyObject mode = a.size() > 1 ? a.eltOk(1) : context.nil;
            IRubyObject flags;
            if (mode.isNil()) flags = RubyFixnum.newFixnum(runtime, O_RDONLY);
            else if (mode instanceof RubyString) flags = RubyFixnum.newFixnum(runtime, OpenFile.ioModestrOflags(runtime, Conversions.cString(runtime, mode).toString()));
            else flags = toInteger(mode);
            IRubyObject perm = a.size() > 2 ? a.eltOk(2) : context.nil;
            open(key, path, flags, perm.isNil() ? RubyFixnum.newFixnum(runtime, 0644) : toInteger(perm));
            return;
        }
        if (value instanceof RubyString) {
            RubyString path = Conversions.filePath(context, value);
            boolean allOutputs = true;
            for (int fd : keys(key)) allOutputs &= fd == 1 || fd == 2;
            open(key, path, RubyFixnum.newFixnum(runtime, allOutputs ? O_WRONLY_CREAT_TRUNC : O_RDONLY), RubyFixnum.newFixnum(runtime, 0644));
            return;
        }
        IRubyObject io = Conversions.checkIO(context, value);
        if (!io.isNil()) {
            dup2(key, fd(io));
            return;
        }
        throw runtime.newArgumentError("wrong exec redirect action");
    }

    private void dup2(IRubyObject key, int parentFd) {
        for (int fd : keys(key)) redirects.add(Redirect.fromParentFd(fd, parentFd));
    }

    /** MRI: rb_to_int, as an open's flags and permission are read (TypeError now, the range when opened). */
    private IRubyObject toInteger(IRubyObject v) {
        return v instanceof RubyInteger ? v : TypeConverter.convertToType(v, runtime.getInteger(), "to_int");
    }

    /** One file for every child fd of the key: the parent opens it once, its flags and permission in range then. */
    private void open(IRubyObject key, RubyString path, IRubyObject flags, IRubyObject perm) {
        PathName name = Conversions.pathName(Conversions.cString(runtime, path));
        int[] fds = keys(key);
        if (fds.length == 0) return; // MRI: an empty key's file is for no child fd, and never opened
        int oflags = 0, mode = 0;
        try {
            oflags = Conversions.toInt(runtime, flags);
            mode = Conversions.toUInt(runtime, perm);
        } catch (RaiseException e) {
            if (openError == null) {
                openError = e;
                openErrorAt = files.size();
            }
        }
        FileToOpen file = new FileToOpen(name.against(pwd), name, oflags, mode);
        files.add(file);
        for (int fd : fds) redirects.add(Redirect.fromFile(fd, file));
    }

    // MRI: check_exec_redirect1, for a key that may be an array of keys
    private int[] keys(IRubyObject key) {
        if (!(key instanceof RubyArray)) return new int[] { fd(key) };
        RubyArray<?> a = (RubyArray<?>) key;
        int[] fds = new int[a.size()];
        for (int i = 0; i < fds.length; i++) fds[i] = fd(a.eltOk(i));
        return fds;
    }

    // MRI: check_exec_redirect_fd
    private int fd(IRubyObject v) {
        int fd;
        if (Conversions.isFixnum(v)) {
            fd = Conversions.toInt(runtime, v);
        } else if (v instanceof RubySymbol) {
            switch (((RubySymbol) v).idString()) {
                case "in": fd = 0; break;
                case "out": fd = 1; break;
                case "err": fd = 2; break;
                default: throw runtime.newArgumentError("wrong exec redirect");
            }
        } else {
            IRubyObject io = Conversions.checkIO(context, v);
            if (io.isNil()) throw runtime.newArgumentError("wrong exec redirect");
            // A duplex IO (IO.popen's "r+") has two descriptors: which one was meant cannot be told.
            if (((RubyIO) io).getOpenFileChecked().tiedIOForWriting != null) throw runtime.newArgumentError("duplex IO redirection");
            fd = RealDescriptors.of((RubyIO) io);
        }
        return notNegative(runtime, fd);
    }

    static int notNegative(Ruby runtime, int fd) {
        if (fd < 0) throw runtime.newArgumentError("negative file descriptor");
        return fd;
    }
}
