package io.ordo.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ordo dashboard}'s bad arguments: one line naming the option, exit 2, nothing served. */
class DashboardCommandTest {
    @Test
    void a_bad_address_token_or_interval_is_named() {
        assertBadInput(CliRun.of("dashboard", "--listen", "nowhere"), "ordo: --listen: must be HOST:PORT, e.g. 127.0.0.1:7420, was 'nowhere'");
        assertBadInput(CliRun.of("dashboard", "--listen", "127.0.0.1:99999"), "ordo: --listen: the port must be 0..65535, was 99999");
        assertBadInput(CliRun.of("dashboard", "--token", "short"),
                "ordo: --token: must have at least 16 characters (or leave it out for a random one)");
        assertBadInput(CliRun.of("dashboard", "--sample-every", "10ms"), "ordo: --sample-every: must be between 100ms and 1m, was 10ms");
        assertBadInput(CliRun.of("dashboard", "--read-only", "--token", "0123456789abcdef0123"),
                "ordo: --token and --read-only exclude each other (unless --token-for-reads)");
        assertBadInput(CliRun.of("dashboard", "--allow-host", "evil.example/path"),
                "ordo: --allow-host: must be a host name or address without port, was 'evil.example/path'");
        assertBadInput(CliRun.of("dashboard", "--read-only", "--token-file", "/tmp/never-written"),
                "ordo: --token-file: this dashboard has no token (--read-only)");
    }

    @Test
    void a_taken_port_is_one_line_naming_the_option() throws java.io.IOException {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            String listen = "127.0.0.1:" + taken.getLocalPort();
            assertBadInput(CliRun.of("dashboard", "--listen", listen), "ordo: --listen " + listen + ": Address already in use");
        }
    }

    private static void assertBadInput(CliRun run, String message) {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).containsExactly(message);
        assertThat(run.out()).isEmpty();
    }
}
