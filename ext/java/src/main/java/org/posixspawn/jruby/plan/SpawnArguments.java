package org.posixspawn.jruby.plan;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jnr.constants.platform.OpenFlags;
import jnr.constants.platform.RLIMIT;
import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyBignum;
import org.jruby.RubyFixnum;
import org.jruby.RubyHash;
import org.jruby.RubyIO;
import org.jruby.RubyInteger;
import org.jruby.RubyNumeric;
import org.jruby.RubyString;
import org.jruby.RubySymbol;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.ByteList;
import org.jruby.util.JRubyFile;
import org.jruby.util.TypeConverter;
import org.jruby.util.io.OpenFile;

/**
 * Reads Process.spawn's arguments ({@code [env,] command... [,options]}) into a {@link SpawnPlan}, raising
 * the exceptions MRI raises for bad ones, in MRI's order.
 *
 * <p>A port of MRI 3.x process.c: rb_exec_getargs, rb_check_argv, rb_exec_fillarg, rb_check_exec_env,
 * rb_execarg_addopt, check_exec_redirect, check_exec_redirect_fd, check_exec_fds, and
 * rb_execarg_parent_start1's environment building. Each method names the function it ports.
 */
public final class SpawnArguments {
    private static final int O_RDONLY = OpenFlags.O_RDONLY.intValue();
    private static final int O_WRONLY_CREAT_TRUNC =
            OpenFlags.O_WRONLY.intValue() | OpenFlags.O_CREAT.intValue() | OpenFlags.O_TRUNC.intValue();
    private static final String SHELL = "/bin/sh";
    /** MRI: posix_sh_cmds, words that make a command line go to the shell. */
    private static final List<String> SHELL_WORDS = Arrays.asList(
            "!", ".", ":", "break", "case", "colon", "continue", "do", "done", "elif", "else", "esac", "eval",
            "exec", "exit", "export", "fi", "for", "if", "in", "readonly", "return", "set", "shift", "then",
            "times", "trap", "unset", "until", "while");
    private static final String SHELL_META = "*?{}[]<>()~&|\\$;'`\"\n#";
    private static final Map<String, RLIMIT> RLIMITS = new HashMap<>();
    static {
        for (RLIMIT r : RLIMIT.values()) {
            if (r.defined()) RLIMITS.put("rlimit_" + r.name().substring("RLIMIT_".length()).toLowerCase(), r);
        }
    }

    private final ThreadContext context;
    private final Ruby runtime;
    private final boolean exceptionAllowed;
    private final SpawnPlan.Builder plan = new SpawnPlan.Builder();
    private Boolean exception;
    // Which once-only options were given (MRI: *_given), for "specified twice".
    private boolean pgroupGiven, unsetenvOthersGiven, unsetenvOthers, chdirGiven, umaskGiven, closeOthersGiven, setsidGiven;
    // MRI's fd_dup2 (with fd_open merged in, in order), fd_close and fd_dup2_child.
    private final List<Redirect> redirects = new ArrayList<>();
    private final List<Integer> closes = new ArrayList<>();
    private final List<int[]> childDups = new ArrayList<>();

    private SpawnArguments(ThreadContext context, boolean exceptionAllowed) {
        this.context = context;
        this.runtime = context.runtime;
        this.exceptionAllowed = exceptionAllowed;
    }

    /** Process.spawn's arguments to a plan. */
    public static SpawnPlan parse(ThreadContext context, IRubyObject[] args) {
        return new SpawnArguments(context, false).read(args).build();
    }

    /** Kernel#system's arguments (which may hold :exception) to a plan and that flag. */
    public static Parsed parseForSystem(ThreadContext context, IRubyObject[] args) {
        SpawnArguments a = new SpawnArguments(context, true).read(args);
        return new Parsed(a.build(), Boolean.TRUE.equals(a.exception));
    }

    /** A plan and Kernel#system's :exception flag. */
    public static final class Parsed {
        public final SpawnPlan plan;
        public final boolean exception;

        Parsed(SpawnPlan plan, boolean exception) {
            this.plan = plan;
            this.exception = exception;
        }
    }

    // MRI: rb_execarg_init -> rb_exec_getargs, rb_check_argv, rb_exec_fillarg
    private SpawnArguments read(IRubyObject[] args) {
        int argc = args.length;
        int first = 0;
        IRubyObject options = null, env = null;
        if (argc > 0) {
            IRubyObject hash = TypeConverter.checkHashType(runtime, args[argc - 1]);
            if (!hash.isNil()) {
                options = hash;
                argc--;
            }
        }
        if (argc > 0) {
            IRubyObject hash = TypeConverter.checkHashType(runtime, args[0]);
            if (!hash.isNil()) {
                env = hash;
                argc--;
                first = 1;
            }
        }
        if (argc == 0) throw runtime.newArgumentError("wrong number of arguments (given 0, expected 1+)");

        // rb_check_argv
        RubyString program = null;
        IRubyObject[] words = Arrays.copyOfRange(args, first, first + argc);
        IRubyObject pair = TypeConverter.checkArrayType(runtime, words[0]);
        if (!pair.isNil()) {
            RubyArray<?> a = (RubyArray<?>) pair;
            if (a.size() != 2) throw runtime.newArgumentError("wrong first argument");
            program = cString(a.eltOk(0));
            words[0] = a.eltOk(1);
        }
        RubyString[] argv = new RubyString[argc];
        for (int i = 0; i < argc; i++) argv[i] = cString(words[i]);

        // rb_exec_fillarg: options first, then the environment, then the command.
        if (options != null) readOptions((RubyHash) options);
        Map<ByteList, ByteList> envChanges = env == null ? null : readEnv((RubyHash) env);
        ByteList pathForLookup = envChanges != null && envChanges.get(PATH_KEY) != null
                ? envChanges.get(PATH_KEY) : envValue("PATH");

        boolean viaShell = program == null && argc == 1;
        if (viaShell && !needsShell(argv[0].getByteList())) {
            viaShell = false;
            argv = splitWords(argv[0]);
            if (argv.length == 0) argv = new RubyString[] { RubyString.newEmptyString(runtime) };
        }
        if (viaShell) {
            plan.commandName = SHELL;
            plan.executable = SHELL.getBytes(StandardCharsets.UTF_8);
            plan.argv.add(bytes("sh"));
            plan.argv.add(bytes("-c"));
            plan.argv.add(bytes(argv[0].getByteList()));
        } else {
            RubyString name = program != null ? program : argv[0];
            plan.commandName = name.toString();
            byte[] found = ExecutableLookup.find(bytes(name.getByteList()), pathForLookup, pwd());
            plan.executableFound = found != null;
            plan.executable = found != null ? found : bytes(name.getByteList());
            for (RubyString s : argv) plan.argv.add(bytes(s.getByteList()));
        }
        plan.envp.addAll(buildEnvironment(envChanges));
        if (plan.cwd == null) plan.cwd = pwd();
        if (!closeOthersGiven) plan.inherited.addAll(InheritableIOs.descriptors());
        return this;
    }

    private SpawnPlan build() {
        // setsid(2) makes the child lead a new group too; setpgid after it fails (EPERM) in the child.
        if (plan.setsid && plan.pgroup >= 0) throw runtime.newArgumentError("setsid and pgroup options are exclusive: a new session leads a new process group");
        checkFds();
        plan.redirects.addAll(redirects);
        plan.closes.addAll(closes);
        plan.childDups.addAll(childDups);
        return plan.build();
    }

    // MRI: rb_exec_fillarg's test for shell meta characters and reserved words
    private static boolean needsShell(ByteList line) {
        int firstStart = -1, firstLen = -1;
        for (int i = 0; i < line.realSize(); i++) {
            int c = line.get(i) & 0xff;
            if (c == ' ' || c == '\t') {
                if (firstStart >= 0 && firstLen < 0) firstLen = i - firstStart;
            } else if (firstStart < 0) {
                firstStart = i;
            }
            if (SHELL_META.indexOf(c) >= 0) return true;
            if (firstLen < 0) {
                if (c == '=') return true;
                if (c == '/') firstLen = 0x100; // a path: never a shell word
            }
        }
        if (firstStart < 0) return false;
        if (firstLen < 0) firstLen = line.realSize() - firstStart;
        if (firstLen > 9) return false;
        String first = new String(line.unsafeBytes(), line.begin() + firstStart, firstLen, StandardCharsets.ISO_8859_1);
        return SHELL_WORDS.contains(first);
    }

    private RubyString[] splitWords(RubyString line) {
        ByteList b = line.getByteList();
        List<RubyString> words = new ArrayList<>();
        int i = 0, n = b.realSize();
        while (i < n) {
            while (i < n && (b.get(i) == ' ' || b.get(i) == '\t')) i++;
            int start = i;
            while (i < n && b.get(i) != ' ' && b.get(i) != '\t') i++;
            if (i > start) words.add(RubyString.newString(runtime, b.makeShared(start, i - start)));
        }
        return words.toArray(new RubyString[0]);
    }

    // MRI: rb_check_exec_options / check_exec_options_i
    private void readOptions(RubyHash options) {
        for (Object o : options.directEntrySet()) {
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
            IRubyObject key = (IRubyObject) e.getKey(), value = (IRubyObject) e.getValue();
            if (!addOption(key, value)) {
                if (key instanceof RubySymbol) throw runtime.newArgumentError("wrong exec option symbol: " + ((RubySymbol) key).idString());
                throw runtime.newArgumentError("wrong exec option");
            }
        }
    }

    // MRI: rb_execarg_addopt
    private boolean addOption(IRubyObject key, IRubyObject value) {
        if (key instanceof RubySymbol) {
            String id = ((RubySymbol) key).idString();
            RLIMIT rlimit = RLIMITS.get(id);
            if (rlimit != null) {
                addRlimit(id, rlimit, value);
                return true;
            }
            switch (id) {
                case "pgroup":
                    if (pgroupGiven) throw runtime.newArgumentError("pgroup option specified twice");
                    pgroupGiven = true;
                    if (!value.isTrue()) plan.pgroup = -1;
                    else if (value == runtime.getTrue()) plan.pgroup = 0;
                    else {
                        int pgid = toInt(value); // MRI: NUM2PIDT
                        if (pgid < 0) throw runtime.newArgumentError("negative process group ID : " + pgid);
                        plan.pgroup = pgid;
                    }
                    return true;
                case "setsid": // not MRI's: POSIX_SPAWN_SETSID
                    if (setsidGiven) throw runtime.newArgumentError("setsid option specified twice");
                    setsidGiven = true;
                    plan.setsid = toBoolean(value, "setsid");
                    return true;
                case "unsetenv_others":
                    if (unsetenvOthersGiven) throw runtime.newArgumentError("unsetenv_others option specified twice");
                    unsetenvOthersGiven = true;
                    unsetenvOthers = toBoolean(value, "unsetenv_others");
                    return true;
                case "chdir": {
                    if (chdirGiven) throw runtime.newArgumentError("chdir option specified twice");
                    chdirGiven = true;
                    RubyString dir = filePath(value);
                    plan.chdirAsGiven = dir.toString();
                    plan.cwd = absolute(plan.chdirAsGiven);
                    return true;
                }
                case "umask": {
                    int mask = toUInt(value); // MRI: NUM2MODET
                    if (umaskGiven) throw runtime.newArgumentError("umask option specified twice");
                    umaskGiven = true;
                    plan.umask = mask & 0777; // what umask(2) keeps of a mode_t
                    return true;
                }
                case "close_others":
                    if (closeOthersGiven) throw runtime.newArgumentError("close_others option specified twice");
                    closeOthersGiven = true;
                    plan.closeOthers = toBoolean(value, "close_others");
                    return true;
                case "in": redirect(RubyFixnum.zero(runtime), value); return true;
                case "out": redirect(RubyFixnum.one(runtime), value); return true;
                case "err": redirect(RubyFixnum.newFixnum(runtime, 2), value); return true;
                case "exception":
                    if (!exceptionAllowed) throw runtime.newArgumentError("exception option is not allowed");
                    if (exception != null) throw runtime.newArgumentError("exception option specified twice");
                    exception = toBoolean(value, "exception");
                    return true;
                case "uid":
                case "gid":
                    throw runtime.newNotImplementedError(id + " option is not supported by posix-spawn-jruby: posix_spawn(3) cannot change the child's credentials");
                default:
                    return false;
            }
        }
        if (key instanceof RubyFixnum || key instanceof RubyIO || key instanceof RubyArray) {
            redirect(key, value);
            return true;
        }
        return false;
    }

    // MRI: rb_execarg_addopt_rlimit
    private void addRlimit(String name, RLIMIT resource, IRubyObject value) {
        IRubyObject pair = TypeConverter.checkArrayType(runtime, value);
        long soft, hard;
        if (!pair.isNil()) {
            RubyArray<?> a = (RubyArray<?>) pair;
            if (a.size() == 1) {
                soft = hard = toRlim(a.eltOk(0));
            } else if (a.size() == 2) {
                soft = toRlim(a.eltOk(0));
                hard = toRlim(a.eltOk(1));
            } else {
                throw runtime.newArgumentError("wrong exec rlimit option");
            }
        } else {
            soft = hard = toRlim(value);
        }
        plan.rlimits.add(new ResourceLimit(name, resource.intValue(), soft, hard));
    }

    // MRI: check_exec_redirect
    private void redirect(IRubyObject key, IRubyObject value) {
        if (value instanceof RubySymbol) {
            String id = ((RubySymbol) value).idString();
            switch (id) {
                case "close": for (int fd : redirectKeys(key)) closes.add(fd); return;
                case "in": dup2(key, 0); return;
                case "out": dup2(key, 1); return;
                case "err": dup2(key, 2); return;
                default: throw runtime.newArgumentError("wrong exec redirect symbol: " + id);
            }
        }
        if (value instanceof RubyIO) {
            dup2(key, redirectFd(value, false));
            return;
        }
        if (value instanceof RubyFixnum) {
            // MRI does not check the value's sign here; a negative one fails in the child. We fail early.
            dup2(key, notNegative(toInt(value)));
            return;
        }
        if (value instanceof RubyArray) {
            RubyArray<?> a = (RubyArray<?>) value;
            IRubyObject head = a.size() > 0 ? a.eltOk(0) : runtime.getNil();
            if (a.size() == 2 && head instanceof RubySymbol && "child".equals(((RubySymbol) head).idString())) {
                int source = redirectFd(a.eltOk(1), false);
                for (int fd : redirectKeys(key)) childDups.add(new int[] { fd, source });
                return;
            }
            RubyString path = filePath(head);
            IRubyObject mode = a.size() > 1 ? a.eltOk(1) : runtime.getNil();
            int flags;
            if (mode.isNil()) flags = O_RDONLY;
            else if (mode instanceof RubyString) flags = OpenFile.ioModestrOflags(runtime, cString(mode).toString());
            else flags = toInt(mode);
            IRubyObject perm = a.size() > 2 ? a.eltOk(2) : runtime.getNil();
            openFile(key, path, flags, perm.isNil() ? 0644 : toUInt(perm));
            return;
        }
        if (value instanceof RubyString) {
            RubyString path = filePath(value);
            boolean allOutputs = true;
            for (int fd : redirectKeys(key)) allOutputs &= fd == 1 || fd == 2;
            openFile(key, path, allOutputs ? O_WRONLY_CREAT_TRUNC : O_RDONLY, 0644);
            return;
        }
        IRubyObject io = checkIO(value);
        if (!io.isNil()) {
            dup2(key, redirectFd(io, false));
            return;
        }
        throw runtime.newArgumentError("wrong exec redirect action");
    }

    private void dup2(IRubyObject key, int parentFd) {
        for (int fd : redirectKeys(key)) redirects.add(Redirect.fromParentFd(fd, parentFd));
    }

    private void openFile(IRubyObject key, RubyString path, int flags, int perm) {
        String display = cString(path).toString();
        FileToOpen file = new FileToOpen(absolute(display).getBytes(StandardCharsets.UTF_8), display, flags, perm);
        for (int fd : redirectKeys(key)) redirects.add(Redirect.fromFile(fd, file));
    }

    // MRI: check_exec_redirect1, for a key that may be an array of keys
    private int[] redirectKeys(IRubyObject key) {
        if (!(key instanceof RubyArray)) return new int[] { redirectFd(key, true) };
        RubyArray<?> a = (RubyArray<?>) key;
        int[] fds = new int[a.size()];
        for (int i = 0; i < fds.length; i++) fds[i] = redirectFd(a.eltOk(i), true);
        return fds;
    }

    // MRI: check_exec_redirect_fd
    private int redirectFd(IRubyObject v, boolean isKey) {
        int fd;
        if (v instanceof RubyFixnum) {
            fd = toInt(v);
        } else if (v instanceof RubySymbol) {
            switch (((RubySymbol) v).idString()) {
                case "in": fd = 0; break;
                case "out": fd = 1; break;
                case "err": fd = 2; break;
                default: throw runtime.newArgumentError("wrong exec redirect");
            }
        } else {
            IRubyObject io = checkIO(v);
            if (io.isNil()) throw runtime.newArgumentError("wrong exec redirect");
            // A duplex IO (IO.popen's "r+") has two descriptors: which one was meant cannot be told.
            if (((RubyIO) io).getOpenFileChecked().tiedIOForWriting != null) throw runtime.newArgumentError("duplex IO redirection");
            fd = RealDescriptors.of((RubyIO) io);
        }
        return notNegative(fd);
    }

    private int notNegative(int fd) {
        if (fd < 0) throw runtime.newArgumentError("negative file descriptor");
        return fd;
    }

    // MRI: check_exec_fds, which also resolves chains of [:child, fd]
    private void checkFds() {
        Map<Integer, Integer> seen = new HashMap<>(); // fd -> TRUE (dup2/open), CLOSED, or the child fd it copies
        for (Redirect r : redirects) claim(seen, r.childFd, TAKEN);
        for (int fd : closes) claim(seen, fd, CLOSED);
        for (int[] d : childDups) claim(seen, d[0], d[1]);
        for (int[] d : childDups) {
            int oldfd = d[1], lastfd = oldfd, depth = 0;
            Integer val = seen.get(lastfd);
            while (val != null && val >= 0) {
                lastfd = val;
                val = seen.get(val);
                if (childDups.size() < depth) throw runtime.newArgumentError("cyclic child fd redirection from " + oldfd);
                depth++;
            }
            if (val == null || val != TAKEN) throw runtime.newArgumentError("child fd " + oldfd + " is not redirected");
            if (oldfd != lastfd) {
                d[1] = lastfd;
                seen.put(d[0], lastfd);
                Integer next, at = oldfd;
                while ((next = seen.get(at)) != null && next >= 0) {
                    seen.put(at, lastfd);
                    at = next;
                }
            }
        }
    }

    private static final int TAKEN = -2, CLOSED = -1;

    private void claim(Map<Integer, Integer> seen, int fd, int how) {
        if (seen.containsKey(fd)) throw runtime.newArgumentError("fd " + fd + " specified twice");
        seen.put(fd, how);
    }

    private static final ByteList PATH_KEY = new ByteList("PATH".getBytes(StandardCharsets.US_ASCII), false);

    // MRI: rb_check_exec_env / check_exec_env_i. Insertion order kept; a null value unsets.
    private Map<ByteList, ByteList> readEnv(RubyHash env) {
        Map<ByteList, ByteList> changes = new LinkedHashMap<>();
        for (Object o : env.directEntrySet()) {
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
            RubyString key = cString((IRubyObject) e.getKey());
            if (key.getByteList().indexOf('=') >= 0) {
                throw runtime.newArgumentError("environment name contains a equal : " + key);
            }
            IRubyObject value = (IRubyObject) e.getValue();
            changes.put(key.getByteList().dup(), value.isNil() ? null : cString(value).getByteList().dup());
        }
        return changes;
    }

    // MRI: rb_execarg_parent_start1, the envp part: Ruby's ENV (or nothing), then the changes.
    private List<byte[]> buildEnvironment(Map<ByteList, ByteList> changes) {
        Map<ByteList, ByteList> merged = new LinkedHashMap<>();
        if (!unsetenvOthers) {
            for (Object o : runtime.getENV().directEntrySet()) {
                Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
                merged.put(((RubyString) e.getKey()).getByteList(), ((RubyString) e.getValue()).getByteList());
            }
        }
        if (changes != null) {
            for (Map.Entry<ByteList, ByteList> c : changes.entrySet()) {
                if (c.getValue() == null) merged.remove(c.getKey());
                else merged.put(c.getKey(), c.getValue());
            }
        }
        List<byte[]> envp = new ArrayList<>(merged.size());
        for (Map.Entry<ByteList, ByteList> e : merged.entrySet()) {
            ByteList k = e.getKey(), v = e.getValue();
            byte[] entry = new byte[k.realSize() + 1 + v.realSize()];
            System.arraycopy(k.unsafeBytes(), k.begin(), entry, 0, k.realSize());
            entry[k.realSize()] = '=';
            System.arraycopy(v.unsafeBytes(), v.begin(), entry, k.realSize() + 1, v.realSize());
            envp.add(entry);
        }
        return envp;
    }

    private ByteList envValue(String name) {
        IRubyObject v = runtime.getENV().fastARef(RubyString.newString(runtime, name));
        return v == null || v.isNil() ? null : ((RubyString) v).getByteList();
    }

    /** MRI: rb_io_check_io: the IO itself, its to_io, or nil (also when to_io gives nil). */
    private IRubyObject checkIO(IRubyObject v) {
        if (v instanceof RubyIO) return v;
        if (!v.respondsTo("to_io")) return runtime.getNil();
        IRubyObject io = v.callMethod(context, "to_io");
        if (io.isNil() || io instanceof RubyIO) return io;
        // MRI: convert_type_err's wording (rb_check_convert_type_with_id)
        String type = v.getMetaClass().getRealClass().getName();
        throw runtime.newTypeError("can't convert " + type + " to IO (" + type + "#to_io gives " + io.getMetaClass().getRealClass().getName() + ")");
    }

    /** MRI: StringValueCStr: a String (TypeError otherwise) with no NUL byte (ArgumentError). */
    private RubyString cString(IRubyObject v) {
        RubyString s = v.convertToString();
        if (s.getByteList().indexOf(0) >= 0) throw runtime.newArgumentError("string contains null byte");
        return s;
    }

    /**
     * MRI: FilePathValue: a String or to_path (TypeError otherwise) with no NUL byte (ArgumentError). Not
     * RubyFile.get_path, whose NUL check has the message of a plain String's.
     */
    private RubyString filePath(IRubyObject v) {
        IRubyObject named = !(v instanceof RubyString) && v.respondsTo("to_path") ? v.callMethod(context, "to_path") : v;
        RubyString path = named.convertToString();
        if (path.getByteList().indexOf(0) >= 0) throw runtime.newArgumentError("path name contains null byte");
        return path;
    }

    /** MRI: NUM2LONG: an Integer, a Float (truncated) or something with to_int; nil has its own message. */
    private long toLong(IRubyObject v) {
        return RubyNumeric.num2long(v);
    }

    /** MRI: NUM2INT (rb_num2int): NUM2LONG, then the range of a C int, as pid_t, fds and open flags are. */
    private int toInt(IRubyObject v) {
        long n = toLong(v);
        if (n > Integer.MAX_VALUE) throw runtime.newRangeError("integer " + n + " too big to convert to " + quoted("int"));
        if (n < Integer.MIN_VALUE) throw runtime.newRangeError("integer " + n + " too small to convert to " + quoted("int"));
        return (int) n;
    }

    /**
     * MRI: NUM2UINT (rb_num2uint), as mode_t is (NUM2MODET: :umask, a redirect's permission): NUM2ULONG, then
     * the range of a C unsigned int, where a negative value down to INT_MIN wraps as in C.
     */
    private int toUInt(IRubyObject v) {
        long n = v instanceof RubyBignum ? unsignedLong((RubyBignum) v) : toLong(v);
        boolean negative = !(v instanceof RubyBignum) && n < 0; // a negative Bignum is below a long: unsignedLong raised
        if (negative && n < Integer.MIN_VALUE) throw runtime.newRangeError("integer " + n + " too small to convert to " + quoted("unsigned int"));
        if (!negative && Long.compareUnsigned(n, 0xffffffffL) > 0) {
            throw runtime.newRangeError("integer " + Long.toUnsignedString(n) + " too big to convert to " + quoted("unsigned int"));
        }
        return (int) n;
    }

    /** MRI: NUM2RLIM (NUM2ULONG: rlim_t is an unsigned long): an Integer up to 2**64-1 (RLIM_INFINITY), kept as unsigned bits. */
    private long toRlim(IRubyObject v) {
        RubyInteger i = v instanceof RubyInteger ? (RubyInteger) v : (RubyInteger) TypeConverter.convertToType(v, runtime.getInteger(), "to_int");
        return i instanceof RubyBignum ? unsignedLong((RubyBignum) i) : i.getLongValue();
    }

    /** MRI: rb_big2ulong: a Bignum that fits 64 bits, and if negative a C long, as the bits of an unsigned long. */
    private long unsignedLong(RubyBignum v) {
        java.math.BigInteger big = v.getValue();
        if (big.abs().bitLength() > 64) throw runtime.newRangeError("bignum too big to convert into " + quoted("unsigned long"));
        if (big.signum() < 0 && big.bitLength() > 63) throw runtime.newRangeError("bignum out of range of unsigned long");
        return big.longValue();
    }

    /** A C type as MRI's conversion messages quote it: `int' up to Ruby 3.3, 'int' from 3.4 (JRuby 10). */
    private String quoted(String type) {
        // RUBY_VERSION as this JRuby reports it (the Java constant would be the one compiled against)
        boolean like34 = runtime.getObject().getConstant("RUBY_VERSION").toString().compareTo("3.4") >= 0;
        return (like34 ? "'" : "`") + type + "'";
    }

    /** MRI: TO_BOOL: true, false or nil, or "expected true or false as NAME: VALUE". */
    private boolean toBoolean(IRubyObject v, String name) {
        if (v == runtime.getTrue()) return true;
        if (v == runtime.getFalse() || v.isNil()) return false;
        throw runtime.newArgumentError("expected true or false as " + name + ": " + v.inspect());
    }

    /**
     * The directory relative paths are taken from and a child starts in without :chdir: JRuby's Dir.pwd
     * (which JRuby never applies to the process); but when Dir.pwd is a directory only JRuby knows (in the
     * class loader, uri:classloader:/..., or inside a jar, app.jar!/dir, as in warbler apps), the process's
     * directory, where JRuby's own Process.spawn runs such children.
     */
    private String pwd() {
        String pwd = runtime.getCurrentDirectory();
        return isVirtual(pwd) ? new File("").getAbsolutePath() : pwd; // user.dir: the JVM never changes its directory
    }

    /** JRuby's virtual paths all name a scheme (uri:, classpath:, file:) or a jar (!); a plain path is asked nothing more. */
    private boolean isVirtual(String path) {
        if (path.indexOf(':') < 0 && path.indexOf('!') < 0) return false;
        return !JRubyFile.isResourceRegularFile(JRubyFile.createResource(runtime, path));
    }

    private String absolute(String path) {
        File f = new File(path);
        return f.isAbsolute() ? path : new File(pwd(), path).getPath();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(ByteList b) {
        return Arrays.copyOfRange(b.unsafeBytes(), b.begin(), b.begin() + b.realSize());
    }
}
