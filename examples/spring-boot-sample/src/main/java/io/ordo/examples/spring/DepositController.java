package io.ordo.examples.spring;

import io.ordo.domain.Partition;
import io.ordo.ports.PublishReceipt;
import io.ordo.runtime.Publisher;
import io.ordo.spring.OrdoPublishers;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.Map;

// docs/spring-boot.md publisher: begin
@RestController
public class DepositController {
    private final Publisher<Deposit> deposits;
    private final Ledger ledger;

    public DepositController(OrdoPublishers publishers, Ledger ledger) {
        this.deposits = publishers.publisher("deposits", Deposit.class);
        this.ledger = ledger;
    }

    /** 202 with the task's id: the deposit is queued, and booked in order with the account's others. */
    @PostMapping("/accounts/{account}/deposits")
    public ResponseEntity<Map<String, String>> deposit(@PathVariable String account, @RequestParam long cents) {
        PublishReceipt receipt = deposits.publish(Partition.ordered(account), new Deposit(account, cents));
        return ResponseEntity.accepted().body(Map.of("task", receipt.id().value()));
    }

    @GetMapping("/accounts/{account}")
    public Map<String, Object> balance(@PathVariable String account) {
        return Map.of("account", account, "cents", ledger.balance(account));
    }
}
// docs/spring-boot.md publisher: end
