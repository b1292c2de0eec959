package org.posixspawn.jruby.plan;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jruby.Ruby;
import org.jruby.RubyHash;
import org.jruby.RubyString;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.ByteList;

/**
 * The child's environment: Ruby's ENV (on JRuby it differs from the native environ) or nothing, then the
 * env hash's changes, as NAME=VALUE bytes; and the PATH the program is looked up on.
 */
final class Environment {
    /** The name PATH, as ENV's and the env hash's names are compared with it. */
    static final ByteList PATH = new ByteList("PATH".getBytes(StandardCharsets.US_ASCII), false);

    /** The env hash's changes in insertion order; a null value unsets. Null when there was no env hash. */
    private final Map<ByteList, ByteList> changes;

    private Environment(Map<ByteList, ByteList> changes) {
        this.changes = changes;
    }

    static Environment none() {
        return new Environment(null);
    }

    // MRI: rb_check_exec_env / check_exec_env_i
    static Environment read(Ruby runtime, RubyHash env) {
        Map<ByteList, ByteList> changes = new LinkedHashMap<>();
        for (Object o : env.directEntrySet()) {
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
            RubyString key = Conversions.cString(runtime, (IRubyObject) e.getKey());
            if (key.getByteList().indexOf('=') >= 0) {
                throw runtime.newArgumentError("environment name contains a equal : " + key);
            }
            IRubyObject value = (IRubyObject) e.getValue();
            changes.put(key.getByteList().dup(), value.isNil() ? null : Conversions.cString(runtime, value).getByteList().dup());
        }
        return new Environment(changes);
    }

    /** MRI: dln_find_exe_r's PATH: the env hash's when it sets one, else ENV's; null when neither has one. */
    byte[] searchPath(EnvironmentSnapshot env) {
        ByteList path = changes != null ? changes.get(PATH) : null;
        return path != null ? Conversions.bytes(path) : env.path();
    }

    // MRI: rb_execarg_parent_start1, the envp part: Ruby's ENV (or nothing), then the changes. An
    // unmodifiable list; without changes, ENV's snapshot, the same list while ENV is unchanged.
    List<byte[]> envp(EnvironmentSnapshot env, boolean unsetOthers) {
        if (changes == null && !unsetOthers) return env.envp();
        Map<ByteList, ByteList> merged = new LinkedHashMap<>();
        if (!unsetOthers) env.putEach(merged);
        if (changes != null) {
            for (Map.Entry<ByteList, ByteList> c : changes.entrySet()) {
                if (c.getValue() == null) merged.remove(c.getKey());
                else merged.put(c.getKey(), c.getValue());
            }
        }
        List<byte[]> envp = new ArrayList<>(merged.size());
        for (Map.Entry<ByteList, ByteList> e : merged.entrySet()) envp.add(EnvironmentSnapshot.entry(e.getKey(), e.getValue()));
        return Collections.unmodifiableList(envp);
    }
}
