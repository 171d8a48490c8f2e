package io.ordo.examples.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A bank that takes deposits over HTTP and books them through an Ordo queue: each account is an
 * ordered partition, so its deposits are booked one after the other, in the order they came in.
 * Run it against a local Redis: {@code mvn -pl examples/spring-boot-sample -am spring-boot:run}.
 */
@SpringBootApplication
public class SampleApplication {
    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
