package io.ordo.runtime;

import io.ordo.domain.InvalidInputException;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.TaskId;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

class PublicationTest {
    private final Publication<String> publication = Publication.of(Partition.regular("emails"), "hello");

    @Test
    void defaults_are_a_random_id_default_priority_no_delay_and_no_headers() {
        assertThat(publication.id()).isNotNull();
        assertThat(publication.priority()).isEqualTo(Priority.DEFAULT);
        assertThat(publication.delay()).isEqualTo(Duration.ZERO);
        assertThat(publication.headers()).isEmpty();
    }

    @Test
    void the_id_is_fixed_when_the_publication_is_made() {
        Publication<String> later = publication.withPriority(3).withDelay(Duration.ofSeconds(1));

        assertThat(later.id()).isEqualTo(publication.id());
    }

    @Test
    void withers_return_changed_copies() {
        Publication<String> changed = publication.withId("mail-1").withPriority(7)
                .withDelay(Duration.ofMinutes(2)).withHeader("trace", "abc");

        assertThat(changed.id()).isEqualTo(TaskId.of("mail-1"));
        assertThat(changed.priority()).isEqualTo(Priority.of(7));
        assertThat(changed.delay()).isEqualTo(Duration.ofMinutes(2));
        assertThat(changed.headers()).containsExactly(entry("trace", "abc"));
        assertThat(publication.headers()).isEmpty();
    }

    @Test
    void an_invalid_field_is_rejected_with_its_name() {
        assertThatThrownBy(() -> publication.withPriority(5000))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("priority: ");
        assertThatThrownBy(() -> publication.withDelay(Duration.ofSeconds(-1)))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("delay: ");
        assertThatThrownBy(() -> publication.withId(""))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("id: ");
        assertThatThrownBy(() -> publication.withHeader("trace", null))
                .isInstanceOf(InvalidInputException.class).hasMessage("headers[trace]: must not be null");
        assertThatThrownBy(() -> Publication.of(Partition.regular("emails"), null))
                .isInstanceOf(InvalidInputException.class).hasMessage("payload: must not be null");
    }
}
