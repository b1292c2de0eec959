package org.posixspawn.jruby.plan;

import org.jruby.Ruby;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;

/** One JRuby runtime for the plan tests: arguments are written as Ruby source, as a caller would write them. */
final class RubyFixture {
    static final Ruby RUBY = Ruby.newInstance();

    private RubyFixture() {}

    static ThreadContext context() {
        return RUBY.getCurrentContext();
    }

    /** Evaluates {@code source}, which must yield an Array: the arguments of one spawn call. */
    static IRubyObject[] args(String source) {
        return ((org.jruby.RubyArray<?>) RUBY.evalScriptlet(source)).toJavaArray();
    }

    static SpawnPlan plan(String source) {
        return SpawnArguments.parse(context(), args(source));
    }
}
