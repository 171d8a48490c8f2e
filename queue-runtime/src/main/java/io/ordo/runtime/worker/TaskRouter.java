package io.ordo.runtime.worker;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.NewTask;
import io.ordo.domain.TaskTypes;
import io.ordo.domain.Text;
import io.ordo.domain.Validate;
import io.ordo.ports.PayloadCodec;
import io.ordo.runtime.codec.JacksonPayloadCodec;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Hands each task to the handler of its type (docs/routing.md): one worker serves several kinds of
 * task, each route decoding its payloads as its own class with its own codec. A task whose type has no
 * route goes to the fallback route if there is one, else to the {@link UnknownTypes} policy: a dead
 * letter (the default) or passed on to a worker that can handle it.
 *
 * <pre>{@code
 * TaskRouter router = TaskRouter.builder()
 *         .on(Deposit.class, (deposit, context) -> ...)           // type "Deposit", as Publisher names it
 *         .on("refund", Refund.class, refundCodec, (refund, context) -> ...)
 *         .build();
 * Worker<byte[]> worker = Worker.routing(store, router).options(options).build();
 * }</pre>
 * The worker runs the router as its handler: it hands over the payload's bytes, the router decodes them.
 * A payload its route cannot decode becomes a dead letter at once (it is poison); whatever the route's
 * handler returns or throws is the task's outcome, as with any handler.
 */
public final class TaskRouter implements TaskHandler<byte[]> {
    private final Map<String, Route<?>> routes;
    private final Route<?> fallback;
    private final UnknownTypes unknownTypes;

    private TaskRouter(Builder builder) {
        routes = Collections.unmodifiableMap(new LinkedHashMap<>(builder.routes));
        fallback = builder.fallback;
        unknownTypes = builder.unknownTypes;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The types with a route, in the order they were added. */
    public Set<String> types() {
        return routes.keySet();
    }

    @Override
    public Outcome handle(byte[] payload, TaskContext context) throws Exception {
        String type = context.task().type();
        Route<?> route = type == null ? null : routes.get(type);
        if (route == null) {
            route = fallback;
        }
        if (route == null) {
            return unknownTypes.outcomeFor(type);
        }
        return route.handle(payload, context);
    }

    /** One type's payload class, codec and handler. */
    private record Route<T>(Class<T> payloadClass, PayloadCodec codec, TaskHandler<? super T> handler) {
        Outcome handle(byte[] payload, TaskContext context) throws Exception {
            T value;
            try {
                value = codec.decode(payload, payloadClass);
            } catch (RuntimeException e) {
                return Outcome.fail("cannot decode the payload as " + payloadClass.getName() + ": "
                        + Text.withUnpairedSurrogatesReplaced(BackendStatus.oneLine(e)));
            }
            Outcome outcome = handler.handle(value, context);
            return outcome instanceof Outcome.Result result ? result.encoded(codec) : outcome; // the route's codec
        }
    }

    /** What becomes of a task no route takes. */
    public static final class UnknownTypes {
        private static final UnknownTypes DEAD_LETTER = new UnknownTypes(null);
        private final Duration passOnAfter;

        private UnknownTypes(Duration passOnAfter) {
            this.passOnAfter = passOnAfter;
        }

        /** It becomes a dead letter at once, with the reason {@code no handler for type X}: the default. */
        public static UnknownTypes deadLetter() {
            return DEAD_LETTER;
        }

        /**
         * It goes back to the queue unprocessed, its attempt not counted, for a worker that has a handler
         * for it, after {@code after}: the handler thread waits that long first, so this worker does not
         * take the same task back over and over (docs/routing.md).
         */
        public static UnknownTypes passOn(Duration after) {
            Validate.duration("after", after, Duration.ofMinutes(10));
            if (after.isZero()) {
                throw new InvalidInputException("after", "must be positive, or the worker would spin on the task");
            }
            return new UnknownTypes(after);
        }

        Outcome outcomeFor(String type) {
            String reason = type == null ? "no handler for tasks without a type" : "no handler for type " + type;
            return passOnAfter == null ? Outcome.fail(reason) : Outcome.passOn(passOnAfter, reason);
        }

        @Override
        public String toString() {
            return passOnAfter == null ? "deadLetter" : "passOn(" + passOnAfter + ")";
        }
    }

    /** Routes by type; the codec of a route that names none is {@link #codec}'s (JSON by default). */
    public static final class Builder {
        private final Map<String, Route<?>> routes = new LinkedHashMap<>();
        private Route<?> fallback;
        private PayloadCodec codec = new JacksonPayloadCodec();
        private UnknownTypes unknownTypes = UnknownTypes.deadLetter();

        private Builder() {
        }

        /** The codec of the routes added after this call that name none. Default: JSON through Jackson. */
        public Builder codec(PayloadCodec value) {
            codec = Validate.notNull("codec", value);
            return this;
        }

        /** Tasks of the type {@code Publisher} gives {@code payloadClass} by default ({@link TaskTypes#of}). */
        public <T> Builder on(Class<T> payloadClass, TaskHandler<? super T> handler) {
            return on(TaskTypes.of(Validate.notNull("payloadClass", payloadClass)), payloadClass, codec, handler);
        }

        public <T> Builder on(String type, Class<T> payloadClass, TaskHandler<? super T> handler) {
            return on(type, payloadClass, codec, handler);
        }

        /** Tasks of {@code type}, decoded as {@code payloadClass} with {@code payloadCodec}. One route per type. */
        public <T> Builder on(String type, Class<T> payloadClass, PayloadCodec payloadCodec, TaskHandler<? super T> handler) {
            Validate.text("type", type, NewTask.MAX_TYPE_LENGTH);
            if (routes.containsKey(type)) {
                throw new InvalidInputException("type", "already has a handler: " + type);
            }
            routes.put(type, route(payloadClass, payloadCodec, handler));
            return this;
        }

        /** Tasks of any type no route names, and tasks without a type: instead of {@link #unknownTypes}. */
        public <T> Builder otherwise(Class<T> payloadClass, TaskHandler<? super T> handler) {
            fallback = route(payloadClass, codec, handler);
            return this;
        }

        /** What becomes of a task no route takes (when there is no {@link #otherwise} route). Default: a dead letter. */
        public Builder unknownTypes(UnknownTypes value) {
            unknownTypes = Validate.notNull("unknownTypes", value);
            return this;
        }

        public TaskRouter build() {
            if (routes.isEmpty() && fallback == null) {
                throw new InvalidInputException("routes", "a router needs at least one route");
            }
            return new TaskRouter(this);
        }

        private static <T> Route<T> route(Class<T> payloadClass, PayloadCodec codec, TaskHandler<? super T> handler) {
            return new Route<>(Validate.notNull("payloadClass", payloadClass), Validate.notNull("codec", codec),
                    Validate.notNull("handler", handler));
        }
    }
}
