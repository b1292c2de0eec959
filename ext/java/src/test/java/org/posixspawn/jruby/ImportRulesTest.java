package org.posixspawn.jruby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The layer rules of the extension, read from the sources' imports (and fully qualified names in code),
 * each broken one named with its file and import: the package walls Java 8 cannot draw.
 * <ul>
 * <li>the bridge ({@code org.posixspawn.jruby}) over {@code plan} (MRI's argument rules) and {@code os}
 * (the platform); {@code plan} never imports {@code os};</li>
 * <li>{@code os} imports nothing of JRuby, and of {@code plan} only its values (the classes that import
 * nothing of JRuby themselves: SpawnPlan, Redirect, PathName...);</li>
 * <li>inside {@code os}, each package imports only packages of a lower {@link #OS_LAYERS layer}:
 * capture, child, spawn, lookup and pty, libc, platform;</li>
 * <li>the bridge reaches {@code os/libc} only through {@link #BRIDGE_MAY_USE_FROM_LIBC}, never its calls
 * or constants, and no two bridge classes use each other.</li>
 * </ul>
 */
class ImportRulesTest {
    static final Path MAIN = Path.of("src/main/java");
    static final String ROOT = "org.posixspawn.jruby";
    /** The os packages from the top down; a package may import those after it, except the ones of its own layer. */
    static final List<Set<String>> OS_LAYERS = List.of(Set.of("capture"), Set.of("child"), Set.of("spawn"), Set.of("lookup", "pty"),
            Set.of("libc"), Set.of("platform"));
    /** What the bridge may use of os/libc: the one error type, the descriptor calls, and the diagnostics' switches. */
    static final Set<String> BRIDGE_MAY_USE_FROM_LIBC = Set.of("SpawnError", "Fds", "Features", "Trace");

    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern QUALIFIED = Pattern.compile("\\b(org\\.(?:jruby|jcodings|posixspawn)(?:\\.\\w+)+)");

    /** A source file: its package, its class name, what it imports, and its code without comments or strings. */
    record Source(Path path, String pkg, String name, Set<String> references, String code) {
        String where() {
            return MAIN.relativize(path).toString();
        }
    }

    @Test
    void everyLayerRuleHolds() {
        List<Source> sources = read(MAIN);
        assertTrue(sources.size() > 50, "found only " + sources.size() + " sources under " + MAIN.toAbsolutePath());
        List<String> broken = brokenRules(sources);
        assertEquals("", String.join("\n", broken), broken.size() + " layer rule(s) broken");
    }

    static List<String> brokenRules(List<Source> sources) {
        Set<String> planValues = sources.stream()
                .filter(s -> s.pkg.equals(ROOT + ".plan") && s.references.stream().noneMatch(ImportRulesTest::isJRuby))
                .map(s -> ROOT + ".plan." + s.name).collect(Collectors.toSet());
        Set<String> bridgeClasses = sources.stream().filter(s -> s.pkg.equals(ROOT) && !s.name.equals("package-info")).map(Source::name)
                .collect(Collectors.toSet());
        List<String> broken = new ArrayList<>();
        for (Source s : sources) {
            for (String ref : s.references) {
                String why = rule(s, ref, planValues);
                if (why != null) broken.add(s.where() + ": " + ref + " (" + why + ")");
            }
        }
        broken.addAll(bridgeCycles(sources, bridgeClasses));
        return broken;
    }

    /** Why {@code source} may not use {@code ref}, or null. */
    private static String rule(Source source, String ref, Set<String> planValues) {
        String pkg = source.pkg;
        if (pkg.startsWith(ROOT + ".plan") && ref.startsWith(ROOT + ".os")) return "plan never imports os";
        if (pkg.startsWith(ROOT + ".os")) {
            if (isJRuby(ref)) return "os imports nothing of JRuby";
            if (ref.startsWith(ROOT + ".plan.") && !planValues.contains(classOf(ref))) {
                return "os takes only plan's values, the plan classes that import nothing of JRuby";
            }
            if (ref.startsWith(ROOT + ".os.")) {
                int from = layer(osPackage(pkg)), to = layer(osPackage(ref));
                if (from < 0) return "package " + osPackage(pkg) + " has no place in ImportRulesTest.OS_LAYERS";
                if (to < 0) return "package " + osPackage(ref) + " has no place in ImportRulesTest.OS_LAYERS";
                if (to <= from && !osPackage(ref).equals(osPackage(pkg))) {
                    return "os/" + osPackage(pkg) + " may import only the os packages below its layer";
                }
            }
        }
        if (pkg.equals(ROOT) && ref.startsWith(ROOT + ".os.libc.")
                && !BRIDGE_MAY_USE_FROM_LIBC.contains(simpleName(classOf(ref)))) {
            return "the bridge never calls libc: it uses the os packages' classes, and of os/libc only " + new TreeSet<>(BRIDGE_MAY_USE_FROM_LIBC);
        }
        return null;
    }

    /** Pairs of bridge classes that use each other (by name, in code). */
    private static List<String> bridgeCycles(List<Source> sources, Set<String> bridgeClasses) {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (Source s : sources) {
            if (!s.pkg.equals(ROOT)) continue;
            Set<String> used = new TreeSet<>();
            for (String other : bridgeClasses) {
                if (!other.equals(s.name) && Pattern.compile("(?<![\\w.])" + other + "\\b").matcher(s.code).find()) used.add(other);
            }
            uses.put(s.name, used);
        }
        List<String> broken = new ArrayList<>();
        uses.forEach((a, used) -> {
            for (String b : used) {
                if (a.compareTo(b) < 0 && uses.getOrDefault(b, Set.of()).contains(a)) {
                    broken.add(a + ".java and " + b + ".java use each other (no two bridge classes may)");
                }
            }
        });
        return broken;
    }

    private static boolean isJRuby(String ref) {
        return ref.startsWith("org.jruby") || ref.startsWith("org.jcodings");
    }

    private static int layer(String osPackage) {
        for (int i = 0; i < OS_LAYERS.size(); i++) if (OS_LAYERS.get(i).contains(osPackage)) return i;
        return -1;
    }

    /** "spawn" for org.posixspawn.jruby.os.spawn[.Spawner...]. */
    private static String osPackage(String name) {
        String rest = name.substring((ROOT + ".os.").length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    /** The class a reference names: the name up to its first capitalised part (Pty.Terminal -> Pty). */
    private static String classOf(String ref) {
        StringBuilder out = new StringBuilder();
        for (String part : ref.split("\\.")) {
            if (out.length() > 0) out.append('.');
            out.append(part);
            if (Character.isUpperCase(part.charAt(0))) break;
        }
        return out.toString();
    }

    private static String simpleName(String name) {
        return name.substring(name.lastIndexOf('.') + 1);
    }

    static List<Source> read(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".java")).sorted().map(ImportRulesTest::source).collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Source source(Path path) {
        String text;
        try {
            text = Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String code = text.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "").replaceAll("\"(?:\\\\.|[^\"\\\\])*\"", "\"\"");
        Matcher pkg = Pattern.compile("^package\\s+([\\w.]+);", Pattern.MULTILINE).matcher(code);
        String packageName = pkg.find() ? pkg.group(1) : "";
        Set<String> references = new TreeSet<>();
        Matcher m = IMPORT.matcher(code);
        while (m.find()) references.add(m.group(1));
        Matcher q = QUALIFIED.matcher(code.replaceAll("(?m)^(import|package)\\s.*$", ""));
        while (q.find()) references.add(q.group(1));
        String name = path.getFileName().toString().replace(".java", "");
        return new Source(path, packageName, name, references, code);
    }
}
