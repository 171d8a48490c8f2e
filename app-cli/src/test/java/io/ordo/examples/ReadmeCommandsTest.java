package io.ordo.examples;

import io.ordo.systemtest.ProjectFiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every README command line that uses Redis names the address it uses, so copying one never hits an unexpected server. */
class ReadmeCommandsTest {
    @Test
    void every_redis_command_in_the_readme_names_its_redis_address() throws IOException {
        List<String> commands = shellCommands(Files.readAllLines(ProjectFiles.projectRoot().resolve("README.md")));
        List<String> onRedis = commands.stream()
                .filter(command -> command.startsWith("scripts/ordo ") || command.startsWith("java -jar"))
                .filter(command -> command.contains("--backend lettuce") || command.contains("--backend jedis"))
                .toList();

        assertThat(onRedis).isNotEmpty().allSatisfy(command -> assertThat(command).contains("--redis redis"));
    }

    /** The lines of the README's sh blocks, a line continued with a backslash joined to the next. */
    private static List<String> shellCommands(List<String> lines) {
        List<String> commands = new ArrayList<>();
        boolean inShell = false;
        StringBuilder pending = new StringBuilder();
        for (String line : lines) {
            if (line.startsWith("```")) {
                inShell = line.equals("```sh") && !inShell;
                continue;
            }
            if (!inShell) {
                continue;
            }
            String text = line.strip();
            if (text.endsWith("\\")) {
                pending.append(text, 0, text.length() - 1).append(' ');
                continue;
            }
            commands.add(pending.append(text).toString().replaceAll("\\s+", " "));
            pending.setLength(0);
        }
        return commands;
    }
}
