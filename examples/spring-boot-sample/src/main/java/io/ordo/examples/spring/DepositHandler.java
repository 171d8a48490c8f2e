package io.ordo.examples.spring;

import io.ordo.runtime.worker.Outcome;
import io.ordo.runtime.worker.TaskContext;
import io.ordo.runtime.worker.TaskHandler;
import io.ordo.spring.OrdoWorker;
import org.springframework.stereotype.Component;

// docs/spring-boot.md handler: begin
@Component
@OrdoWorker(queue = "deposits", concurrency = 4)
public class DepositHandler implements TaskHandler<Deposit> {
    private final Ledger ledger;

    public DepositHandler(Ledger ledger) {
        this.ledger = ledger;
    }

    @Override
    public Outcome handle(Deposit deposit, TaskContext context) {
        ledger.credit(deposit.account(), deposit.cents());
        return Outcome.success(); // throwing instead: retried later with backoff
    }
}
// docs/spring-boot.md handler: end
