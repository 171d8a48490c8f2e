package io.ordo.tck.contract;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a contract test or group: it holds only for a store that keeps this characteristic, and is
 * skipped, with the reason, for a store that does not declare it.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface RequiresCharacteristic {
    StoreCharacteristic value();
}
