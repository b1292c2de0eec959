package org.posixspawn.jruby;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import org.junit.jupiter.api.Test;

/** The background binding's list names classes that exist: a renamed one would silently leave it undone. */
class PosixSpawnLibraryTest {
    @Test
    void everyClassThePlainSpawnListNamesLoads() {
        for (String name : PosixSpawnLibrary.PLAIN_SPAWN_CLASSES) {
            assertDoesNotThrow(() -> Class.forName(name, false, PosixSpawnLibrary.class.getClassLoader()), name);
        }
    }
}
