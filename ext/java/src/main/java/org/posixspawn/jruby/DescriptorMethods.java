package org.posixspawn.jruby;

import org.jruby.RubyArray;
import org.jruby.RubyClass;
import org.jruby.RubyFixnum;
import org.jruby.RubyModule;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.posixspawn.jruby.plan.InheritableIOs;
import org.posixspawn.jruby.plan.RealDescriptors;

/** POSIX::Spawn::Native's descriptor primitives: the gem's pipes, and what lib/posix/spawn/io.rb adds to IO. */
public final class DescriptorMethods implements BoundMethod.Group {
    DescriptorMethods() {} // made by its Table, at the first call

    /** These methods' names and arities ({@link BoundMethod.Table}). */
    static final class Table extends BoundMethod.Table {
        @Override
        void defineAll(RubyModule target) {
            define(target, "posix_fileno", 1, 0);
            define(target, "pipe", 1, 0);
            define(target, "adopt_copy", 2, 0);
            define(target, "mark_inheritable", 2, 0);
            define(target, "io_select", 4, 0);
        }

        @Override
        BoundMethod.Group create() {
            return new DescriptorMethods();
        }
    }

    @Override
    public IRubyObject call(String name, ThreadContext context, IRubyObject self, IRubyObject[] args, Block block) {
        switch (name) {
            case "posix_fileno": return posix_fileno(context, self, args[0]);
            case "pipe": return pipe(context, self, args[0]);
            case "adopt_copy": return adopt_copy(context, self, args[0], args[1]);
            case "mark_inheritable": return mark_inheritable(context, self, args[0], args[1]);
            case "io_select": return Select.call(context, args[0], args[1], args[2], args[3]);
            default: throw new AssertionError(name);
        }
    }

    /** Native.posix_fileno(io) -> Integer: io's operating-system descriptor (IO#posix_fileno). */
    public static IRubyObject posix_fileno(ThreadContext context, IRubyObject self, IRubyObject io) {
        return RubyFixnum.newFixnum(context.runtime, RealDescriptors.of(RubyValues.toIO(context, io)));
    }

    /**
     * Native.pipe(klass) -> [reader, writer]: a new close-on-exec pipe as two IOs of klass (the writer sync), as
     * klass.pipe makes, whose filenos are the real descriptors in every JRuby (PipeChannel): the pipes every
     * spawning call of the gem makes for itself.
     */
    public static IRubyObject pipe(ThreadContext context, IRubyObject self, IRubyObject klass) {
        if (!(klass instanceof RubyClass) || !((RubyClass) klass).isKindOfModule(context.runtime.getIO())) {
            throw context.runtime.newTypeError(klass, context.runtime.getClassClass());
        }
        return RubyArray.newArray(context.runtime, PipeChannel.open(context, (RubyClass) klass));
    }

    /** Native.adopt_copy(copy, orig) -> true or false: a copy of one of the gem's pipe ends reads and writes as it does (kernel/io_copy.rb). */
    public static IRubyObject adopt_copy(ThreadContext context, IRubyObject self, IRubyObject copy, IRubyObject orig) {
        return context.runtime.newBoolean(PipeChannel.adoptCopy(RubyValues.toIO(context, copy), RubyValues.toIO(context, orig)));
    }

    /** Native.mark_inheritable(io, inheritable) -> nil: the program set io's close_on_exec to !inheritable. */
    public static IRubyObject mark_inheritable(ThreadContext context, IRubyObject self, IRubyObject io, IRubyObject inheritable) {
        InheritableIOs.mark(RubyValues.toIO(context, io), inheritable.isTrue());
        return context.nil;
    }
}
