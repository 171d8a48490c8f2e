package io.ordo.examples.spring;

import org.springframework.stereotype.Component;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The booked balances, in memory: what the handler writes and the controller reads. */
@Component
public class Ledger {
    private final Map<String, Long> balances = new ConcurrentHashMap<>();

    public void credit(String account, long cents) {
        balances.merge(account, cents, Long::sum);
    }

    public long balance(String account) {
        return balances.getOrDefault(account, 0L);
    }
}
