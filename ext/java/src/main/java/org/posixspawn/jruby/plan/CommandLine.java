package org.posixspawn.jruby.plan;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jruby.util.ByteList;

/**
 * The command part of rb_exec_fillarg: whether a one-String command line goes to /bin/sh or is split on
 * blanks and run directly, and the program and argv either way.
 */
final class CommandLine {
    static final PathName SHELL = PathName.of("/bin/sh");
    /** MRI: posix_sh_cmds, words that make a command line go to the shell. */
    private static final Set<String> SHELL_WORDS = new HashSet<>(Arrays.asList(
            "!", ".", ":", "break", "case", "colon", "continue", "do", "done", "elif", "else", "esac", "eval",
            "exec", "exit", "export", "fi", "for", "if", "in", "readonly", "return", "set", "shift", "then",
            "times", "trap", "unset", "until", "while"));
    /** MRI: the meta characters rb_exec_fillarg looks for, as a table indexed by byte. */
    private static final boolean[] SHELL_META = new boolean[256];
    static {
        for (char c : "*?{}[]<>()~&|\\$;'`\"\n#".toCharArray()) SHELL_META[c] = true;
    }

    private CommandLine() {}

    /**
     * MRI: rb_exec_fillarg. {@code program}: the path of a [path, argv0] pair, or null; {@code words}: the
     * command's Strings (argv0 first), already checked for NUL bytes.
     */
    static void fill(SpawnPlan.Builder plan, PathName program, List<ByteList> words) {
        if (program == null && words.size() == 1 && needsShell(words.get(0))) {
            plan.program = SHELL;
            plan.argv.add(ascii("sh"));
            plan.argv.add(ascii("-c"));
            plan.argv.add(Conversions.bytes(words.get(0)));
            plan.command = new PathName(Conversions.bytes(words.get(0)), words.get(0).getEncoding().toString());
            return;
        }
        List<ByteList> argv = program == null && words.size() == 1 ? splitWords(words.get(0)) : words;
        if (argv.isEmpty()) argv = Arrays.asList(new ByteList());
        plan.program = program != null ? program : new PathName(Conversions.bytes(argv.get(0)), argv.get(0).getEncoding().toString());
        plan.command = plan.program;
        for (ByteList word : argv) plan.argv.add(Conversions.bytes(word));
    }

    // MRI: rb_exec_fillarg's test for shell meta characters and reserved words
    private static boolean needsShell(ByteList line) {
        int firstStart = -1, firstLen = -1;
        for (int i = 0; i < line.realSize(); i++) {
            int c = line.get(i) & 0xff;
            if (c == ' ' || c == '\t') {
                if (firstStart >= 0 && firstLen < 0) firstLen = i - firstStart;
            } else if (firstStart < 0) {
                firstStart = i;
            }
            if (SHELL_META[c]) return true;
            if (firstLen < 0) {
                if (c == '=') return true;
                if (c == '/') firstLen = 0x100; // a path: never a shell word
            }
        }
        if (firstStart < 0) return false;
        if (firstLen < 0) firstLen = line.realSize() - firstStart;
        if (firstLen > 9) return false;
        String first = new String(line.unsafeBytes(), line.begin() + firstStart, firstLen, StandardCharsets.ISO_8859_1);
        return SHELL_WORDS.contains(first);
    }

    /** The words of a command line without shell syntax, split on blanks (keeping the line's encoding). */
    private static List<ByteList> splitWords(ByteList line) {
        List<ByteList> words = new ArrayList<>();
        int i = 0, n = line.realSize();
        while (i < n) {
            while (i < n && (line.get(i) == ' ' || line.get(i) == '\t')) i++;
            int start = i;
            while (i < n && line.get(i) != ' ' && line.get(i) != '\t') i++;
            if (i > start) words.add(line.makeShared(start, i - start));
        }
        return words;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
