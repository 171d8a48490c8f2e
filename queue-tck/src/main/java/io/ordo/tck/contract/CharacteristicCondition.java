package io.ordo.tck.contract;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Skips a contract test or group marked {@link RequiresCharacteristic} when the store under test does
 * not declare that characteristic. The declaration is read from the nearest test class up the
 * nesting that carries {@link StoreCharacteristics}: the backend's contract test.
 */
public final class CharacteristicCondition implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<RequiresCharacteristic> required = context.getElement()
                .flatMap(element -> AnnotationSupport.findAnnotation(element, RequiresCharacteristic.class));
        if (required.isEmpty()) {
            return ConditionEvaluationResult.enabled("needs no optional characteristic");
        }
        StoreCharacteristic needed = required.get().value();
        return declaredBy(context).contains(needed)
                ? ConditionEvaluationResult.enabled("the store declares " + needed)
                : ConditionEvaluationResult.disabled("the store does not declare " + needed + ": "
                        + needed.promise());
    }

    private static Set<StoreCharacteristic> declaredBy(ExtensionContext context) {
        for (Optional<ExtensionContext> level = Optional.of(context); level.isPresent();
             level = level.get().getParent()) {
            Optional<StoreCharacteristics> declared = level.get().getTestClass()
                    .flatMap(type -> AnnotationSupport.findAnnotation(type, StoreCharacteristics.class));
            if (declared.isPresent()) {
                Set<StoreCharacteristic> characteristics = EnumSet.noneOf(StoreCharacteristic.class);
                characteristics.addAll(List.of(declared.get().value()));
                return characteristics;
            }
        }
        return EnumSet.allOf(StoreCharacteristic.class);
    }
}
