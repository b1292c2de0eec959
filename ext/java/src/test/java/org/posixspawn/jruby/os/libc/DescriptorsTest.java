package org.posixspawn.jruby.os.libc;

import java.io.FileInputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The leak check itself: the descriptor a listing reads /proc/self/fd through is never taken for a leak. */
class DescriptorsTest {
    @Test
    void theListingsOwnDescriptorMovingToAFreedNumberIsNoLeak() throws Exception {
        FileInputStream lowest = new FileInputStream("/dev/null"); // the lowest free number: the next listing's, once closed
        Map<Integer, String> before = Descriptors.open();
        lowest.close();
        Descriptors.assertNoneOpenedSince(before);
    }
}
