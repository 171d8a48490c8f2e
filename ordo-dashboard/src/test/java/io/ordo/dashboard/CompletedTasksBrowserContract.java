package io.ordo.dashboard;

import io.ordo.domain.ConsumerId;
import io.ordo.domain.Partition;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.ports.TaskStore;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.ordo.dashboard.HeadlessChromium.await;
import static io.ordo.dashboard.HeadlessChromium.click;
import static io.ordo.dashboard.HeadlessChromium.find;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's Completed page in a real browser: the completed tasks a queue keeps with their results, and
 * what a queue that keeps none says. Part of the browser contract, in a class of its own as the contract is long;
 * each backend's browser test extends it and so runs the whole contract.
 */
abstract class CompletedTasksBrowserContract extends DashboardBrowserContract {

    @Test
    void the_completed_list_shows_kept_tasks_latest_first_and_a_task_s_page_its_result() {
        QueueName queue = freshQueue();
        TaskStore store = stores().forQueue(queue);
        store.configure(store.settings().toBuilder().resultRetention(Duration.ofHours(1)).build());
        ConsumerId worker = ConsumerId.of("browser-worker-results");
        store.publish(List.of(newTask("invoice-1", Partition.regular("invoices"), 0, Duration.ZERO, "{\"order\":1}")));
        store.consume(worker, 1, Duration.ZERO);
        store.complete(worker, Map.of(TaskId.of("invoice-1"), "{\"total\":42}".getBytes(UTF_8)));
        store.publish(List.of(newTask("invoice-2", Partition.regular("invoices"), 0, Duration.ZERO, "{\"order\":2}"),
                newTask("waiting", Partition.regular("invoices"), 0, Duration.ZERO, "{}")));
        store.consume(worker, 1, Duration.ZERO);
        store.ack(worker, List.of(TaskId.of("invoice-2")));

        open("/queues/" + queue, false);
        click(By.id("tab-completed"));
        await("the completed tasks", driver -> driver.getCurrentUrl().endsWith("/queues/" + queue + "/completed"));
        assertThat(rowIds("#completed-tasks")).as("the latest to go first").containsExactly("invoice-2", "invoice-1");
        assertThat(find(By.id("completed-total")).getText()).isEqualTo("2");
        assertThat(find(By.id("results-kept")).getText()).startsWith("Kept 1 h 0 min after their ack");
        String row = "#completed-tasks tr[data-id='invoice-1'] ";
        assertThat(find(By.cssSelector(row + "td[data-field='result']")).getText()).isEqualTo("12 B");
        assertThat(find(By.cssSelector(row + "td[data-field='kept-until']")).getText()).startsWith("in 59 min");
        assertThat(find(By.cssSelector(row + "td[data-field='payload']")).getText()).isEqualTo("{\"order\":1}");
        assertThat(find(By.cssSelector("#completed-tasks tr[data-id='invoice-2'] td[data-field='result']")).getText())
                .isEqualTo("none");

        click(By.cssSelector(row + "a[href*='task?id=invoice-1']"));
        await("the task's page", driver -> driver.getCurrentUrl().contains("/task?id=invoice-1"));
        assertThat(find(By.id("task-result")).getText()).isEqualTo("{\"total\":42}");
        assertThat(find(By.id("task-fields")).getText()).contains("completed", "Kept until");
    }

    @Test
    void a_queue_that_keeps_no_results_says_so_on_the_completed_page() {
        QueueName queue = freshQueue();
        stores().forQueue(queue).publish(List.of(newTask("plain", Partition.regular("p"), 0, Duration.ZERO, "{}")));

        open("/queues/" + queue + "/completed", false);

        assertThat(find(By.id("completed-tasks")).getText()).startsWith("Results are not kept");
        assertThat(find(By.id("completed-total")).getText()).isEqualTo("0");
        assertThat(find(By.id("tab-completed")).getAttribute("aria-current")).isEqualTo("page");
    }
}
