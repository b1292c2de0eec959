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
 * on JRuby 9.4, issue #26); this loads no class beyond the groups' tables and makes one object a method.
 */
final class BoundMethod extends JavaMethod.JavaMethodNBlock {
    /** As {@code optional}: any number of arguments from {@code required} on. */
    static final int REST = -1;

    /** The methods of one Java class, each called by its Ruby name. */
    interface Group {
        IRubyObject call(String name, ThreadContext context, IRubyObject self, IRubyObject[] args, Block block);
    }

    /**
     * A group's methods by name and arity, and how to make the group: a class apart from the group's own, so
     * that defining them loads none of the group's code (the require loaded all seven groups, 60 KB of
     * classes, where a plain spawn calls one); the group is made at its first call.
     */
    abstract static class Table {
        private volatile Group group;

        /** Defines the group's methods on {@code target} (a module's singleton class for a module function). */
        abstract void defineAll(RubyModule target);

        /** A new group: made once, or twice by two first calls at once (a group holds no state). */
        abstract Group create();

        /** Defines {@code name} on {@code target}: public. */
        final void define(RubyModule target, String name, int required, int optional) {
            target.addMethod(name, new BoundMethod(target, this, name, required, optional));
        }

        final Group group() {
            Group made = group;
            if (made == null) group = made = create();
            return made;
        }
    }

    private final Table table;
    private final int required, max;

    private BoundMethod(RubyModule target, Table table, String name, int required, int optional) {
        super(target, Visibility.PUBLIC, name);
        this.table = table;
        this.required = required;
        this.max = optional == REST ? -1 : required + optional;
    }

    @Override
    public IRubyObject call(ThreadContext context, IRubyObject self, RubyModule clazz, String name, IRubyObject[] args, Block block) {
        Arity.checkArgumentCount(context, args, required, max);
        return table.group().call(getName(), context, self, args, block);
    }
}
