package io.ordo.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Where queues live. Written in lower case on the command line ({@code --backend inmemory}). */
enum Backend {
    /** In this process only: state is gone when the command ends. Needs no Redis. */
    INMEMORY,
    LETTUCE,
    JEDIS;

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Reads a backend's name in any case; a wrong one is answered with the names in the case they are written. */
    static final class Converter implements ITypeConverter<Backend> {
        @Override
        public Backend convert(String name) {
            return Arrays.stream(values())
                    .filter(backend -> backend.toString().equalsIgnoreCase(name.trim()))
                    .findFirst()
                    .orElseThrow(() -> new TypeConversionException("expected one of "
                            + Arrays.stream(values()).map(Backend::toString).collect(Collectors.joining(", "))
                            + " but was '" + name + "'"));
        }
    }
}
