package io.ordo.cli.dashboard;

import io.ordo.systemtest.OrdoProcess;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static io.ordo.dashboard.RawHttp.get;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ordo dashboard} bound beyond loopback (every address; the test talks to it on 127.0.0.1
 * only): it warns, wants the token for reads, answers only to its addresses and the names allowed,
 * and keeps the token off stdout.
 */
@Tag("full")
class DashboardExposureProcessTest {
    private static final String LINK = "ordo: open with the token: ";

    @Test
    void bound_to_every_address_it_warns_and_wants_the_token_for_reads() throws IOException {
        try (OrdoProcess dashboard = OrdoProcess.start("dashboard", "--listen", "0.0.0.0:0",
                "--allow-host", "ordo.example.com")) {
            dashboard.awaitErr("the last line of the start", line -> line.equals("ordo: Ctrl-C stops it"));
            String link = dashboard.awaitErr("the link with the token", line -> line.startsWith(LINK)).substring(LINK.length());
            String token = link.substring(link.indexOf("#token=") + "#token=".length());
            int port = Integer.parseInt(link.replaceAll("^http://[^:]+:(\\d+)/.*$", "$1"));
            assertThat(dashboard.err()).anyMatch(line -> line.startsWith("ordo: warning: the dashboard listens on 0.0.0.0:0, beyond this machine"));
            assertThat(dashboard.out()).noneMatch(line -> line.contains(token));

            assertThat(get(port, "/api/overview", "")).startsWith("HTTP/1.1 401").contains("reads on this dashboard need its token");
            assertThat(get(port, "/api/overview", "X-Ordo-Token: wrong-token-0123456789\r\n")).startsWith("HTTP/1.1 403");
            assertThat(get(port, "/api/overview", "X-Ordo-Token: " + token + "\r\n")).startsWith("HTTP/1.1 200");
            assertThat(get(port, "/", "")).as("the page itself holds no data").startsWith("HTTP/1.1 200");
            assertThat(withHost(port, "evil.example", token)).startsWith("HTTP/1.1 421");
            assertThat(withHost(port, "ordo.example.com", token)).startsWith("HTTP/1.1 200");
            assertThat(withHost(port, "ORDO.example.com:" + port, token)).startsWith("HTTP/1.1 200");
            dashboard.terminate();
            dashboard.awaitExit();
        }
    }

    @Test
    void on_loopback_reads_are_open_unless_asked_and_the_token_can_go_to_a_file() throws IOException {
        Path file = Files.createTempDirectory("ordo-dashboard").resolve("token");
        try (OrdoProcess dashboard = OrdoProcess.start("dashboard", "--listen", "127.0.0.1:0", "--token-for-reads",
                "--token-file", file.toString())) {
            dashboard.awaitErr("the last line of the start", line -> line.equals("ordo: Ctrl-C stops it"));
            String url = dashboard.awaitOut("the address", line -> line.startsWith("dashboard: ")).substring("dashboard: ".length());
            int port = Integer.parseInt(url.replaceAll("^http://[^:]+:(\\d+)/.*$", "$1"));
            String token = Files.readString(file).strip();
            assertThat(token).hasSize(43);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            assertThat(dashboard.err()).noneMatch(line -> line.contains(token)).noneMatch(line -> line.contains("warning"));
            assertThat(dashboard.out()).noneMatch(line -> line.contains(token));
            assertThat(get(port, "/api/overview", "")).startsWith("HTTP/1.1 401");
            assertThat(get(port, "/api/overview", "X-Ordo-Token: " + token + "\r\n")).startsWith("HTTP/1.1 200");
            dashboard.terminate();
            dashboard.awaitExit();
        }
    }

    private static String withHost(int port, String host, String token) throws IOException {
        try (java.net.Socket socket = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET /api/overview HTTP/1.1\r\nHost: " + host + "\r\nX-Ordo-Token: " + token
                    + "\r\nConnection: close\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
