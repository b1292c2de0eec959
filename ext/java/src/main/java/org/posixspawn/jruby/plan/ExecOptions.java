package org.posixspawn.jruby.plan;

import java.util.HashMap;
import java.util.Map;

import jnr.constants.platform.RLIMIT;
import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyFixnum;
import org.jruby.RubyHash;
import org.jruby.RubyIO;
import org.jruby.RubySymbol;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.TypeConverter;

/** The options hash of Process.spawn (and Kernel#system's :exception), read into the plan as MRI reads it. */
final class ExecOptions {
    private static final Map<String, RLIMIT> RLIMITS = new HashMap<>();
    static {
        for (RLIMIT r : RLIMIT.values()) {
            if (r.defined()) RLIMITS.put("rlimit_" + r.name().substring("RLIMIT_".length()).toLowerCase(), r);
        }
    }

    private final ThreadContext context;
    private final Ruby runtime;
    private final SpawnPlan.Builder plan;
    private final Redirects redirects;
    // Which once-only options were given (MRI: *_given), for "specified twice".
    private boolean pgroupGiven, unsetenvOthersGiven, chdirGiven, umaskGiven, setsidGiven;
    /** Whether :close_others was given (MRI's default differs from both of its values here: see SpawnPlan.inherited). */
    boolean closeOthersGiven;
    /** :unsetenv_others. */
    boolean unsetenvOthers;
    /** :exception (Kernel#system's), or null when not given. */
    Boolean exception;

    ExecOptions(ThreadContext context, SpawnPlan.Builder plan, Redirects redirects) {
        this.context = context;
        this.runtime = context.runtime;
        this.plan = plan;
        this.redirects = redirects;
    }

    // MRI: rb_check_exec_options / check_exec_options_i
    void read(RubyHash options) {
        for (Object o : options.directEntrySet()) {
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
            IRubyObject key = (IRubyObject) e.getKey(), value = (IRubyObject) e.getValue();
            if (!add(key, value)) {
                if (key instanceof RubySymbol) throw runtime.newArgumentError("wrong exec option symbol: " + ((RubySymbol) key).idString());
                throw runtime.newArgumentError("wrong exec option");
            }
        }
    }

    // MRI: rb_execarg_addopt
    private boolean add(IRubyObject key, IRubyObject value) {
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
                        int pgid = Conversions.toInt(runtime, value); // MRI: NUM2PIDT
                        if (pgid < 0) throw runtime.newArgumentError("negative process group ID : " + pgid);
                        plan.pgroup = pgid;
                    }
                    return true;
                case "setsid": // not MRI's: POSIX_SPAWN_SETSID
                    if (setsidGiven) throw runtime.newArgumentError("setsid option specified twice");
                    setsidGiven = true;
                    plan.setsid = Conversions.toBoolean(runtime, value, "setsid");
                    return true;
                case "unsetenv_others":
                    if (unsetenvOthersGiven) throw runtime.newArgumentError("unsetenv_others option specified twice");
                    unsetenvOthersGiven = true;
                    unsetenvOthers = Conversions.toBoolean(runtime, value, "unsetenv_others");
                    return true;
                case "chdir": {
                    if (chdirGiven) throw runtime.newArgumentError("chdir option specified twice");
                    chdirGiven = true;
                    PathName dir = Conversions.pathName(Conversions.filePath(context, value));
                    plan.chdirAsGiven = dir;
                    plan.cwd = dir.against(plan.pwd);
                    return true;
                }
                case "umask": {
                    int mask = Conversions.toUInt(runtime, value); // MRI: NUM2MODET
                    if (umaskGiven) throw runtime.newArgumentError("umask option specified twice");
                    umaskGiven = true;
                    plan.umask = mask & 0777; // what umask(2) keeps of a mode_t
                    return true;
                }
                case "close_others":
                    if (closeOthersGiven) throw runtime.newArgumentError("close_others option specified twice");
                    closeOthersGiven = true;
                    plan.closeOthers = Conversions.toBoolean(runtime, value, "close_others");
                    return true;
                case "in": redirects.add(RubyFixnum.zero(runtime), value); return true;
                case "out": redirects.add(RubyFixnum.one(runtime), value); return true;
                case "err": redirects.add(RubyFixnum.newFixnum(runtime, 2), value); return true;
                case "exception": // refused where not allowed only once the command is read (SpawnArguments)
                    if (exception != null) throw runtime.newArgumentError("exception option specified twice");
                    exception = Conversions.toBoolean(runtime, value, "exception");
                    return true;
                case "uid":
                case "gid":
                    throw runtime.newNotImplementedError(id + " option is not supported by posix-spawn-jruby: posix_spawn(3) cannot change the child's credentials");
                default:
                    return false;
            }
        }
        if (Conversions.isFixnum(key) || key instanceof RubyIO || key instanceof RubyArray) {
            redirects.add(key, value);
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
                soft = hard = Conversions.toRlim(runtime, a.eltOk(0));
            } else if (a.size() == 2) {
                soft = Conversions.toRlim(runtime, a.eltOk(0));
                hard = Conversions.toRlim(runtime, a.eltOk(1));
            } else {
                throw runtime.newArgumentError("wrong exec rlimit option");
            }
        } else {
            soft = hard = Conversions.toRlim(runtime, value);
        }
        plan.rlimits.add(new ResourceLimit(name, resource.intValue(), soft, hard));
    }
}
