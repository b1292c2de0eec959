package org.posixspawn.jruby.os.libc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.Variadic;
import org.junit.jupiter.api.Test;

/**
 * The variadic C functions are bound as variadic (jnr-ffi's @Variadic, as jnr-posix binds them; a
 * CFunction's fixed count in BoundLibC): on macOS
 * arm64 a fixed-arity call leaves open's mode and fcntl's argument in registers the callee never reads, so
 * redirect files got garbage permissions and F_SETFL might not set O_NONBLOCK (jruby/jruby#6983).
 */
class LibCBindingTest {
    private static final Map<String, Integer> VARIADIC = Map.of("open", 2, "fcntl", 2, "mremap", 4, "syscall", 1);

    @Test
    void everyVariadicFunctionIsBoundAsVariadicWithItsFixedArguments() {
        for (Class<?> binding : new Class<?>[] {LibCExtra.class, LinuxCalls.class}) {
            for (Method m : binding.getMethods()) {
                Variadic v = m.getAnnotation(Variadic.class);
                if (VARIADIC.containsKey(m.getName())) {
                    assertNotNull(v, m.getName() + " is variadic in C");
                    assertEquals(VARIADIC.get(m.getName()), v.fixedCount(), m.getName());
                } else {
                    assertNull(v, m.getName() + " is not variadic in C");
                }
            }
        }
    }

    @Test
    void everyVariadicFunctionOfTheSpawnIsCalledAsVariadicWithItsFixedArguments() throws IllegalAccessException {
        int bound = 0;
        for (Field f : BoundLibC.class.getDeclaredFields()) {
            if (f.getType() != CFunction.class) continue;
            CFunction function = (CFunction) f.get(null);
            assertEquals(VARIADIC.getOrDefault(function.name, -1), function.fixedCount, function.name);
            bound++;
        }
        assertEquals(LibC.class.getMethods().length, bound, "a CFunction for each of LibC's calls");
    }

    @Test
    void theVariadicBindingsWork() {
        int[] fds = new int[2];
        try (NativeBlock mem = new NativeBlock(16)) {
            Pointer pair = mem.reserve(8);
            assertEquals(0, Native.extra().pipe2(pair, Constants.O_CLOEXEC));
            fds[0] = pair.getInt(0);
            fds[1] = pair.getInt(4);
        }
        try {
            int flags = Native.libc.fcntl(fds[0], Constants.F_GETFL, 0);
            assertEquals(0, Native.libc.fcntl(fds[0], Constants.F_SETFL, flags | Constants.O_NONBLOCK));
            assertEquals(Constants.O_NONBLOCK, Native.libc.fcntl(fds[0], Constants.F_GETFL, 0) & Constants.O_NONBLOCK);
            assertEquals(1, Native.libc.fcntl(fds[1], 1 /* F_GETFD */, 0) & 1 /* FD_CLOEXEC */);
        } finally {
            Native.libc.close(fds[0]);
            Native.libc.close(fds[1]);
        }
    }
}
