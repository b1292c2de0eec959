package org.posixspawn.jruby.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.jruby.Ruby;
import org.jruby.RubyHash;
import org.jruby.RubyString;
import org.jruby.util.ByteList;

/**
 * Ruby's ENV as NAME=VALUE bytes, made once and handed out again, the same list, for as long as ENV holds the
 * same names and values in the same order: most spawns pass ENV unchanged, and the platform layer keeps the
 * native copy of a list it has already written ({@code os.NativeEnvironment}). Every spawn compares ENV with
 * the snapshot byte for byte, so a change made by any thread before the spawn is in its child's environment.
 * Immutable, published through a volatile field: no lock.
 */
final class EnvironmentSnapshot {
    private static volatile EnvironmentSnapshot last;

    private final Ruby runtime;
    private final List<byte[]> envp;

    private EnvironmentSnapshot(Ruby runtime, List<byte[]> envp) {
        this.runtime = runtime;
        this.envp = envp;
    }

    /** ENV's entries as NAME=VALUE, in ENV's order: an unmodifiable list, the same one while ENV is unchanged. */
    static List<byte[]> of(Ruby runtime) {
        RubyHash env = runtime.getENV();
        EnvironmentSnapshot s = last;
        if (s != null && s.runtime == runtime && s.matches(env)) return s.envp;
        List<byte[]> envp = new ArrayList<>(env.size());
        for (Object o : env.directEntrySet()) {
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
            envp.add(entry(((RubyString) e.getKey()).getByteList(), ((RubyString) e.getValue()).getByteList()));
        }
        s = new EnvironmentSnapshot(runtime, Collections.unmodifiableList(envp));
        last = s;
        return s.envp;
    }

    /** NAME=VALUE. */
    static byte[] entry(ByteList name, ByteList value) {
        byte[] entry = new byte[name.realSize() + 1 + value.realSize()];
        System.arraycopy(name.unsafeBytes(), name.begin(), entry, 0, name.realSize());
        entry[name.realSize()] = '=';
        System.arraycopy(value.unsafeBytes(), value.begin(), entry, name.realSize() + 1, value.realSize());
        return entry;
    }

    /** Whether ENV holds exactly the snapshot's entries, in its order. Allocates nothing but the iterator. */
    private boolean matches(RubyHash env) {
        if (env.size() != envp.size()) return false;
        int i = 0;
        for (Object o : env.directEntrySet()) {
            if (i == envp.size()) return false; // grown meanwhile
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
            ByteList name = ((RubyString) e.getKey()).getByteList(), value = ((RubyString) e.getValue()).getByteList();
            byte[] entry = envp.get(i++);
            int n = name.realSize();
            if (entry.length != n + 1 + value.realSize() || entry[n] != '=') return false;
            if (!same(entry, 0, name) || !same(entry, n + 1, value)) return false;
        }
        return i == envp.size();
    }

    private static boolean same(byte[] entry, int at, ByteList bytes) {
        byte[] b = bytes.unsafeBytes();
        for (int i = 0, from = bytes.begin(), n = bytes.realSize(); i < n; i++) {
            if (entry[at + i] != b[from + i]) return false;
        }
        return true;
    }
}
