package org.posixspawn.jruby.os.spawn;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.LibC;

/**
 * A LibC that records the file actions and attribute flags it is given ("adddup2 5 1", "setflags 0x400c")
 * and answers them with success, passing every other call to the real C library: the action list of a plan
 * for another OS (Darwin's CLOEXEC_DEFAULT way) can be checked here, where that libc is not.
 */
final class RecordingLibC {
    final List<String> calls = new ArrayList<>();
    final LibC libc;

    RecordingLibC(LibC real) {
        libc = (LibC) Proxy.newProxyInstance(LibC.class.getClassLoader(), new Class<?>[] {LibC.class}, (proxy, method, args) -> {
            String name = method.getName();
            if (name.startsWith("posix_spawn_file_actions_add") || name.equals("posix_spawnattr_setflags")) {
                String shortName = name.replace("posix_spawn_file_actions_", "").replace("posix_spawnattr_", "");
                calls.add(shortName + Arrays.stream(args).skip(1).map(RecordingLibC::show).collect(Collectors.joining(" ", " ", "")));
                return 0;
            }
            try {
                return method.invoke(real, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    private static String show(Object arg) {
        if (arg instanceof Short) return "0x" + Integer.toHexString(((Short) arg) & 0xffff);
        if (arg instanceof Pointer) return "<path>";
        return String.valueOf(arg);
    }
}
