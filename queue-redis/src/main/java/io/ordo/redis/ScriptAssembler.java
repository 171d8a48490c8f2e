package io.ordo.redis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts a script together from its resource and the shared library ({@code common.lua}), keeping of the
 * library only the statements the script needs (docs/decisions/script-library-per-script.md).
 *
 * <p>Redis runs a script's whole text at every call, so every function the library defines is made
 * again each time: a script that defines only what it uses costs less per call. The library is read
 * as a sequence of top-level statements, each starting at column 0 with {@code function O.},
 * {@code O.} or {@code local}, together with the comment lines just above it. A statement is kept
 * when the script body names what it defines ({@code O.name}, or a local name such as {@code call}),
 * or when a kept statement does, transitively (names in comments do not count; the library has no
 * long strings or long comments). Kept statements stay in the library's order, text
 * unchanged: nothing is generated, only left out.
 */
final class ScriptAssembler {
    private static final Pattern STATEMENT_START = Pattern.compile("^(function |local |O\\.)");
    private static final Pattern FUNCTION = Pattern.compile("^function (O\\.\\w+)");
    private static final Pattern LOCAL_FUNCTION = Pattern.compile("^local function (\\w+)");
    private static final Pattern LIBRARY_NAME = Pattern.compile("\\bO\\.(\\w+)");
    private static final Pattern BARE_NAME = Pattern.compile("(?<![.\\w:])([A-Za-z_]\\w*)");

    private record Statement(String text, Set<String> defines) {
    }

    private ScriptAssembler() {
    }

    /** The shebang line of {@code script}, the library statements it needs, then the rest of the script. */
    static String assemble(String script, String library) {
        int endOfShebang = script.indexOf('\n');
        if (!script.startsWith("#!lua") || endOfShebang < 0) {
            throw new IllegalStateException("a script must start with a '#!lua' shebang line");
        }
        String body = script.substring(endOfShebang + 1);
        List<String> lines = library.lines().toList();
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (STATEMENT_START.matcher(lines.get(i)).find()) {
                starts.add(i);
            }
        }
        if (starts.isEmpty()) {
            return script.substring(0, endOfShebang + 1) + library + body;
        }
        List<Integer> begins = new ArrayList<>();
        for (int k = 0; k < starts.size(); k++) {
            int begin = starts.get(k);
            int previousStart = k == 0 ? -1 : starts.get(k - 1);
            while (begin - 1 > previousStart && isCommentOrBlank(lines.get(begin - 1))) {
                begin--;
            }
            begins.add(begin);
        }
        String header = join(lines, 0, begins.get(0));
        List<Statement> statements = new ArrayList<>();
        Map<String, Integer> definedBy = new HashMap<>();
        for (int k = 0; k < starts.size(); k++) {
            int end = k + 1 < starts.size() ? begins.get(k + 1) : lines.size();
            Statement statement = new Statement(join(lines, begins.get(k), end), defines(lines.get(starts.get(k))));
            for (String name : statement.defines) {
                definedBy.put(name, statements.size());
            }
            statements.add(statement);
        }
        BitSet kept = new BitSet(statements.size());
        Deque<String> toScan = new ArrayDeque<>();
        toScan.add(body);
        while (!toScan.isEmpty()) {
            for (String name : namesUsed(toScan.pop())) {
                Integer index = definedBy.get(name);
                if (index != null && !kept.get(index)) {
                    kept.set(index);
                    toScan.add(statements.get(index).text);
                }
            }
        }
        StringBuilder assembled = new StringBuilder(script.length() + library.length());
        assembled.append(script, 0, endOfShebang + 1).append(header);
        kept.stream().forEach(index -> assembled.append(statements.get(index).text));
        return assembled.append(body).toString();
    }

    /** What a statement's first line defines: {@code O.name} for library fields, the plain name for locals. */
    private static Set<String> defines(String firstLine) {
        Set<String> names = new LinkedHashSet<>();
        Matcher function = FUNCTION.matcher(firstLine);
        Matcher localFunction = LOCAL_FUNCTION.matcher(firstLine);
        if (function.find()) {
            names.add(function.group(1));
        } else if (localFunction.find()) {
            names.add(localFunction.group(1));
        } else {
            String assigned = firstLine.startsWith("local ") ? firstLine.substring("local ".length()) : firstLine;
            int equals = assigned.indexOf('=');
            for (String name : (equals < 0 ? assigned : assigned.substring(0, equals)).split(",")) {
                if (!name.isBlank()) {
                    names.add(name.strip());
                }
            }
        }
        return names;
    }

    /** Every {@code O.name} and every plain name in the code of the text (comments left out). */
    private static Set<String> namesUsed(String text) {
        text = withoutComments(text);
        Set<String> names = new LinkedHashSet<>();
        Matcher field = LIBRARY_NAME.matcher(text);
        while (field.find()) {
            names.add("O." + field.group(1));
        }
        Matcher bare = BARE_NAME.matcher(text);
        while (bare.find()) {
            names.add(bare.group(1));
        }
        return names;
    }

    /** The text with every {@code --} comment cut off (a {@code --} inside a quoted string is kept). */
    static String withoutComments(String text) {
        StringBuilder code = new StringBuilder(text.length());
        String[] lines = text.split("\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n];
            char quote = 0;
            int end = line.length();
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (quote != 0) {
                    if (c == '\\') {
                        i++;
                    } else if (c == quote) {
                        quote = 0;
                    }
                } else if (c == '\'' || c == '"') {
                    quote = c;
                } else if (c == '-' && i + 1 < line.length() && line.charAt(i + 1) == '-') {
                    end = i;
                    break;
                }
            }
            code.append(line, 0, end).append(n + 1 < lines.length ? "\n" : "");
        }
        return code.toString();
    }

    private static boolean isCommentOrBlank(String line) {
        return line.isBlank() || line.startsWith("--");
    }

    private static String join(List<String> lines, int from, int to) {
        StringBuilder text = new StringBuilder();
        for (int i = from; i < to; i++) {
            text.append(lines.get(i)).append('\n');
        }
        return text.toString();
    }
}
