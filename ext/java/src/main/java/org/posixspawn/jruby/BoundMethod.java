package org.posixspawn.jruby;

import org.jruby.RubyModule;
import org.jruby.internal.runtime.methods.JavaMethod;
import org.jruby.runtime.Arity;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.Visibility;
import org.jruby.runtime.builtin.IRubyObject;

/**
 * A Ruby method of the gem's Java core, bound by hand: a call checks its arity, then its group runs the Java
 * method of that name (a switch). JRuby's binding of {@code @JRubyMethod} annotations made method handles for
 * each method (InvokeDynamicMethodFactory), a third of a cold {@code require 'posix/spawn'} (14 of some 45 ms
 * on JRuby 9.4, issue #26); this loads no class beyond the groups and makes one object a method.
 */
final class BoundMethod extends JavaMethod.JavaMethodNBlock {
    /** As {@code optional}: any number of arguments from {@code required} on. */
    static final int REST = -1;

    /** The methods of one Java class, each called by its Ruby name. */
    interface Group {
        IRubyObject call(String name, ThreadContext context, IRubyObject self, IRubyObject[] args, Block block);
    }

    private final Group group;
    private final int required, max;

    private BoundMethod(RubyModule target, Group group, String name, int required, int optional) {
        super(target, Visibility.PUBLIC, name);
        this.group = group;
        this.required = required;
        this.max = optional == REST ? -1 : required + optional;
    }

    /** Defines {@code name} on {@code target} (a module's singleton class for a module function): public. */
    static void define(RubyModule target, Group group, String name, int required, int optional) {
        target.addMethod(name, new BoundMethod(target, group, name, required, optional));
    }

    @Override
    public IRubyObject call(ThreadContext context, IRubyObject self, RubyModule clazz, String name, IRubyObject[] args, Block block) {
        Arity.checkArgumentCount(context, args, required, max);
        return group.call(getName(), context, self, args, block);
    }
}
