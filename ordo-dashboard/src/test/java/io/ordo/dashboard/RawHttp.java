package io.ordo.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;

import static java.nio.charset.StandardCharsets.UTF_8;

/** One plain HTTP/1.1 GET over a socket on loopback, answered whole (status line, headers, body), so a test sees exactly what went over the wire. */
public final class RawHttp {
    private RawHttp() {
    }

    public static String get(int port, String path, String headers) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(40_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + headers
                    + "Connection: close\r\n\r\n").getBytes(UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), UTF_8);
        }
    }
}
