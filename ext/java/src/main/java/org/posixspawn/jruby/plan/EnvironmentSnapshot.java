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
 * Ruby's ENV as NAME=VALUE bytes, and its PATH, made once and handed out again, the same list, for as long as
 * ENV holds the same names and values in the same order: most spawns pass ENV unchanged, and the platform
 * layer keeps the native copy of a list it has already written ({@code os.NativeEnvironment}). Every spawn
 * compares ENV with the snapshot, so a change made by any thread before the spawn is in its child's
 * environment. Immutable, published through a volatile field: no lock.
 */
final class EnvironmentSnapshot {
    private static volatile EnvironmentSnapshot last;

    private final Ruby runtime;
    /** ENV's names and values, the Strings themselves, in ENV's order: each frozen (else never matched). */
    private final RubyString[] strings;
    private final List<byte[]> envp;
    private final byte[] path;

    private EnvironmentSnapshot(Ruby runtime, RubyString[] strings, List<byte[]> envp, byte[] path) {
        this.runtime = runtime;
        this.strings = strings;
        this.envp = envp;
        this.path = path;
    }

    /**
     * ENV's snapshot now: the last one while ENV still holds its entries, else a new one. A spawn takes one,
     * so that the PATH it searches and the envp it passes are of the same ENV.
     */
    static EnvironmentSnapshot of(Ruby runtime) {
        RubyHash env = runtime.getENV();
        EnvironmentSnapshot s = last;
        if (s != null && s.runtime == runtime && s.matches(env)) return s;
        List<RubyString> strings = new ArrayList<>(2 * env.size());
        List<byte[]> envp = new ArrayList<>(env.size());
        byte[] path = null;
        for (Object o : env.directEntrySet()) {
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
            RubyString name = (RubyString) e.getKey(), value = (RubyString) e.getValue();
            strings.add(name);
            strings.add(value);
            envp.add(entry(name.getByteList(), value.getByteList()));
            if (Environment.PATH.equals(name.getByteList())) path = Conversions.bytes(value.getByteList());
        }
        s = new EnvironmentSnapshot(runtime, strings.toArray(new RubyString[0]), Collections.unmodifiableList(envp), path);
        last = s;
        return s;
    }

    /** ENV's entries as NAME=VALUE, in ENV's order: an unmodifiable list, the same one while ENV is unchanged. */
    List<byte[]> envp() {
        return envp;
    }

    /** Puts each of ENV's names and values, as they were, into {@code into}, in ENV's order. */
    void putEach(Map<ByteList, ByteList> into) {
        for (int i = 0; i < strings.length; i += 2) into.put(strings[i].getByteList(), strings[i + 1].getByteList());
    }

    /** ENV's PATH, null if it has none; not to be modified. */
    byte[] path() {
        return path;
    }

    /** NAME=VALUE. */
    static byte[] entry(ByteList name, ByteList value) {
        byte[] entry = new byte[name.realSize() + 1 + value.realSize()];
        System.arraycopy(name.unsafeBytes(), name.begin(), entry, 0, name.realSize());
        entry[name.realSize()] = '=';
        System.arraycopy(value.unsafeBytes(), value.begin(), entry, name.realSize() + 1, value.realSize());
        return entry;
    }

    /**
     * Whether ENV holds the snapshot's very Strings, in its order. A frozen String's bytes cannot change, and
     * JRuby's ENV stores every name and value frozen (ENV['X'] = s stores a frozen copy of s): so the same
     * frozen Strings are the same bytes, without reading them. Allocates nothing but the iterator.
     */
    private boolean matches(RubyHash env) {
        if (2 * env.size() != strings.length) return false;
        int i = 0;
        for (Object o : env.directEntrySet()) {
            if (i == strings.length) return false; // grown meanwhile
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) o;
            Object name = e.getKey(), value = e.getValue();
            if (name != strings[i] || value != strings[i + 1] || !strings[i].isFrozen() || !strings[i + 1].isFrozen()) return false;
            i += 2;
        }
        return i == strings.length;
    }
}
