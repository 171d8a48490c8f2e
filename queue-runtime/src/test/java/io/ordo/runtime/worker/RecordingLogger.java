package io.ordo.runtime.worker;

import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An SLF4J logger that keeps what is logged through it, with the throwable, for tests to look at. */
final class RecordingLogger extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;

    record Entry(Level level, String message, Throwable throwable) {
    }

    final transient List<Entry> entries = new CopyOnWriteArrayList<>();

    RecordingLogger() {
        name = "recording";
    }

    List<Entry> at(Level level) {
        return entries.stream().filter(entry -> entry.level() == level).toList();
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] arguments,
                                               Throwable throwable) {
        entries.add(new Entry(level, MessageFormatter.basicArrayFormat(pattern, arguments), throwable));
    }

    @Override
    public boolean isTraceEnabled() {
        return true;
    }

    @Override
    public boolean isDebugEnabled() {
        return true;
    }

    @Override
    public boolean isInfoEnabled() {
        return true;
    }

    @Override
    public boolean isWarnEnabled() {
        return true;
    }

    @Override
    public boolean isErrorEnabled() {
        return true;
    }
}
