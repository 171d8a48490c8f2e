package io.ordo.tck.contract;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declared on a backend's contract test: the {@link StoreCharacteristic}s its store keeps. A test
 * without this annotation runs the whole contract (every characteristic), so a store can only leave
 * out a promise by saying so.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface StoreCharacteristics {
    StoreCharacteristic[] value();
}
