package io.ordo.jmh.redis;

import io.ordo.redis.RedisEndpoint;
import io.ordo.redis.RedisTransport;

import java.time.Duration;

/** Answers every function call with the reply set last, and keeps the arguments of the last call. */
final class CannedTransport implements RedisTransport {
    Object reply;
    byte[][] lastArgs;

    @Override
    public Object fcall(String function, byte[][] keys, byte[][] args) {
        lastArgs = args;
        return reply;
    }

    @Override
    public void loadLibrary(String code) {
    }

    @Override
    public void awaitElement(byte[] key, Duration timeout) {
    }

    @Override
    public RedisEndpoint endpoint() {
        return RedisEndpoint.of("127.0.0.1", 1);
    }

    @Override
    public void close() {
    }
}
