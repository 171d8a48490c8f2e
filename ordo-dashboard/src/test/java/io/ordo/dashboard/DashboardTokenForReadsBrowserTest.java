package io.ordo.dashboard;

import com.google.inject.Guice;
import io.ordo.domain.NewTask;
import io.ordo.domain.Partition;
import io.ordo.domain.Priority;
import io.ordo.domain.QueueName;
import io.ordo.domain.TaskId;
import io.ordo.inmemory.InMemoryQueueModule;
import io.ordo.ports.Clock;
import io.ordo.ports.TaskStoreFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.ordo.dashboard.HeadlessChromium.await;
import static io.ordo.dashboard.HeadlessChromium.find;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/** A dashboard that wants the token for reads: the page says so without it, and shows the queues once opened with the printed link. */
@Tag("full")
class DashboardTokenForReadsBrowserTest {
    private static final String TOKEN = "reads-token-0123456789abcdef";

    @Test
    void the_printed_link_opens_a_dashboard_whose_reads_need_the_token() {
        TaskStoreFactory stores = Guice.createInjector(new InMemoryQueueModule(Clock.system())).getInstance(TaskStoreFactory.class);
        stores.forQueue(QueueName.of("guarded")).publish(List.of(new NewTask(TaskId.of("t-1"), Partition.regular("p"),
                Priority.DEFAULT, "{}".getBytes(UTF_8), Duration.ZERO, Map.of())));
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (DashboardServer server = DashboardServer.start(stores, "inmemory", new InetSocketAddress(loopback, 0),
                AccessGuard.create(TOKEN, true, true, loopback, List.of()), List.of(), Duration.ofSeconds(1))) {
            WebDriver driver = HeadlessChromium.driver();
            driver.get(server.url() + "static/favicon.svg");
            ((JavascriptExecutor) driver).executeScript("sessionStorage.clear()");

            driver.get(server.url());
            assertThat(find(By.cssSelector("main p.error")).getText()).contains("reads on this dashboard need its token");

            // pasted into the tab that shows the refusal (only the fragment changes), then opened afresh
            for (boolean afresh : List.of(false, true)) {
                if (afresh) {
                    driver.get(server.url() + "static/favicon.svg");
                    ((JavascriptExecutor) driver).executeScript("sessionStorage.clear()");
                }
                driver.get(server.url() + "#token=" + TOKEN);
                await("the queue row", d -> !d.findElements(By.cssSelector("tr[data-queue='guarded'] td[data-field='ready']")).isEmpty());
                assertThat(find(By.cssSelector("tr[data-queue='guarded'] td[data-field='ready']")).getText()).isEqualTo("1");
                assertThat(driver.getCurrentUrl()).doesNotContain("token");
            }
        } finally {
            stores.close();
        }
    }
}
