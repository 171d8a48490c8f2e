package io.ordo.cli.publish;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The lines of a stream as raw bytes, with no decoding (the bytes are published as they are), and
 * a bound on a line's length so one huge line cannot fill the memory. A line ends at {@code \n};
 * a {@code \r} before it and a UTF-8 byte order mark at the start are dropped.
 */
public final class ByteLines implements AutoCloseable {
    private final InputStream in;
    private final int maxLength;
    private final byte[] buffer = new byte[64 * 1024];
    private int position;
    private int limit;
    private int number;
    private boolean started;

    public ByteLines(InputStream in, int maxLength) {
        this.in = in;
        this.maxLength = maxLength;
    }

    /** A line that does not fit: its number and that it is longer than the limit. */
    public static final class LineTooLong extends IOException {
        private static final long serialVersionUID = 1L;
        private final int line;

        LineTooLong(int line, int limit) {
            super("is longer than " + limit + " bytes");
            this.line = line;
        }

        public int line() {
            return line;
        }
    }

    /** The next line without its terminator, or null at the end of the stream. */
    public byte[] next() throws IOException {
        byte[] line = new byte[Math.min(256, maxLength + 1)];
        int length = 0;
        boolean any = false;
        while (true) {
            if (position == limit && !fill()) {
                if (!any) {
                    return null;
                }
                break;
            }
            any = true;
            byte next = buffer[position++];
            if (next == '\n') {
                break;
            }
            if (length > maxLength) { // one byte more than allowed: a trailing \r may still be dropped
                number++;
                throw new LineTooLong(number, maxLength);
            }
            if (length == line.length) {
                line = Arrays.copyOf(line, Math.min(line.length * 2, maxLength + 1));
            }
            line[length++] = next;
        }
        number++;
        if (length > 0 && line[length - 1] == '\r') {
            length--;
        }
        if (length > maxLength) {
            throw new LineTooLong(number, maxLength);
        }
        int from = 0;
        if (!started) {
            started = true;
            if (length >= 3 && (line[0] & 0xFF) == 0xEF && (line[1] & 0xFF) == 0xBB && (line[2] & 0xFF) == 0xBF) {
                from = 3;
            }
        }
        return Arrays.copyOfRange(line, from, length);
    }

    /** The number of the line {@link #next()} returned last, from 1. */
    public int number() {
        return number;
    }

    /** Whether a next line may be read without waiting (the input has bytes at hand). */
    public boolean moreAtHand() throws IOException {
        return position < limit || in.available() > 0;
    }

    private boolean fill() throws IOException {
        int read = in.read(buffer);
        if (read <= 0) {
            return false;
        }
        position = 0;
        limit = read;
        return true;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
